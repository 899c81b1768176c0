// Helpers shared by every kernel family. Device code only.
//
// The kernels in these headers that are not templates are `static`: defined in a header, a
// non-template __global__ function gets an external host stub in every translation unit that
// includes it, and two such units (sm90's instance shards, or a copied variant file) then fail
// to link with duplicate symbols. Static keeps each unit's stub and device copy to itself (the
// PTX differs only in the entry losing .visible). Template kernels need nothing: their stubs
// merge like inline functions.
#pragma once

#include <cstddef>

namespace apsp::kernels {

// "Unreachable"; equal to apsp::kInf (checked by a static_assert in variants/). 2^30 - 1 keeps
// a + b inside int32 for any two stored distances, so min(c, a + b) needs no overflow check.
inline constexpr int kInf = 1073741823;

__device__ __forceinline__ size_t at(int i, int j, int n) {
  return static_cast<size_t>(i) * static_cast<size_t>(n) + static_cast<size_t>(j);
}

// Out-of-range elements read as kInf: a kInf operand never lowers a distance, so padded tiles
// need no other special case (a padded k gives d[i][k] + d[k][j] >= kInf >= d[i][j]).
template <bool kChecked>
__device__ __forceinline__ int load(const int* __restrict__ d, int n, int i, int j) {
  if constexpr (kChecked) {
    return (i < n && j < n) ? d[at(i, j, n)] : kInf;
  } else {
    return d[at(i, j, n)];
  }
}

template <bool kChecked>
__device__ __forceinline__ void store(int* __restrict__ d, int n, int i, int j, int v) {
  if (!kChecked || (i < n && j < n)) d[at(i, j, n)] = v;
}

// min(c, a + b): one VIADDMNMX on sm_90.
__device__ __forceinline__ int min_plus(int c, int a, int b) { return min(c, a + b); }

}  // namespace apsp::kernels
