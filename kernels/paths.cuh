// The next hops on the device (harness/solve/paths.hpp has the rule and the host version; the same
// matrix, bit for bit). A block holds one row i and 256 consecutive targets j: the edges of i and
// d[i][k] are the same for all its threads (broadcast), the reads of d[k][j] are coalesced. Rows
// beyond the grid's 65535 are taken in strides of gridDim.y. During a round a chosen hop is
// stored as -2 - k ("pending"): the rows that read it this round see it still unsettled, as
// kNoHop, so every choice depends on the earlier rounds only.
#pragma once

#include <cstdint>

#include "kernels/common.cuh"

namespace apsp::kernels::paths {

inline constexpr int kNoHop = -1;

// Round 0: the smallest k of a tight edge i -> k of positive weight, or of one straight to j.
static __global__ void first_round(const int* __restrict__ d, int n,
                                   const long long* __restrict__ start, const int* __restrict__ to,
                                   const int* __restrict__ weight, int* __restrict__ next) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (int i = blockIdx.y; i < n; i += gridDim.y) {
    const int dij = d[at(i, j, n)];
    unsigned best = static_cast<unsigned>(kNoHop);  // the largest unsigned: any k is smaller
    if (dij < kInf) {
      for (long long e = start[i]; e < start[i + 1]; ++e) {
        const int k = to[e], w = weight[e];
        if (w != d[at(i, k, n)]) continue;  // not the lightest way to k
        if (w > 0 ? w + d[at(k, j, n)] == dij : k == j) best = min(best, static_cast<unsigned>(k));
      }
    }
    next[at(i, j, n)] = static_cast<int>(best);
  }
}

// Round r > 0 over the rows that have zero-weight edges: an open finite entry (i, j), j != i,
// takes as pending the smallest k of a zero-weight edge i -> k with d[k][j] = d[i][j] whose hop
// next[k][j] is settled. `changed` is set when anything is chosen.
static __global__ void zero_round(const int* __restrict__ d, int n, const int* __restrict__ rows,
                                  int row_count, const long long* __restrict__ start,
                                  const int* __restrict__ to, int* next, int* changed) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (int r = blockIdx.y; r < row_count; r += gridDim.y) {
    const int i = rows[r];
    const int dij = d[at(i, j, n)];
    if (j == i || dij >= kInf || next[at(i, j, n)] != kNoHop) continue;
    unsigned best = static_cast<unsigned>(kNoHop);
    for (long long e = start[i]; e < start[i + 1]; ++e) {
      const int k = to[e];
      if (d[at(k, j, n)] == dij && next[at(k, j, n)] >= 0)
        best = min(best, static_cast<unsigned>(k));
    }
    if (best != static_cast<unsigned>(kNoHop)) {
      next[at(i, j, n)] = -2 - static_cast<int>(best);
      *changed = 1;
    }
  }
}

// After a round: its pending hops become settled ones.
static __global__ void settle(int n, const int* __restrict__ rows, int row_count,
                              int* __restrict__ next) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (int r = blockIdx.y; r < row_count; r += gridDim.y) {
    const size_t ij = at(rows[r], j, n);
    if (next[ij] <= -2) next[ij] = -2 - next[ij];
  }
}

// Every finite entry off the diagonal must have a hop: the lowest open one, as i * n + j.
static __global__ void find_open(const int* __restrict__ d, int n, const int* __restrict__ next,
                                 unsigned long long* first) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  for (int i = blockIdx.y; i < n; i += gridDim.y)
    if (j != i && d[at(i, j, n)] < kInf && next[at(i, j, n)] == kNoHop)
      atomicMin(first, at(i, j, n));
}

// out = in transposed (n x n, row-major; the predecessors are the reversed graph's next hops,
// whose distances are d transposed): 32 x 32 tiles through shared memory, padded a column so
// that the transposed reads hit 32 banks, with reads and writes both coalesced.
inline constexpr int kTransposeTile = 32, kTransposeRows = 8;  // a block: 32 x 8 threads
static __global__ void transpose(const int* __restrict__ in, int* __restrict__ out, int n) {
  __shared__ int tile[kTransposeTile][kTransposeTile + 1];
  const int x0 = blockIdx.x * kTransposeTile, y0 = blockIdx.y * kTransposeTile;
  for (int r = threadIdx.y; r < kTransposeTile; r += kTransposeRows)
    if (y0 + r < n && x0 + threadIdx.x < n)
      tile[r][threadIdx.x] = in[at(y0 + r, x0 + threadIdx.x, n)];
  __syncthreads();
  for (int r = threadIdx.y; r < kTransposeTile; r += kTransposeRows)
    if (x0 + r < n && y0 + threadIdx.x < n)
      out[at(x0 + r, y0 + threadIdx.x, n)] = tile[threadIdx.x][r];
}

}  // namespace apsp::kernels::paths
