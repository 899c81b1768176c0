// The multi-GPU layer's arithmetic (no CUDA): how the rows of an n x n matrix are split over P
// ranks for the distributed blocked Floyd-Warshall (harness/multigpu/distributed.hpp), what each rank
// allocates, and the order of the rounds (who closes each pivot, which panel buffer it goes to,
// which round prepares it). The engine allocates and schedules exactly what these say, so the
// harness can check memory before any allocation and the CPU tests check the schedule.
//
// Layout: the matrix is padded to pitch = round_up(n, tile) columns and tiles = pitch / tile row
// tiles (as sm90's, harness/measure/matrix_layout.hpp). Rank r owns a contiguous range of whole row tiles,
// balanced: the first tiles % P ranks one tile more than the rest. When tiles < P the last
// P - tiles ranks own nothing (idle): they take part in every broadcast and do nothing else.
// A rank holds its row block (its tiles x tile rows x pitch, padding rows included) and two
// panel buffers of two panels each (2 tile x pitch): a step of the schedule (one round, or a pair
// of rounds) gets its rounds' pivot-row panels in buffer step % 2, so that the next step's panels
// can land while this step's are read (look-ahead); and two column panels of the same size, where
// its pivot columns of the step go transposed (buffer step % 2).
#pragma once

#include <cstdint>
#include <vector>

namespace apsp::harness {

struct Partition {
  int n = 0, tile = 0, ranks = 0;
  int pitch = 0;  // round_up(n, tile): columns of every row block and panel
  int tiles = 0;  // pitch / tile: row tiles, rounds
  static constexpr int kPanelBuffers = 2;
  static constexpr int kPanelRounds = 2;  // panels a buffer: the rounds of the longest step

  // Rank r's row tiles are [first_tile(r), first_tile(r) + tile_count(r)).
  int first_tile(int r) const;
  int tile_count(int r) const;
  // The rank that owns row tile kt (0 <= kt < tiles).
  int owner(int kt) const;
  // First global row of rank r (first_tile(r) x tile), its rows that hold vertices (< n) and its
  // rows with padding (tile_count(r) x tile, what it allocates).
  int first_row(int r) const { return first_tile(r) * tile; }
  int real_rows(int r) const;
  int padded_rows(int r) const { return tile_count(r) * tile; }
  bool idle(int r) const { return tile_count(r) == 0; }
  // Ranks that own at least one tile: min(ranks, tiles).
  int active_ranks() const;

  // Device memory rank r's solve allocates: its row block plus the two panel buffers and the two
  // column panels, two panels each, (padded_rows(r) + 8 tile) x pitch x 4 bytes. The engine's only
  // allocations for a solve.
  uint64_t block_bytes(int r) const;
  uint64_t panel_bytes() const;  // one panel: tile x pitch x 4, also the bytes of one broadcast
  uint64_t bytes_per_rank(int r) const;
  uint64_t max_bytes_per_rank() const;  // rank 0's: it owns the most tiles
};

// Throws std::invalid_argument (one line) unless n >= 1, tile >= 1, 1 <= ranks and the padded
// matrix's indices fit int32 (pitch <= 2^31 - 1) and a rank's elements fit size_t.
Partition partition_rows(int n, int tile, int ranks);

// One step of the distributed schedule: round `first`, or the pair of rounds first and first + 1
// (where the solve runs pairs: runs_pairs, harness/multigpu/distributed.hpp; an odd last round
// alone).
//   buffer:      the panel buffer and column panel its rounds' panels go to (step % 2);
//   prepared_in: the step during whose phase 3 its panels and pivot columns were made and sent
//                (the step before, under look-ahead), or -1: at its own start, on the main streams;
// then every active rank runs its phase 3 over the step's rounds (distributed.hpp).
struct Step {
  int index = 0, first = 0, rounds = 1, buffer = 0, prepared_in = -1;
  int last() const { return first + rounds - 1; }
};
// The steps over p's rounds, in order: pairs where `pairs`, else one round each.
std::vector<Step> schedule_steps(const Partition& p, bool lookahead, bool pairs);

}  // namespace apsp::harness
