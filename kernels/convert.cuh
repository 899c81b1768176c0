// A caller's device matrix of any numeric element type under SciPy's dense conventions, into
// the int32 or float64 adjacency the solves take, and their results back into the caller's
// dtype (harness/solve/device_array.cu launches them). Grid-stride loops over the n^2 entries.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <climits>
#include <limits>

#include "kernels/adjacency.cuh"
#include "kernels/common.cuh"

namespace apsp::kernels::convert {

inline constexpr double kPlusInfinity = std::numeric_limits<double>::infinity();

template <class T>
__device__ double entry_value(T x) {
  return static_cast<double>(x);
}
template <>
__device__ double entry_value(__half x) {
  return __half2float(x);
}
template <>
__device__ double entry_value(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

// What to_int32 found: the largest int32 weight, and whether a weight needs the float64 path
// (not an integer, negative, or at or past kInf).
struct Findings {
  int max_weight;
  int needs_float;
};

// SciPy's dense conventions on any numeric T into the int32 adjacency d (rows n apart, kInf: no
// edge, 0 on the diagonal): 0, NaN and +-inf are no edge. A weight int32's adjacency cannot hold
// is left to the float64 path (found->needs_float), integer types' too, as the host's solve
// reads them.
template <class T>
static __global__ void to_int32(const T* __restrict__ in, long long stride, int n,
                                int* __restrict__ d, int unweighted, Findings* found) {
  const long long count = static_cast<long long>(n) * n;
  int most = 0;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const double x = entry_value(in[i * stride + j]);
    int v = i == j ? 0 : kInf;
    const bool edge = i != j && x != 0 && !isnan(x) && !isinf(x);
    if (edge && unweighted) {
      v = 1;
    } else if (edge && (x < 0 || x != floor(x) || x >= kInf)) {
      found->needs_float = 1;
    } else if (edge) {
      v = static_cast<int>(x);
    }
    d[e] = v;
    if (v < kInf) most = max(most, v);
  }
  if (most > 0) atomicMax(&found->max_weight, most);
}

// The float64 adjacency (rows n apart, +inf: no edge, 0 on the diagonal) of any numeric T;
// `kinf_is_none`: an entry at or above kInf is no edge too (int32 arrays' convention).
template <class T>
static __global__ void to_float64(const T* __restrict__ in, long long stride, int n,
                                  double* __restrict__ d, int unweighted, int kinf_is_none) {
  const long long count = static_cast<long long>(n) * n;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const double x = entry_value(in[i * stride + j]);
    const bool none = x == 0 || isnan(x) || isinf(x) || (kinf_is_none && x >= kInf);
    d[e] = i == j ? 0.0 : none ? kPlusInfinity : unweighted ? 1.0 : x;
  }
}

// adjacency::symmetric_min on the float64 adjacency (+inf: no edge, never NaN), launched alike.
static __global__ void symmetric_min_float64(double* d, int n) {
  adjacency::symmetric_min_tiles(d, n);
}

// The Solver's int32 result (rows `pitch` apart) as float64 (kInf: +inf) into out.
static __global__ void int32_to_float64(const int* __restrict__ from, int pitch, int n,
                                        double* __restrict__ out, long long out_stride) {
  const long long count = static_cast<long long>(n) * n;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const int x = from[static_cast<long long>(i) * pitch + j];
    out[i * out_stride + j] = x >= kInf ? kPlusInfinity : static_cast<double>(x);
  }
}

// What float64_to_int32 met: a finite distance at or past kInf, or below INT_MIN.
inline constexpr int kPastAbove = 1, kPastBelow = 2;

// The float64 path's result (rows n apart, +inf: no path) into an integer array's int32 result
// (kInf: no path). A distance int32 cannot hold sets its bit in *past; NaN and -inf (a negative
// cycle's entries) are written as INT_MIN, which reaches the cycle as they do.
static __global__ void float64_to_int32(const double* __restrict__ from, int n,
                                        int* __restrict__ out, long long out_stride, int* past) {
  const long long count = static_cast<long long>(n) * n;
  int met = 0;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const double x = from[e];
    int v = INT_MIN;
    if (x == kPlusInfinity) {
      v = kInf;
    } else if (x >= static_cast<double>(INT_MIN) && x < kInf) {
      v = static_cast<int>(x);
    } else if (x >= kInf) {
      v = kInf;
      met |= kPastAbove;
    } else if (!isnan(x) && !isinf(x)) {
      met |= kPastBelow;
    }
    out[i * out_stride + j] = v;
  }
  if (met) atomicOr(past, met);
}

}  // namespace apsp::kernels::convert
