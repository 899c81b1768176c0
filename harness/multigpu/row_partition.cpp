#include "harness/multigpu/row_partition.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

namespace apsp::harness {

int Partition::first_tile(int r) const {
  const int base = tiles / ranks, extra = tiles % ranks;
  return r * base + std::min(r, extra);
}

int Partition::tile_count(int r) const { return tiles / ranks + (r < tiles % ranks ? 1 : 0); }

int Partition::owner(int kt) const {
  // The first `extra` ranks own base + 1 tiles each, the others base.
  const int base = tiles / ranks, extra = tiles % ranks;
  const int big = extra * (base + 1);
  return kt < big ? kt / (base + 1) : extra + (kt - big) / base;
}

int Partition::real_rows(int r) const { return std::clamp(n - first_row(r), 0, padded_rows(r)); }

int Partition::active_ranks() const { return std::min(ranks, tiles); }

uint64_t Partition::block_bytes(int r) const {
  return static_cast<uint64_t>(padded_rows(r)) * static_cast<uint64_t>(pitch) * sizeof(int32_t);
}

uint64_t Partition::panel_bytes() const {
  return static_cast<uint64_t>(tile) * static_cast<uint64_t>(pitch) * sizeof(int32_t);
}

uint64_t Partition::bytes_per_rank(int r) const {
  return block_bytes(r) + 2 * kPanelBuffers * kPanelRounds * panel_bytes();
}

uint64_t Partition::max_bytes_per_rank() const { return bytes_per_rank(0); }

Partition partition_rows(int n, int tile, int ranks) {
  auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("row partition of n = " + std::to_string(n) + ", tile " +
                                std::to_string(tile) + " over " + std::to_string(ranks) +
                                " ranks: " + why);
  };
  if (n < 1) refuse("n must be positive");
  if (tile < 1) refuse("the tile must be positive");
  if (ranks < 1) refuse("at least one rank is needed");
  const int64_t pitch = (int64_t{n} + tile - 1) / tile * tile;
  if (pitch > INT_MAX) refuse("n rounded up to the tile exceeds 2^31 - 1");
  Partition p;
  p.n = n;
  p.tile = tile;
  p.ranks = ranks;
  p.pitch = static_cast<int>(pitch);
  p.tiles = p.pitch / tile;
  return p;
}

std::vector<Step> schedule_steps(const Partition& p, bool lookahead, bool pairs) {
  std::vector<Step> steps;
  for (int first = 0; first < p.tiles;) {
    Step s;
    s.index = static_cast<int>(steps.size());
    s.first = first;
    s.rounds = pairs && first + 1 < p.tiles ? 2 : 1;
    s.buffer = s.index % Partition::kPanelBuffers;
    s.prepared_in = lookahead && s.index > 0 ? s.index - 1 : -1;
    steps.push_back(s);
    first += s.rounds;
  }
  return steps;
}

}  // namespace apsp::harness
