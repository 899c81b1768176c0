// Sizes for the GPU tests of pairs of rounds (kernels/sm90_pairs.cuh, lookahead 3), shared by
// the int32 and the 16-bit tests.
#pragma once

#include <vector>

namespace apsp::test {

// The schedule differs at every count of tiles: the first pair, the middle ones, an even end or
// an odd last round after the last pair. The sweep's sizes give 1, 2, 3, 8 and 9 tiles of 128;
// these give 4 to 12, each n 37 short of a whole tile.
inline std::vector<int> pairs_of_rounds_sizes() {
  std::vector<int> sizes;
  for (int tiles = 4; tiles <= 12; ++tiles) sizes.push_back(128 * tiles - 37);
  return sizes;
}

}  // namespace apsp::test
