// blocked_i64: blocked Floyd-Warshall on int64 distances (unreachable kInf64 = 2^62 - 1), the
// exact path for graphs whose distances reach int32's kInf. Device code only.
//   - 64 x 64 tiles on 16 x 16 threads, 4 x 4 int64 outputs a thread in registers. A thread's
//     rows (and columns) come in pairs 32 apart, {2t, 2t + 1, 32 + 2t, 33 + 2t}, so that a
//     16-byte shared-memory load holds two of them and 16 threads read 256 contiguous bytes:
//     no bank conflicts.
//   - Phases 2 and 3 are one product routine: the k range of the round in chunks of kChunk,
//     copied global -> shared by cp.async (8 bytes an element, no registers staged: A is
//     transposed on the way, k-major as the loop reads it), double-buffered, one block barrier
//     a chunk. An element outside the n x n matrix or past the round's last k is stored as
//     kInf64 instead (+inf for doubles): it never lowers a distance, and sums of two stay below
//     2^63. So n needs no
//     padding and no kernel reads outside the matrix; only in-range outputs are stored.
//   - Phase 1 closes the pivot tile in registers, row and column k + 1 published to shared
//     memory by their owners (two buffers: one barrier a step), as kernels/sm90.cuh does.
//   - The update min(c, a + b) is the element format's (the template parameter U), with the value
//     an element outside the matrix reads as (U::kPad), in two forms of the same int64 arithmetic:
//       IntegerPipes: a + b as IADD3 + IMAD.X, the compare as two ISETP, the select as two SEL
//         (six instructions, five on the ALU pipe);
//       Fp64Pipe: the int64 bits read as doubles, DADD, DSETP and two FSEL (four instructions,
//         two on the FP64 pipe). A non-negative int64 below 2^53 is the bit pattern of a
//         subnormal or smallest-binade double whose value is that integer times 2^-1074, and
//         FP64 arithmetic keeps subnormals, so DADD of two whose sum is below 2^53 is exact
//         integer addition of the bits; the order of non-negative doubles is the order of their
//         bits. A sum at or above 2^53 rounds, monotonically, to a pattern still at or above
//         2^53, and one with kInf64's pattern (a double just under 2) to one at or above
//         kInf64: never below a distance that is below 2^53, and never below kInf64. So every
//         distance below 2^53 comes out exact (both halves of its shortest path are exact sums)
//         and an unreachable pair stays kInf64 exactly. No int64 input of a graph with int32
//         weights on at most 2^20 vertices has a distance at or above 2^51.
//     and one on real doubles (the float64 path of harness/solve/solve_float.hpp):
//       Float64: Fp64Pipe's instructions on the doubles themselves, any finite weight, negative
//         ones too; +inf is "unreachable" and the padding, and a sum with it stays +inf. The
//         sums round, so the result is min-plus in floating point, in this kernel's order.
#pragma once

#include <cstdint>

#include "kernels/common.cuh"
#include "kernels/sm90.cuh"

