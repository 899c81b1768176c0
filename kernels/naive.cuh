// naive: one launch per k, one thread per (i, j). The baseline every speedup is measured against.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels {

// d[i][j] = min(d[i][j], d[i][k] + d[k][j]). Row k and column k cannot change during step k
// (d[k][k] = 0), so the in-place update is race-free; writing only on improvement keeps it so.
static __global__ void naive_step(int* __restrict__ d, int n, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  const int cand = d[at(i, k, n)] + d[at(k, j, n)];
  if (cand < d[at(i, j, n)]) d[at(i, j, n)] = cand;
}

}  // namespace apsp::kernels
