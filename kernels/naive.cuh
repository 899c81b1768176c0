// naive: one launch per k, one thread per (i, j). The baseline every speedup is measured against.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels {

// d[i][j] = min(d[i][j], d[i][k] + d[k][j]). Row k and column k cannot change during step k
// (d[k][k] = 0), so the in-place update is race-free; writing only on improvement keeps it so.
// Rows from first_row on, as far as the grid reaches: a grid is at most 65535 blocks high (524280
// rows of 8), so past that the host launches again for the rest (every n a device holds fits one).
// No loop here: with a row-stride loop nvcc divided for its trip count in every thread,
// and n = 10000 took 3678 ms on the H200; kept rolled (#pragma unroll 1), 3018 ms; this form
// 2774-2776 ms, the kernel before the loop 2768 in the same run (docs/perf-notes.md).
// This is the baseline of every speedup, so it stays the plain one-thread-one-element step.
static __global__ void naive_step(int* __restrict__ d, int n, int k, int first_row) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = first_row + blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  const int cand = d[at(i, k, n)] + d[at(k, j, n)];
  if (cand < d[at(i, j, n)]) d[at(i, j, n)] = cand;
}

}  // namespace apsp::kernels