namespace apsp::kernels::blocked_i64 {

// "Unreachable" in 64 bits (apsp::kInf64, checked in variants/): kInf64 + kInf64 < 2^63.
inline constexpr int64_t kInf64 = (int64_t{1} << 62) - 1;

inline constexpr int kTile = 64;                // <- tile edge
inline constexpr int kEdge = 16;                // threads along an edge of the tile
inline constexpr int kThreads = kEdge * kEdge;  // a block
inline constexpr int kPer = kTile / kEdge;      // outputs a thread along each edge (4)
inline constexpr int kVec = 2;                  // int64 elements in a 16-byte vector
inline constexpr int kSpan = kVec * kEdge;      // 32: the distance between a thread's pairs
inline constexpr int kAStride = kTile + kVec;   // words of a transposed A row: 16 bytes of pad
// Blocks an SM the product kernels ask registers for: phase 3 three (at most 80 registers a
// thread), phase 2 two (its 2 (tiles - 1) blocks fill one wave at most; at 80 it spilled).
inline constexpr int kPhase3BlocksPerSm = 3;
inline constexpr int kPhase2BlocksPerSm = 2;
static_assert(kPer % kVec == 0 && kPer / kVec * kSpan == kTile, "the pairs must cover the tile");

// min(c, a + b) on the integer pipes.
struct IntegerPipes {
  static constexpr int64_t kPad = kInf64;
  __device__ static __forceinline__ int64_t update(int64_t c, int64_t a, int64_t b) {
    const int64_t s = a + b;
    return s < c ? s : c;
  }
};

// min(c, a + b) on the FP64 pipe, the int64 bits read as doubles (exact: the header comment).
struct Fp64Pipe {
  static constexpr int64_t kPad = kInf64;
  __device__ static __forceinline__ int64_t update(int64_t c, int64_t a, int64_t b) {
    const double s = __dadd_rn(__longlong_as_double(a), __longlong_as_double(b));
    const double old = __longlong_as_double(c);
    return __double_as_longlong(s < old ? s : old);
  }
};

// min(c, a + b) on doubles (their bits in the int64 words), unreachable +inf.
struct Float64 : Fp64Pipe {
  static constexpr int64_t kPad = 0x7FF0000000000000;  // +inf
};

// Thread (tx, ty)'s rows and columns within a tile (r, c in 0 .. kPer - 1).
struct Lanes {
  int tx, ty;
  __device__ Lanes() : tx(threadIdx.x % kEdge), ty(threadIdx.x / kEdge) {}
  __device__ int row(int r) const { return (r / kVec) * kSpan + kVec * ty + r % kVec; }
  __device__ int col(int c) const { return (c / kVec) * kSpan + kVec * tx + c % kVec; }
};

// One k step: acc = min(acc, a (x) b), a the column k of A over the tile's rows and b the row k
// of B over its columns, both kTile elements in shared memory read with 16-byte loads.
template <class U>
__device__ __forceinline__ void k_step(int64_t (&acc)[kPer][kPer], const int64_t* a,
                                       const int64_t* b, const Lanes& t) {
  int64_t av[kPer], bv[kPer];
#pragma unroll
  for (int v = 0; v < kPer / kVec; ++v) {
    const longlong2 x = *reinterpret_cast<const longlong2*>(a + v * kSpan + kVec * t.ty);
    const longlong2 y = *reinterpret_cast<const longlong2*>(b + v * kSpan + kVec * t.tx);
    av[kVec * v] = x.x, av[kVec * v + 1] = x.y;
    bv[kVec * v] = y.x, bv[kVec * v + 1] = y.y;
  }
#pragma unroll
  for (int r = 0; r < kPer; ++r)
#pragma unroll
    for (int c = 0; c < kPer; ++c) acc[r][c] = U::update(acc[r][c], av[r], bv[c]);
}

// This thread's part of tile (ci, cj) of the n x n matrix d: outside the matrix U::kPad.
template <class U>
__device__ __forceinline__ void load_tile(int64_t (&acc)[kPer][kPer], const int64_t* __restrict__ d,
                                          int n, int ci, int cj, const Lanes& t) {
#pragma unroll
  for (int r = 0; r < kPer; ++r)
#pragma unroll
    for (int c = 0; c < kPer; ++c) {
      const int i = ci * kTile + t.row(r), j = cj * kTile + t.col(c);
      acc[r][c] = i < n && j < n ? d[at(i, j, n)] : U::kPad;
    }
}

__device__ __forceinline__ void store_tile(const int64_t (&acc)[kPer][kPer],
                                           int64_t* __restrict__ d, int n, int ci, int cj,
                                           const Lanes& t) {
#pragma unroll
  for (int r = 0; r < kPer; ++r)
#pragma unroll
    for (int c = 0; c < kPer; ++c) {
      const int i = ci * kTile + t.row(r), j = cj * kTile + t.col(c);
      if (i < n && j < n) d[at(i, j, n)] = acc[r][c];
    }
}

// A stage of the product: A's chunk transposed ([kChunk][kAStride]), then B's ([kChunk][kTile]).
template <int kChunk>
constexpr int stage_elems() {
  return kChunk * (kAStride + kTile);
}
template <int kChunk>
constexpr int product_smem() {
  return 2 * stage_elems<kChunk>() * static_cast<int>(sizeof(int64_t));
}

__device__ __forceinline__ void copy8(int64_t* smem, const int64_t* gmem) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(sm90::shared_address(smem)),
               "l"(gmem)
               : "memory");
}

