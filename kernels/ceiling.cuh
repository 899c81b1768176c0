// The min-plus ceiling probe: the sm90 inner loop (8 x 8 register tile, operands from shared
// memory with 16-byte loads, min(c, a + b) as one VIADDMNMX) with no global traffic. Its rate is
// the "100%" that every run's pct_of_ceiling is measured against. Over an element format
// (kernels/elements.cuh): int32 (the int32 ceiling), or packed 16-bit pairs, where each of the
// 8 x 8 words is two updates of one VIADDMNMX.U16x2 (the 16-bit ceiling, for sm90_u16's runs).
// The int64 ceiling (minplus_ceiling_i64, for blocked_i64's runs) is blocked_i64's own k step.
#pragma once

#include <cstdint>

#include "kernels/blocked_i64.cuh"
#include "kernels/common.cuh"
#include "kernels/elements.cuh"

namespace apsp::kernels {

inline constexpr int kCeilThreads = 256;  // <- 16 x 16 threads, as the sm90 product block
inline constexpr int kCeilK = 32;         // <- k values held in shared memory
inline constexpr int kCeilEdge = 128;     // <- tile edge: 16 threads x 8 outputs

template <class F = Int32Elements>
__global__ void __launch_bounds__(kCeilThreads, 2) minplus_ceiling(int repeats, int seed,
                                                                   int* __restrict__ out) {
  __shared__ __align__(16) int as[kCeilK][kCeilEdge];
  __shared__ __align__(16) int bs[kCeilK][kCeilEdge];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  for (int e = tid; e < kCeilK * kCeilEdge; e += kCeilThreads) {
    // Varied values (seeded at run time) so no update can be folded away.
    as[e / kCeilEdge][e % kCeilEdge] = F::splat((e * 2654435761u + seed) % 1000);
    bs[e / kCeilEdge][e % kCeilEdge] = F::splat((e * 40503u + 7 * seed) % 1000);
  }
  __syncthreads();
  int acc[8][8];
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int c = 0; c < 8; ++c) acc[r][c] = F::splat(F::kUnreachable - r - c - seed);
  for (int rep = 0; rep < repeats; ++rep) {
    // The operands do not change between repeats: without this memory clobber the compiler
    // hoists all 2048 sums a + b out of the loop into local memory (seen in SASS: 2005 LDL/STL,
    // VIMNMX instead of VIADDMNMX, and a "ceiling" of 1.08 T updates/s). The real kernels reload
    // their operands from shared memory every k step, and so must the probe.
    asm volatile("" ::: "memory");
#pragma unroll
    for (int k = 0; k < kCeilK; ++k) {
      int a[8], b[8];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int4 va = *reinterpret_cast<const int4*>(&as[k][h * 64 + ty * 4]);
        const int4 vb = *reinterpret_cast<const int4*>(&bs[k][h * 64 + tx * 4]);
        a[h * 4] = va.x;
        a[h * 4 + 1] = va.y;
        a[h * 4 + 2] = va.z;
        a[h * 4 + 3] = va.w;
        b[h * 4] = vb.x;
        b[h * 4 + 1] = vb.y;
        b[h * 4 + 2] = vb.z;
        b[h * 4 + 3] = vb.w;
      }
#pragma unroll
      for (int r = 0; r < 8; ++r)
#pragma unroll
        for (int c = 0; c < 8; ++c) acc[r][c] = F::update(acc[r][c], a[r], b[c]);
    }
  }
  int m = kInf;
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int c = 0; c < 8; ++c) m = min(m, acc[r][c]);
  out[blockIdx.x * kCeilThreads + tid] = m;
}

// The int64 probe: blocked_i64's k step itself (4 x 4 int64 outputs a thread, both operands from
// shared memory with 16-byte loads, the 64-bit update of format U) with no global traffic, at
// the three blocks an SM its phase 3 runs at. There is no single 64-bit min-plus instruction: the
// forms (kernels/blocked_i64.cuh) differ in what they issue, so each is probed, and the faster
// is the int64 ceiling.
template <class U>
__global__ void __launch_bounds__(blocked_i64::kThreads, blocked_i64::kPhase3BlocksPerSm)
                                      minplus_ceiling_i64(int repeats, int seed,
                                                          int* __restrict__ out) {
  namespace w = blocked_i64;
  __shared__ __align__(16) int64_t as[kCeilK][w::kTile];
  __shared__ __align__(16) int64_t bs[kCeilK][w::kTile];
  for (int e = threadIdx.x; e < kCeilK * w::kTile; e += w::kThreads) {
    as[e / w::kTile][e % w::kTile] = (e * 2654435761u + seed) % 1000;
    bs[e / w::kTile][e % w::kTile] = (e * 40503u + 7 * seed) % 1000;
  }
  __syncthreads();
  const w::Lanes t;
  int64_t acc[w::kPer][w::kPer];
#pragma unroll
  for (int r = 0; r < w::kPer; ++r)
#pragma unroll
    for (int c = 0; c < w::kPer; ++c) acc[r][c] = w::kInf64 - r - c - seed;
  for (int rep = 0; rep < repeats; ++rep) {
    asm volatile("" ::: "memory");  // operands reloaded every repeat, as in minplus_ceiling
#pragma unroll
    for (int k = 0; k < kCeilK; ++k) w::k_step<U>(acc, as[k], bs[k], t);
  }
  int64_t m = w::kInf64;
#pragma unroll
  for (int r = 0; r < w::kPer; ++r)
#pragma unroll
    for (int c = 0; c < w::kPer; ++c) m = min(m, acc[r][c]);
  out[blockIdx.x * w::kThreads + threadIdx.x] = static_cast<int>(m % 1000);
}

}  // namespace apsp::kernels
