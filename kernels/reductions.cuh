// Per-vertex reductions of a solved distance matrix on the device (harness/solve/summary.hpp has
// what they mean and the host version; the same integers, bit for bit). The kernels read a band
// of rows where it lies: row b of the band is global row i0 + b, at band + b * pitch, and holds
// n entries (the padding beyond n is never read). An entry is finite when it is below kInf; the
// diagonal (j = i) is left out of every value. All sums are integers, so the order in which the
// blocks and the atomics add them changes nothing.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels::reductions {

inline constexpr int kRowThreads = 256;     // reduce_rows: one block per row
inline constexpr int kColumnThreads = 256;  // reduce_columns: one thread per column ...
inline constexpr int kColumnRows = 64;      // ... over this many rows of the band

// One block per row of the band: the largest finite entry, how many there are and their sum,
// into row_max, row_count and row_sum at the row's global index. Reads the row coalesced.
static __global__ void __launch_bounds__(kRowThreads)
    reduce_rows(const int* __restrict__ band, int pitch, int n, int i0, int* __restrict__ row_max,
                unsigned* __restrict__ row_count, unsigned long long* __restrict__ row_sum) {
  const int b = blockIdx.x, i = i0 + b;
  const int* row = band + at(b, 0, pitch);
  int most = 0;
  unsigned count = 0;
  unsigned long long sum = 0;
  for (int j = threadIdx.x; j < n; j += kRowThreads) {
    const int x = row[j];
    if (j != i && x < kInf) {
      most = max(most, x);
      ++count;
      sum += static_cast<unsigned long long>(x);
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    most = max(most, __shfl_down_sync(0xffffffffu, most, offset));
    count += __shfl_down_sync(0xffffffffu, count, offset);
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  }
  constexpr int kWarps = kRowThreads / 32;
  __shared__ int warp_max[kWarps];
  __shared__ unsigned warp_count[kWarps];
  __shared__ unsigned long long warp_sum[kWarps];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) {
    warp_max[warp] = most;
    warp_count[warp] = count;
    warp_sum[warp] = sum;
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int w = 1; w < kWarps; ++w) {
    most = max(most, warp_max[w]);
    count += warp_count[w];
    sum += warp_sum[w];
  }
  row_max[i] = most;
  row_count[i] = count;
  row_sum[i] = sum;
}

// Thread j of the grid's x over column j, blockIdx.y over kColumnRows rows of the band: the finite
// entries of column j in those rows and their sum, added to col_count[j] and col_sum[j] (one
// atomic pair per thread). Consecutive threads read consecutive entries of a row.
static __global__ void __launch_bounds__(kColumnThreads)
    reduce_columns(const int* __restrict__ band, int pitch, int n, int i0, int rows,
                   unsigned* __restrict__ col_count, unsigned long long* __restrict__ col_sum) {
  const int j = blockIdx.x * kColumnThreads + threadIdx.x;
  if (j >= n) return;
  const int first = blockIdx.y * kColumnRows, last = min(rows, first + kColumnRows);
  unsigned count = 0;
  unsigned long long sum = 0;
  for (int b = first; b < last; ++b) {
    const int x = band[at(b, j, pitch)];
    if (i0 + b != j && x < kInf) {
      ++count;
      sum += static_cast<unsigned long long>(x);
    }
  }
  if (count == 0) return;
  atomicAdd(col_count + j, count);
  atomicAdd(col_sum + j, sum);
}

}  // namespace apsp::kernels::reductions
