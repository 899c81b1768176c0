// How distances sit in 32-bit words: one int32 a word (every variant but sm90_u16), or two
// unsigned 16-bit halves a word (sm90_u16, kernels/sm90_u16.cuh). The sm90 product routine
// (kernels/sm90.cuh) and the ceiling probe (kernels/ceiling.cuh) are written once over these
// "element formats"; the int32 format compiles to the code they had before it existed.
// Device code only.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels {

// One int32 distance a word.
struct Int32Elements {
  static constexpr int kPerWord = 1;  // elements a 32-bit word holds
  static constexpr int kUnreachable = kInf;
  // min(c, a + b) on a word: one VIADDMNMX.
  __device__ static __forceinline__ int update(int c, int a, int b) { return min_plus(c, a, b); }
  // The word that stands for element q (0 .. 4 kPerWord - 1) of a 16-byte vector of the A
  // operand in shared memory: the element itself.
  __device__ static __forceinline__ int a_word(const int4& v, int q) {
    return q == 0 ? v.x : q == 1 ? v.y : q == 2 ? v.z : v.w;
  }
  // x (a distance) in every element of a word.
  __host__ __device__ static constexpr int splat(int x) { return x; }
  // Element q of a word.
  __device__ static __forceinline__ int element(int word, int) { return word; }
};

// "Unreachable" in 16 bits. Every stored value stays <= kInf16 (min never raises one), so a sum
// of two is at most 0xFFFE: no half ever wraps, and the packed update is exact. A graph is solved
// in 16 bits only when every finite distance is below it (core/precision.hpp).
inline constexpr int kInf16 = 0x7FFF;

// Two unsigned 16-bit distances a word, the element of the lower index in the low half: the
// pairs run along a row (j), so a word of the B operand or of the result holds d[i][j], d[i][j+1].
struct U16x2Elements {
  static constexpr int kPerWord = 2;
  static constexpr int kUnreachable = kInf16;
  // Per half, min(c, a + b): two updates in one VIADDMNMX.U16x2 (sm_90).
  __device__ static __forceinline__ int update(int c, int a, int b) {
    return static_cast<int>(__viaddmin_u16x2(static_cast<unsigned>(a), static_cast<unsigned>(b),
                                             static_cast<unsigned>(c)));
  }
  // Element q (0 .. 7) of a 16-byte vector of an A row (eight consecutive k), duplicated into
  // both halves: a_ik meets both j of a B word. Done once per staged element, not per update.
  __device__ static __forceinline__ int a_word(const int4& v, int q) {
    const int w = q / 2 == 0 ? v.x : q / 2 == 1 ? v.y : q / 2 == 2 ? v.z : v.w;
    return static_cast<int>(
        __byte_perm(static_cast<unsigned>(w), 0u, q % 2 == 0 ? 0x1010u : 0x3232u));
  }
  __host__ __device__ static constexpr int splat(int x) { return x * 0x10001; }  // x <= kInf16
  __device__ static __forceinline__ int element(int word, int q) {
    return static_cast<int>(q == 0 ? static_cast<unsigned>(word) & 0xFFFFu
                                   : static_cast<unsigned>(word) >> 16);
  }
  // Four consecutive elements, one int each, from or to the two words at p (8-byte aligned).
  __device__ static __forceinline__ int4 load4(const int* p) {
    const uint2 w = *reinterpret_cast<const uint2*>(p);
    return make_int4(static_cast<int>(w.x & 0xFFFFu), static_cast<int>(w.x >> 16),
                     static_cast<int>(w.y & 0xFFFFu), static_cast<int>(w.y >> 16));
  }
  __device__ static __forceinline__ void store4(int* p, int4 v) {
    *reinterpret_cast<uint2*>(p) =
        make_uint2(static_cast<unsigned>(v.x) | static_cast<unsigned>(v.y) << 16,
                   static_cast<unsigned>(v.z) | static_cast<unsigned>(v.w) << 16);
  }
};

}  // namespace apsp::kernels
