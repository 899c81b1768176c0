// naive: one launch per k, one thread per (i, j). The baseline every speedup is measured against.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels {

// d[i][j] = min(d[i][j], d[i][k] + d[k][j]). Row k and column k cannot change during step k
// (d[k][k] = 0), so the in-place update is race-free; writing only on improvement keeps it so.
// A grid is at most 65535 blocks high (524280 rows of 8), so rows past its height are taken in
// strides of it; below that (every n a device holds) each thread runs the body once, as before.
// The loop is kept rolled: unrolled, nvcc computes its trip count with an integer division, about
// as many instructions again as the body, and n = 10000 took 3.64 s on the H200 against 2.77 s
// without the loop (docs/perf-notes.md, step 20). This kernel is the baseline of every speedup.
static __global__ void naive_step(int* __restrict__ d, int n, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const int rows = gridDim.y * blockDim.y;
#pragma unroll 1
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < n; i += rows) {
    const int cand = d[at(i, k, n)] + d[at(k, j, n)];
    if (cand < d[at(i, j, n)]) d[at(i, j, n)] = cand;
  }
}

}  // namespace apsp::kernels