// A thread's share of the copies of each chunk: kLoads elements of A (rows kARows apart, one k)
// into the stage's A transposed, and kLoads of B (rows kBRows apart, one column), each by an
// 8-byte cp.async; an element outside the matrix or at k >= k_end (the round's end, at most n)
// is stored as U::kPad instead. Consecutive threads copy consecutive elements of a row: whole
// sectors. The state is a pointer a matrix, moved a chunk on by each copy, and the counts that
// decide what is in range: per-element addresses kept across the k loop spilled at 80 registers.
template <class U, int kChunk>
struct ChunkCopies {
  static constexpr int kLoads = kTile * kChunk / kThreads;
  static constexpr int kARows = kThreads / kChunk;  // rows between a thread's elements of A
  static constexpr int kBRows = kThreads / kTile;   // and of B
  static_assert(kLoads * kThreads == kTile * kChunk && kARows * kChunk == kThreads,
                "a chunk must split evenly over the threads");
  const int64_t* a;  // its first element of A in the next chunk
  const int64_t* b;  // and of B
  int n, a_rows;     // a_rows: how many of its A elements lie in rows < n
  int ka, kb;        // the k of its A elements and of its first B element in the next chunk
  bool b_col;        // its B column is < n
  int a_to, b_to;    // where its first elements go in a stage

  __device__ __forceinline__ ChunkCopies(const int64_t* __restrict__ d, int n_, int a_row0,
                                         int b_col0, int k0)
      : n(n_) {
    const int tid = static_cast<int>(threadIdx.x);
    const int ar = tid / kChunk, ak = tid % kChunk, bk = tid / kTile, bj = tid % kTile;
    a = d + at(a_row0 + ar, k0 + ak, n);
    b = d + at(k0 + bk, b_col0 + bj, n);
    a_rows = max(0, (n - a_row0 - ar + kARows - 1) / kARows);
    ka = k0 + ak, kb = k0 + bk;
    b_col = b_col0 + bj < n;
    a_to = ak * kAStride + ar, b_to = tid;
  }

