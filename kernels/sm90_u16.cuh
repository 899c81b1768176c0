// sm90_u16: sm90 on distances stored as packed unsigned 16-bit pairs, two min-plus updates per
// VIADDMNMX.U16x2. The products, the pivot closure and the launch schedules are sm90's
// (kernels/sm90.cuh), instantiated for U16x2Elements (kernels/elements.cuh): in the product a
// thread's 8 x 8 outputs are 8 rows of 4 words (one 16-byte vector of 8 consecutive elements
// each), A's elements are duplicated into both halves of a word as they are staged in shared
// memory, and the closure unpacks the pivot tile to one int a distance. What is here is the way
// in and out: the caller's int32 matrix packed into pairs in sm90's padded layout, and back.
#pragma once

#include <cstdio>

#include "kernels/common.cuh"
#include "kernels/elements.cuh"
#include "kernels/sm90.cuh"

namespace apsp::kernels::sm90_u16 {

// What the packing saw of the input: its largest finite entry (< kInf) and whether any entry was
// negative. The unpack reads it to refuse an input 16 bits do not hold.
struct Seen {
  int max_finite;
  int negative;
};

// One int32 entry as a 16-bit one: kInf and above (unreachable) become kInf16; a finite entry
// is itself (one that does not fit, >= kInf16, is caught through Seen; it is clamped here).
__device__ __forceinline__ unsigned to_u16(int x) {
  return x >= kInf ? static_cast<unsigned>(kInf16) : static_cast<unsigned>(min(max(x, 0), kInf16));
}

// packed (pitch x pitch elements, rows pitch / 2 words apart) <- d (n x n int32, rows n apart),
// every entry outside the n x n matrix kInf16 (2 kInf16 >= kInf16: a padded vertex never lowers a
// distance and keeps its value, as sm90's padding). Grid-stride over rows (y) and words (x), a
// grid of a few thousand blocks (the host's), each reducing what it saw to one atomic at most:
// one a warp for every row of a large matrix would queue a million atomics on one address.
inline constexpr int kConvertThreads = 256;
static __global__ void __launch_bounds__(kConvertThreads)
    pack(const int* __restrict__ d, int n, unsigned* __restrict__ packed, int pitch,
         Seen* __restrict__ seen) {
  const int words = pitch / 2;
  int most = 0, negative = 0;
  for (int i = blockIdx.y; i < pitch; i += gridDim.y) {
    const int* row = d + at(i, 0, n);
    for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < words; w += gridDim.x * blockDim.x) {
      const int j = 2 * w;
      const int lo = i < n && j < n ? row[j] : kInf, hi = i < n && j + 1 < n ? row[j + 1] : kInf;
      most = max(most, max(lo < kInf ? lo : 0, hi < kInf ? hi : 0));
      negative |= (lo < 0) | (hi < 0);
      packed[at(i, w, words)] = to_u16(lo) | to_u16(hi) << 16;
    }
  }
  // Every thread of the block gets here (kConvertThreads, a multiple of 32): warps, then the block.
  __shared__ int warp_most[kConvertThreads / 32], warp_negative[kConvertThreads / 32];
  most = __reduce_max_sync(0xffffffffu, most);
  negative = static_cast<int>(__reduce_or_sync(0xffffffffu, static_cast<unsigned>(negative)));
  if (threadIdx.x % 32 == 0)
    warp_most[threadIdx.x / 32] = most, warp_negative[threadIdx.x / 32] = negative;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kConvertThreads / 32; ++w)
      most = max(most, warp_most[w]), negative |= warp_negative[w];
    // Only what raises the maximum so far goes to the atomic (the value only grows).
    if (most > *static_cast<volatile int*>(&seen->max_finite)) atomicMax(&seen->max_finite, most);
    if (negative) atomicOr(&seen->negative, 1);
  }
}

// d (n x n int32, rows n apart) <- packed: kInf16 -> kInf, else the value. The solve computed
// min(true distance, kInf16) for every pair (core/precision.hpp: the exactness proof), which the
// caller proves exact from the result's largest distance (apsp), or knew exact before the solve
// (Variant::admits: the bench and the tuner). When the input itself did not fit (a negative
// entry, or a finite entry >= kInf16: nothing runs sm90_u16 on such a graph), every entry becomes
// -1 and one line is printed instead: no distance a caller could mistake for an answer.
static __global__ void __launch_bounds__(kConvertThreads)
    unpack(const unsigned* __restrict__ packed, int pitch, int* __restrict__ d, int n,
           const Seen* __restrict__ seen) {
  const int words = pitch / 2, used = (n + 1) / 2;
  const bool exact = !seen->negative && seen->max_finite < kInf16;
  if (!exact && blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0)
    printf(
        "sm90_u16: refused an input 16 bits do not hold (n = %d, largest finite entry "
        "%d%s): every "
        "output entry set to -1\n",
        n, seen->max_finite, seen->negative ? ", negative entries" : "");
  for (int i = blockIdx.y; i < n; i += gridDim.y) {
    int* row = d + at(i, 0, n);
    for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < used; w += gridDim.x * blockDim.x) {
      const unsigned pair = packed[at(i, w, words)];
      const unsigned lo = pair & 0xFFFFu, hi = pair >> 16;
      const int j = 2 * w;
      row[j] = !exact ? -1 : lo >= static_cast<unsigned>(kInf16) ? kInf : static_cast<int>(lo);
      if (j + 1 < n)
        row[j + 1] = !exact                                ? -1
                     : hi >= static_cast<unsigned>(kInf16) ? kInf
                                                           : static_cast<int>(hi);
    }
  }
}

}  // namespace apsp::kernels::sm90_u16
