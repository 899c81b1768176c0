// The multi-GPU layer's arithmetic (harness/multigpu/row_partition.hpp): row ownership, memory per rank
// and the step schedule, for P = 1..8 and awkward n.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "harness/multigpu/row_partition.hpp"

namespace apsp::harness {
namespace {

// 1, tile - 1, tile, tile + 1, n < tile x P, and large ones (46341: n^2 past 2^31).
std::vector<int> awkward_sizes(int tile) {
  return {1,        tile - 1, tile, tile + 1, 2 * tile + 5, 3 * tile - 1,
          7 * tile, 1000,     1337, 10007,    46341};
}

TEST(RowPartition, EveryTileOwnedOnceByContiguousBalancedRanges) {
  for (int tile : {64, 128}) {
    for (int n : awkward_sizes(tile)) {
      for (int ranks = 1; ranks <= 8; ++ranks) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", tile " + std::to_string(tile) +
                     ", P = " + std::to_string(ranks));
        const Partition p = partition_rows(n, tile, ranks);
        EXPECT_EQ(p.pitch % tile, 0);
        EXPECT_GE(p.pitch, n);
        EXPECT_LT(p.pitch - n, tile);
        EXPECT_EQ(p.tiles, p.pitch / tile);
        // Ranks' ranges follow each other from tile 0 to the last.
        int next = 0, most = 0, least = p.tiles, rows = 0;
        for (int r = 0; r < ranks; ++r) {
          EXPECT_EQ(p.first_tile(r), next);
          EXPECT_GE(p.tile_count(r), 0);
          for (int kt = p.first_tile(r); kt < p.first_tile(r) + p.tile_count(r); ++kt)
            EXPECT_EQ(p.owner(kt), r);
          next += p.tile_count(r);
          most = std::max(most, p.tile_count(r));
          least = std::min(least, p.tile_count(r));
          EXPECT_EQ(p.first_row(r), p.first_tile(r) * tile);
          EXPECT_EQ(p.padded_rows(r), p.tile_count(r) * tile);
          EXPECT_GE(p.real_rows(r), 0);
          EXPECT_LE(p.real_rows(r), p.padded_rows(r));
          EXPECT_EQ(p.idle(r), p.tile_count(r) == 0);
          if (p.real_rows(r) > 0) {
            EXPECT_LE(p.first_row(r) + p.real_rows(r), n);
          }
          rows += p.real_rows(r);
          // A rank's padding rows are in its last tile only, and only the last busy rank has any.
          if (!p.idle(r) && p.real_rows(r) < p.padded_rows(r)) {
            EXPECT_EQ(p.first_tile(r) + p.tile_count(r), p.tiles);
          }
        }
        EXPECT_EQ(next, p.tiles);
        EXPECT_EQ(rows, n);  // every row of the matrix belongs to exactly one rank
        EXPECT_LE(most - least, 1);
        EXPECT_EQ(p.active_ranks(), std::min(ranks, p.tiles));
        // Idle ranks are the last ones, and only when there are fewer tiles than ranks.
        for (int r = 0; r < ranks; ++r) EXPECT_EQ(p.idle(r), r >= p.tiles);
        // Owners are non-decreasing over the rounds.
        for (int kt = 1; kt < p.tiles; ++kt) EXPECT_LE(p.owner(kt - 1), p.owner(kt));
      }
    }
  }
}

TEST(RowPartition, ExamplesByHand) {
  // n = 1000, tile 128: pitch 1024, 8 tiles; over 3 ranks 3 + 3 + 2.
  const Partition p = partition_rows(1000, 128, 3);
  EXPECT_EQ(p.pitch, 1024);
  EXPECT_EQ(p.tiles, 8);
  EXPECT_EQ(p.tile_count(0), 3);
  EXPECT_EQ(p.tile_count(1), 3);
  EXPECT_EQ(p.tile_count(2), 2);
  EXPECT_EQ(p.first_row(2), 768);
  EXPECT_EQ(p.real_rows(2), 232);
  EXPECT_EQ(p.padded_rows(2), 256);
  EXPECT_EQ(p.owner(5), 1);
  EXPECT_EQ(p.owner(6), 2);
  // n = 100, tile 64, 8 ranks: 2 tiles, ranks 2..7 idle.
  const Partition q = partition_rows(100, 64, 8);
  EXPECT_EQ(q.tiles, 2);
  EXPECT_EQ(q.real_rows(0), 64);
  EXPECT_EQ(q.real_rows(1), 36);
  EXPECT_TRUE(q.idle(2));
  EXPECT_EQ(q.real_rows(7), 0);
  EXPECT_EQ(q.first_row(7), 128);
}