  // The next chunk's copies into stage `as` / `bs`, as one group.
  __device__ __forceinline__ void next(int64_t* as, int64_t* bs, int k_end) {
    const bool a_k = ka < k_end;
    const int64_t* from = a;
#pragma unroll
    for (int l = 0; l < kLoads; ++l, from += static_cast<size_t>(kARows) * n) {
      int64_t* to = as + a_to + l * kARows;
      if (a_k && l < a_rows)
        copy8(to, from);
      else
        *to = U::kPad;
    }
    from = b;
#pragma unroll
    for (int l = 0; l < kLoads; ++l, from += static_cast<size_t>(kBRows) * n) {
      int64_t* to = bs + b_to + l * kThreads;
      if (b_col && kb + l * kBRows < k_end)
        copy8(to, from);
      else
        *to = U::kPad;
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
    a += kChunk, b += static_cast<size_t>(kChunk) * n, ka += kChunk, kb += kChunk;
  }
};

// C = min(C, A (x) B) for tile (ci, cj) of d: A = tile (ci, kt), B = tile (kt, cj), over the
// round's k (the last round's may be fewer than kTile). Phase 2's tiles are the same product
// with the pivot as one operand and the tile itself as the other: a pure product, since the
// pivot is closed (its diagonal 0 keeps C's own values). No block of the launch writes what
// another reads: every operand is a tile of the pivot row or column, which phase 3 does not
// write, or in phase 2 the pivot and the block's own tile, read before it is stored.
template <class U, int kChunk>
__device__ __forceinline__ void product_tile(int64_t* __restrict__ d, int n, int ci, int cj, int kt,
                                             int64_t* smem) {
  const Lanes t;
  int64_t acc[kPer][kPer];
  load_tile<U>(acc, d, n, ci, cj, t);
  const int k0 = kt * kTile, k_end = min(n, k0 + kTile);
  const int chunks = (k_end - k0 + kChunk - 1) / kChunk;
  constexpr int kStage = stage_elems<kChunk>(), kB = kChunk * kAStride;
  ChunkCopies<U, kChunk> copies(d, n, ci * kTile, cj * kTile, k0);
  copies.next(smem, smem + kB, k_end);
#pragma unroll 1
  for (int chunk = 0; chunk < chunks; ++chunk) {
    // This chunk's copies landed, every thread's (the barrier), and every thread is done with
    // the previous chunk, whose stage the next copies overwrite.
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    if (chunk + 1 < chunks) {
      int64_t* next = smem + ((chunk + 1) & 1) * kStage;
      copies.next(next, next + kB, k_end);
    }
    const int64_t* as = smem + (chunk & 1) * kStage;
    const int64_t* bs = as + kB;
#pragma unroll
    for (int k = 0; k < kChunk; ++k) k_step<U>(acc, as + k * kAStride, bs + k * kTile, t);
  }
  store_tile(acc, d, n, ci, cj, t);
}

// Phase 1: the pivot tile closed in place. Step k needs only row k and column k, which step k
// does not change (d[k][k] = 0: weights >= 0, or no negative cycle): their owners publish row and column k + 1 into
// the other of two buffers after step k, which every thread finished reading a barrier ago.
template <class U>
__global__ void __launch_bounds__(kThreads) phase1(int64_t* __restrict__ d, int n, int kt) {
  sm90::wait_for_previous();
  sm90::allow_next();
  __shared__ __align__(16) int64_t rows[2][kTile], cols[2][kTile];
  const Lanes t;
  int64_t acc[kPer][kPer];
  load_tile<U>(acc, d, n, kt, kt, t);
  // Row and column m (acc indices compile-time: a run-time one would put acc in local memory).
  auto publish = [&](int buffer, int m) {
#pragma unroll
    for (int r = 0; r < kPer; ++r)
      if (t.row(r) == m)
#pragma unroll
        for (int c = 0; c < kPer; c += kVec)
          *reinterpret_cast<longlong2*>(&rows[buffer][t.col(c)]) =
              make_longlong2(acc[r][c], acc[r][c + 1]);
#pragma unroll
    for (int c = 0; c < kPer; ++c)
      if (t.col(c) == m)
#pragma unroll
        for (int r = 0; r < kPer; r += kVec)
          *reinterpret_cast<longlong2*>(&cols[buffer][t.row(r)]) =
              make_longlong2(acc[r][c], acc[r + 1][c]);
  };
  publish(0, 0);
  __syncthreads();
  const int steps = min(kTile, n - kt * kTile);
#pragma unroll 1
  for (int k = 0; k < steps; ++k) {
    k_step<U>(acc, cols[k & 1], rows[k & 1], t);
    if (k + 1 < steps) publish((k + 1) & 1, k + 1);
    __syncthreads();
  }
  store_tile(acc, d, n, kt, kt, t);
}

// Phase 2: blockIdx.y == 0 the pivot-row tiles (kt, x), == 1 the pivot-column tiles (x, kt).
template <class U, int kChunk>
__global__ void __launch_bounds__(kThreads, kPhase2BlocksPerSm)
                                      phase2(int64_t* __restrict__ d, int n, int kt) {
  sm90::wait_for_previous();
  sm90::allow_next();
  const int x = blockIdx.x;
  if (x == kt) return;
  extern __shared__ int4 smem4[];
  const bool row = blockIdx.y == 0;
  product_tile<U, kChunk>(d, n, row ? kt : x, row ? x : kt, kt, reinterpret_cast<int64_t*>(smem4));
}

// Phase 3: every tile off the pivot row and column.
template <class U, int kChunk>
__global__ void __launch_bounds__(kThreads, kPhase3BlocksPerSm)
                                      phase3(int64_t* __restrict__ d, int n, int kt) {
  sm90::wait_for_previous();
  sm90::allow_next();
  if (blockIdx.x == kt || blockIdx.y == kt) return;
  extern __shared__ int4 smem4[];
  product_tile<U, kChunk>(d, n, blockIdx.y, blockIdx.x, kt, reinterpret_cast<int64_t*>(smem4));
}

// The caller's int32 matrix into int64 (kInf and above -> kInf64) and back (kInf64 and every
// distance at or above kInf -> kInf: what an int32 solve computes there). Grid-stride.
inline constexpr int kConvertThreads = 256;
static __global__ void __launch_bounds__(kConvertThreads)
    widen(const int* __restrict__ in, int64_t* __restrict__ out, size_t count) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += stride)
    out[e] = in[e] >= kInf ? kInf64 : in[e];
}

static __global__ void __launch_bounds__(kConvertThreads)
    narrow(const int64_t* __restrict__ in, int* __restrict__ out, size_t count) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += stride)
    out[e] = in[e] >= kInf ? kInf : static_cast<int>(in[e]);
}

}  // namespace apsp::kernels::blocked_i64
