// regtile64: 64 x 64 tiles on 32 x 32 threads, each thread a 2 x 2 block held in registers.
// A thread owns rows (ty, ty + 32) and columns (tx, tx + 32) of its tile: the stride of 32
// keeps a warp's 32 row reads on 32 consecutive words (no bank conflicts), and each k step
// reads 2 + 2 shared words for 4 updates instead of blocked32's 2 for 1.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels {

inline constexpr int kTile64 = 64;     // <- tile edge, elements
inline constexpr int kThreads64 = 32;  // <- threads per tile edge; 2 x 2 elements each
inline constexpr int kPer64 = kTile64 / kThreads64;
static_assert(kPer64 * kThreads64 == kTile64, "the thread block must cover the tile exactly");

// Pivot tile, in place in shared memory (same argument as blocked32_phase1: in step k only
// elements off row k and column k change, and only those two are read).
static __global__ void __launch_bounds__(kThreads64 * kThreads64)
    regtile64_phase1(int* __restrict__ d, int n, int kt) {
  __shared__ int s[kTile64][kTile64];
  const int tx = threadIdx.x, ty = threadIdx.y, base = kt * kTile64;
  int c[kPer64][kPer64];
#pragma unroll
  for (int a = 0; a < kPer64; ++a)
#pragma unroll
    for (int b = 0; b < kPer64; ++b) {
      c[a][b] = load<true>(d, n, base + ty + a * kThreads64, base + tx + b * kThreads64);
      s[ty + a * kThreads64][tx + b * kThreads64] = c[a][b];
    }
  __syncthreads();
  for (int k = 0; k < kTile64; ++k) {
#pragma unroll
    for (int a = 0; a < kPer64; ++a)
#pragma unroll
      for (int b = 0; b < kPer64; ++b) {
        const int cand = s[ty + a * kThreads64][k] + s[k][tx + b * kThreads64];
        if (cand < c[a][b]) {
          c[a][b] = cand;
          s[ty + a * kThreads64][tx + b * kThreads64] = cand;
        }
      }
    __syncthreads();
  }
#pragma unroll
  for (int a = 0; a < kPer64; ++a)
#pragma unroll
    for (int b = 0; b < kPer64; ++b)
      store<true>(d, n, base + ty + a * kThreads64, base + tx + b * kThreads64, c[a][b]);
}

// Pivot row (blockIdx.y == 0) and pivot column (blockIdx.y == 1), as pure products.
static __global__ void __launch_bounds__(kThreads64 * kThreads64)
    regtile64_phase2(int* __restrict__ d, int n, int kt) {
  if (blockIdx.x == kt) return;
  __shared__ int piv[kTile64][kTile64];
  __shared__ int own[kTile64][kTile64];
  const int tx = threadIdx.x, ty = threadIdx.y, base = kt * kTile64;
  const bool is_row = blockIdx.y == 0;
  const int i0 = is_row ? base : blockIdx.x * kTile64;
  const int j0 = is_row ? blockIdx.x * kTile64 : base;
  int c[kPer64][kPer64];
#pragma unroll
  for (int a = 0; a < kPer64; ++a)
#pragma unroll
    for (int b = 0; b < kPer64; ++b) {
      const int r = ty + a * kThreads64, q = tx + b * kThreads64;
      piv[r][q] = load<true>(d, n, base + r, base + q);
      c[a][b] = own[r][q] = load<true>(d, n, i0 + r, j0 + q);
    }
  __syncthreads();
  for (int k = 0; k < kTile64; ++k) {
    int lhs[kPer64], rhs[kPer64];  // lhs indexed by row, rhs by column
#pragma unroll
    for (int a = 0; a < kPer64; ++a) {
      lhs[a] = is_row ? piv[ty + a * kThreads64][k] : own[ty + a * kThreads64][k];
      rhs[a] = is_row ? own[k][tx + a * kThreads64] : piv[k][tx + a * kThreads64];
    }
#pragma unroll
    for (int a = 0; a < kPer64; ++a)
#pragma unroll
      for (int b = 0; b < kPer64; ++b) c[a][b] = min_plus(c[a][b], lhs[a], rhs[b]);
  }
#pragma unroll
  for (int a = 0; a < kPer64; ++a)
#pragma unroll
    for (int b = 0; b < kPer64; ++b)
      store<true>(d, n, i0 + ty + a * kThreads64, j0 + tx + b * kThreads64, c[a][b]);
}

// Every tile outside the pivot row and column: D = min(D, C (x) R), 2 x 2 per thread.
static __global__ void __launch_bounds__(kThreads64 * kThreads64)
    regtile64_phase3(int* __restrict__ d, int n, int kt) {
  if (blockIdx.x == kt || blockIdx.y == kt) return;
  __shared__ int col[kTile64][kTile64];  // tile (it, kt)
  __shared__ int row[kTile64][kTile64];  // tile (kt, jt)
  const int tx = threadIdx.x, ty = threadIdx.y, base = kt * kTile64;
  const int i0 = blockIdx.y * kTile64, j0 = blockIdx.x * kTile64;
  int c[kPer64][kPer64];
#pragma unroll
  for (int a = 0; a < kPer64; ++a)
#pragma unroll
    for (int b = 0; b < kPer64; ++b) {
      const int r = ty + a * kThreads64, q = tx + b * kThreads64;
      col[r][q] = load<true>(d, n, i0 + r, base + q);
      row[r][q] = load<true>(d, n, base + r, j0 + q);
      c[a][b] = load<true>(d, n, i0 + r, j0 + q);
    }
  __syncthreads();
#pragma unroll 16
  for (int k = 0; k < kTile64; ++k) {
    int lhs[kPer64], rhs[kPer64];
#pragma unroll
    for (int a = 0; a < kPer64; ++a) {
      lhs[a] = col[ty + a * kThreads64][k];
      rhs[a] = row[k][tx + a * kThreads64];
    }
#pragma unroll
    for (int a = 0; a < kPer64; ++a)
#pragma unroll
      for (int b = 0; b < kPer64; ++b) c[a][b] = min_plus(c[a][b], lhs[a], rhs[b]);
  }
#pragma unroll
  for (int a = 0; a < kPer64; ++a)
#pragma unroll
    for (int b = 0; b < kPer64; ++b)
      store<true>(d, n, i0 + ty + a * kThreads64, j0 + tx + b * kThreads64, c[a][b]);
}

}  // namespace apsp::kernels