TEST(RowPartition, MemoryPerRankIsTheBlockAndEightPanels) {
  // n = 100000 over 8 ranks at tile 128: pitch 100096, 782 tiles: 98 for ranks 0..5, 97 for 6, 7.
  const Partition p = partition_rows(100000, 128, 8);
  EXPECT_EQ(p.pitch, 100096);
  EXPECT_EQ(p.tiles, 782);
  EXPECT_EQ(p.tile_count(0), 98);
  EXPECT_EQ(p.tile_count(7), 97);
  EXPECT_EQ(p.panel_bytes(), 128ull * 100096 * 4);
  EXPECT_EQ(p.block_bytes(0), 98ull * 128 * 100096 * 4);
  EXPECT_EQ(p.bytes_per_rank(0), (98ull * 128 + 8 * 128) * 100096 * 4);
  EXPECT_EQ(p.bytes_per_rank(7), (97ull * 128 + 8 * 128) * 100096 * 4);
  EXPECT_EQ(p.max_bytes_per_rank(), p.bytes_per_rank(0));
  // An idle rank holds its panels only.
  const Partition q = partition_rows(100, 64, 4);
  EXPECT_EQ(q.bytes_per_rank(3), 8ull * 64 * 128 * 4);
  for (int tile : {64, 128})
    for (int n : awkward_sizes(tile))
      for (int ranks = 1; ranks <= 8; ++ranks) {
        const Partition r = partition_rows(n, tile, ranks);
        uint64_t most = 0;
        for (int k = 0; k < ranks; ++k) most = std::max(most, r.bytes_per_rank(k));
        EXPECT_EQ(r.max_bytes_per_rank(), most);
      }
}

TEST(RowPartition, RefusesBadArgumentsInOneLine) {
  auto message = [](int n, int tile, int ranks) {
    try {
      partition_rows(n, tile, ranks);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  for (auto [n, tile, ranks] : {std::tuple{0, 64, 2},
                                {-5, 64, 2},
                                {100, 0, 2},
                                {100, -64, 2},
                                {100, 64, 0},
                                {100, 64, -1},
                                {2147483647, 128, 2}}) {
    const std::string m = message(n, tile, ranks);
    EXPECT_NE(m, "accepted") << n << " " << tile << " " << ranks;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  EXPECT_EQ(message(0, 64, 2), "row partition of n = 0, tile 64 over 2 ranks: n must be positive");
  EXPECT_EQ(message(2147483647, 128, 2),
            "row partition of n = 2147483647, tile 128 over 2 ranks: n rounded up to the tile "
            "exceeds 2^31 - 1");
  EXPECT_EQ(message(2147483647, 1, 2), "accepted");
  EXPECT_EQ(message(1, 1, 1000), "accepted");  // one tile, 999 idle ranks
}

TEST(StepSchedule, EveryRoundOnceBuffersAlternateAndLookahead) {
  for (int tile : {64, 128}) {
    for (int n : awkward_sizes(tile)) {
      for (int ranks = 1; ranks <= 8; ++ranks) {
        const Partition p = partition_rows(n, tile, ranks);
        for (bool lookahead : {false, true}) {
          for (bool pairs : {false, true}) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", P = " + std::to_string(ranks) +
                         (lookahead ? ", look-ahead" : "") + (pairs ? ", pairs" : ""));
            const std::vector<Step> steps = schedule_steps(p, lookahead, pairs);
            ASSERT_EQ(static_cast<int>(steps.size()), pairs ? (p.tiles + 1) / 2 : p.tiles);
            int next = 0;  // every round once, in order
            for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
              const Step& s = steps[i];
              EXPECT_EQ(s.index, i);
              EXPECT_EQ(s.first, next);
              // Pairs but an odd last round; one round each without pairs.
              EXPECT_EQ(s.rounds, pairs && s.first + 1 < p.tiles ? 2 : 1);
              EXPECT_LE(s.rounds, Partition::kPanelRounds);
              EXPECT_EQ(s.last(), s.first + s.rounds - 1);
              next = s.last() + 1;
              EXPECT_GE(s.buffer, 0);
              EXPECT_LT(s.buffer, Partition::kPanelBuffers);
              // Step 0 is always prepared at its start; with look-ahead every later one during
              // the step before, without it at its own start.
              EXPECT_EQ(s.prepared_in, lookahead && i > 0 ? i - 1 : -1);
              // The panels prepared during step i - 1 land while its own are read: another buffer.
              if (i > 0) {
                EXPECT_NE(s.buffer, steps[i - 1].buffer);
              }
            }
            EXPECT_EQ(next, p.tiles);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace apsp::harness
