// The largest entry below "unreachable" of a solved matrix: what the exactness proof
// (core/precision.hpp) takes from a result, found where the result is.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels::max_finite {

inline constexpr int kThreads = 256;

// *most = max(*most, every d[i][j] < unreachable, i < rows, j < n), d's rows `pitch` apart (a
// whole matrix: rows = n; a rank's block: its real rows); *most starts at 0 (the caller's). Grid-stride over rows (y) and columns (x); each block reduces to one atomic.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    reduce(const T* __restrict__ d, int rows, int n, int pitch, T unreachable, long long* most) {
  long long m = 0;
  for (int i = blockIdx.y; i < rows; i += gridDim.y) {
    const T* row = d + at(i, 0, pitch);
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
      const T x = row[j];
      if (x < unreachable && x > m) m = x;
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const long long other = __shfl_down_sync(0xffffffffu, m, offset);
    m = other > m ? other : m;
  }
  __shared__ long long warp_most[kThreads / 32];
  if (threadIdx.x % 32 == 0) warp_most[threadIdx.x / 32] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kThreads / 32; ++w) m = warp_most[w] > m ? warp_most[w] : m;
    if (m > 0) atomicMax(most, m);
  }
}

}  // namespace apsp::kernels::max_finite
