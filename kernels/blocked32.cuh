// blocked32: three-phase blocked Floyd-Warshall on 32 x 32 tiles, one thread per element,
// the tiles a phase reads cached in shared memory.
//
// Phases 2 and 3 are written as pure min-plus products of tiles that no block of the same
// launch writes (R' = P* (x) R, C' = C (x) P*, D' = min(D, C' (x) R')), so they need exactly one
// barrier, after the tiles are loaded. Phase 1 is the only in-place loop and needs one barrier
// per k: that barrier is the one a course report's printed kernel lacked (wrong at n = 1024).
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels {

// <- tile edge, elements; the block is kTile32 x kTile32 threads
inline constexpr int kTile32 = 32;

// Templates, so that batched (which reuses phase 1) and blocked32 can include them from several
// translation units; kTile is always kTile32 (one thread per element, 1024 threads).

// Floyd-Warshall on the pivot tile (kt, kt) in shared memory. In step k only elements outside
// row k and column k can change, and only row k and column k are read, so a thread writes its
// element only when it improves and one barrier per step separates the steps.
template <int kTile = kTile32>
__global__ void __launch_bounds__(kTile * kTile)
    blocked32_phase1(int* __restrict__ d, int n, int kt) {
  __shared__ int s[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = kt * kTile + ty, j = kt * kTile + tx;
  int c = load<true>(d, n, i, j);
  s[ty][tx] = c;
  __syncthreads();
  for (int k = 0; k < kTile; ++k) {
    const int cand = s[ty][k] + s[k][tx];
    if (cand < c) {
      c = cand;
      s[ty][tx] = c;
    }
    __syncthreads();
  }
  store<true>(d, n, i, j, c);
}

// Pivot row (blockIdx.y == 0: tile (kt, blockIdx.x)) and pivot column (blockIdx.y == 1: tile
// (blockIdx.x, kt)) from the closed pivot tile.
template <int kTile = kTile32>
__global__ void __launch_bounds__(kTile * kTile)
    blocked32_phase2(int* __restrict__ d, int n, int kt) {
  if (blockIdx.x == kt) return;
  __shared__ int piv[kTile][kTile];
  __shared__ int own[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool is_row = blockIdx.y == 0;
  const int i = (is_row ? kt : blockIdx.x) * kTile + ty;
  const int j = (is_row ? blockIdx.x : kt) * kTile + tx;
  piv[ty][tx] = load<true>(d, n, kt * kTile + ty, kt * kTile + tx);
  own[ty][tx] = load<true>(d, n, i, j);
  __syncthreads();
  int c = own[ty][tx];
  if (is_row) {
    for (int k = 0; k < kTile; ++k) c = min_plus(c, piv[ty][k], own[k][tx]);
  } else {
    for (int k = 0; k < kTile; ++k) c = min_plus(c, own[ty][k], piv[k][tx]);
  }
  store<true>(d, n, i, j, c);
}

// Every tile outside the pivot row and column: D = min(D, C (x) R).
template <int kTile = kTile32>
__global__ void __launch_bounds__(kTile * kTile)
    blocked32_phase3(int* __restrict__ d, int n, int kt) {
  if (blockIdx.x == kt || blockIdx.y == kt) return;
  __shared__ int col[kTile][kTile];  // tile (it, kt)
  __shared__ int row[kTile][kTile];  // tile (kt, jt)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * kTile + ty, j = blockIdx.x * kTile + tx;
  const int kbase = kt * kTile;
  col[ty][tx] = load<true>(d, n, i, kbase + tx);
  row[ty][tx] = load<true>(d, n, kbase + ty, j);
  __syncthreads();
  // col[ty][k] is one address per warp (a broadcast), row[k][tx] 32 consecutive words.
  int c = load<true>(d, n, i, j);
#pragma unroll
  for (int k = 0; k < kTile; ++k) c = min_plus(c, col[ty][k], row[k][tx]);
  store<true>(d, n, i, j, c);
}

}  // namespace apsp::kernels
