// sm90: blocked Floyd-Warshall shaped like a register-tiled GEMM, for Hopper.
//   - The matrix comes laid out in a buffer whose rows are padded to a multiple of the tile
//     (Variant::pitch; the padding P has 2P >= kInf), so no kernel checks bounds; padded k
//     chunks and padded halves of edge tiles are not computed (live_chunks).
//   - Phases 2 and 3 are one min-plus product routine: a kTile x kTile output tile per block,
//     8 x 8 outputs per thread (as 2 x 2 sub-blocks of 4 x 4, kTile/2 apart, so that 16 threads
//     read 256 contiguous bytes with 16-byte loads: no bank conflicts), the k dimension in
//     chunks of kChunk staged through registers into double-buffered shared memory.
//   - The update min(c, a + b) compiles to one VIADDMNMX on sm_90.
//   - Written once over the element format (kernels/elements.cuh, the last template parameter,
//     int32 by default): sm90_u16 (kernels/sm90_u16.cuh) runs the same routines on words that
//     hold two 16-bit distances, two updates per VIADDMNMX.U16x2. Sizes and tile indices stay in
//     elements (kTile, kChunk, kPer, n, kt); a row of a tile is kTile / kPerWord words, and
//     `pitch` is in words.
#pragma once

#include <type_traits>
#include <utility>

#include "kernels/common.cuh"
#include "kernels/elements.cuh"

namespace apsp::kernels::sm90 {

inline constexpr int kPerThread = 8;  // <- outputs per thread along each edge (8 x 8 in registers)
inline constexpr int kSub = 4;        // <- sub-block edge: one 16-byte shared-memory load
inline constexpr int kPhase1Edge = 16;  // <- phase 1: 16 x 16 threads (close_pivot)
// A is stored k-major, rows kTile + kAPad words apart, so a warp's transposing stores (16 rows x 2
// groups of 4 k at chunk 8) fall 16 banks apart: conflict-free at chunk 8, 2-way at 16, 4-way at
// 32 (with 8 words: 2, 4, 8-way; docs/perf-notes.md).
inline constexpr int kAPad = 4;  // <- words of padding a row of A

inline constexpr int kPerThread2 = 4;  // <- phase 2: 4 x 4 per thread, four times the warps of
                                       //    phase 3 for its few blocks (2 x tiles per round)

template <int kTile, int kPer = kPerThread>
constexpr int product_threads() {
  return (kTile / kPer) * (kTile / kPer);
}

// Shared memory of one product block: two stages of A (transposed, padded; a word per element)
// and B (kTile / kPerWord words a row).
template <int kTile, int kChunk, class F = Int32Elements>
constexpr int product_smem() {
  return 2 * kChunk * ((kTile + kAPad) + kTile / F::kPerWord) * 4;
}

// Programmatic dependent launch (the three-launch schedule and look-ahead 2, for small n, and the
// short chain of tile 64's pairs of rounds, kernels/sm90_pairs.cuh): a kernel launched with
// the host's PDL attribute may start while the previous kernel in the stream still runs.
// wait_for_previous() blocks until that kernel has finished and its writes are visible (so it
// comes before any access to the matrix); allow_next() then lets the next kernel's blocks be
// launched and wait on this one, which hides the launch latency between dependent kernels.
// Waiting first keeps it one kernel ahead. Without the attribute both are no-ops.
__device__ __forceinline__ void wait_for_previous() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void allow_next() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Where thread (tx, ty) keeps its kPer x kPer outputs: 2 x 2 sub-blocks of 4 x 4 (kPer = 8) or
// one (kPer = 4), kTile / kSubs apart, so that 16 threads read 256 contiguous bytes with 16-byte
// loads: no bank conflicts. In words (F): a thread's kPer columns are kPerW = kPer / kPerWord
// words, in sub-blocks of 4 words (one 16-byte vector) kHalfW apart; with packed 16-bit pairs at
// kPer = 8 that is one vector of 8 consecutive elements, and 16 threads still read 256
// contiguous bytes. ThreadTile<kTile, kPer> (int32) is also the layout of the elements
// themselves, which close_pivot works on in every format.
template <int kTile, int kPer, class F = Int32Elements>
struct ThreadTile {
  static constexpr int kThreads = product_threads<kTile, kPer>();
  static constexpr int kEdge = kTile / kPer;          // threads along an edge
  static constexpr int kSubs = kPer / kSub;           // 4 x 4 sub-blocks along an edge
  static constexpr int kHalf = kTile / kSubs;         // their spacing
  static constexpr int kWords = kTile / F::kPerWord;  // words in a row of the tile
  static constexpr int kPerW = kPer / F::kPerWord;    // words in a row of a thread's part
  static constexpr int kSubsW = kPerW / kSub;         // 16-byte column sub-blocks
  static constexpr int kHalfW = kSubsW > 0 ? kWords / kSubsW : 0;  // their spacing, in words
  static_assert(kEdge * kSub == kHalf, "4 x 4 sub-blocks, kTile/kSubs apart, must cover the tile");
  static_assert(kSubsW >= 1 && kPerW % kSub == 0 && kEdge * kSub == kHalfW,
                "whole 16-byte column sub-blocks, kHalfW words apart, must cover the tile");
  int tx, ty;
  __device__ ThreadTile() : tx(threadIdx.x % kEdge), ty(threadIdx.x / kEdge) {}
  __device__ int row(int r) const { return (r / kSub) * kHalf + ty * kSub + r % kSub; }
  // Column c (0 .. kPerW - 1) in words; for int32 the element.
  __device__ int col(int c) const { return (c / kSub) * kHalfW + tx * kSub + c % kSub; }
};

// Calls f(r, c, v) for each 16-byte vector v of this thread's part of tile (ci, cj): v holds the
// words acc[r][c .. c+3] (v points to const ints for loads, to ints for stores).
template <int kTile, int kPer, class Fmt = Int32Elements, class Int, class Fn>
__device__ __forceinline__ void for_each_vector(Int* d, int pitch, int ci, int cj, Fn&& f) {
  using Layout = ThreadTile<kTile, kPer, Fmt>;
  const Layout t;
#pragma unroll
  for (int r = 0; r < kPer; ++r)
#pragma unroll
    for (int c = 0; c < Layout::kPerW; c += 4)
      f(r, c, d + at(ci * kTile + t.row(r), cj * Layout::kWords + t.col(c), pitch));
}

template <int kTile, int kPer, class F = Int32Elements>
__device__ __forceinline__ void load_tile(int (&acc)[kPer][kPer / F::kPerWord],
                                          const int* __restrict__ d, int pitch, int ci, int cj) {
  for_each_vector<kTile, kPer, F>(d, pitch, ci, cj, [&](int r, int c, const int* p) {
    const int4 v = *reinterpret_cast<const int4*>(p);
    acc[r][c + 0] = v.x, acc[r][c + 1] = v.y, acc[r][c + 2] = v.z, acc[r][c + 3] = v.w;
  });
}

template <int kTile, int kPer, class F = Int32Elements>
__device__ __forceinline__ void store_tile(const int (&acc)[kPer][kPer / F::kPerWord],
                                           int* __restrict__ d, int pitch, int ci, int cj) {
  for_each_vector<kTile, kPer, F>(d, pitch, ci, cj, [&](int r, int c, int* p) {
    *reinterpret_cast<int4*>(p) =
        make_int4(acc[r][c + 0], acc[r][c + 1], acc[r][c + 2], acc[r][c + 3]);
  });
}

// The tile (ci, cj) as one int a distance in the element layout ThreadTile<kTile, kPer> (what
// close_pivot works on), read from and written back to words of format F: for int32 the same
// as load_tile / store_tile. Packed formats: f(r, c, p) for each 4 elements acc[r][c .. c+3],
// p their first word (F::load4 / F::store4 convert).
template <int kTile, int kPer, class F, class Int, class Fn>
__device__ __forceinline__ void for_each_element_quad(Int* d, int pitch, int ci, int cj, Fn&& f) {
  const ThreadTile<kTile, kPer> t;
#pragma unroll
  for (int r = 0; r < kPer; ++r)
#pragma unroll
    for (int c = 0; c < kPer; c += 4)
      f(r, c, d + at(ci * kTile + t.row(r), (cj * kTile + t.col(c)) / F::kPerWord, pitch));
}

template <int kTile, int kPer, class F = Int32Elements>
__device__ __forceinline__ void load_elements(int (&acc)[kPer][kPer], const int* __restrict__ d,
                                              int pitch, int ci, int cj) {
  if constexpr (F::kPerWord == 1) {
    load_tile<kTile, kPer>(acc, d, pitch, ci, cj);
  } else {
    for_each_element_quad<kTile, kPer, F>(d, pitch, ci, cj, [&](int r, int c, const int* p) {
      const int4 v = F::load4(p);
      acc[r][c + 0] = v.x, acc[r][c + 1] = v.y, acc[r][c + 2] = v.z, acc[r][c + 3] = v.w;
    });
  }
}

template <int kTile, int kPer, class F = Int32Elements>
__device__ __forceinline__ void store_elements(const int (&acc)[kPer][kPer], int* __restrict__ d,
                                               int pitch, int ci, int cj) {
  if constexpr (F::kPerWord == 1) {
    store_tile<kTile, kPer>(acc, d, pitch, ci, cj);
  } else {
    for_each_element_quad<kTile, kPer, F>(d, pitch, ci, cj, [&](int r, int c, int* p) {
      F::store4(p, make_int4(acc[r][c + 0], acc[r][c + 1], acc[r][c + 2], acc[r][c + 3]));
    });
  }
}

// Padding needs no updates: a padded entry holds P with 2P >= kInf (harness/measure/matrix_layout.hpp).
// Through a padded k, d[i][k] + d[k][j] >= 2P >= kInf never lowers a real distance; a padded
// entry's own candidates are P + d >= P, so it stays P. At n = 10000 and tile 128
// the last tile holds 16 vertices of 128, and updating all of it is 3.4% more work than n^3.
//  - k: a product over tile kt runs only the chunks that hold vertices (the last round);
//  - outputs: with 2 x 2 sub-blocks per thread (kHalf apart), a tile whose vertices end within
//    its first half leaves every thread's second sub-block row (or column) out (live_half).
template <int kTile, int kChunk>
__device__ __forceinline__ int live_chunks(int n, int kt) {
  return (min(kTile, n - kt * kTile) + kChunk - 1) / kChunk;
}

// The k steps of one staged chunk: acc = min(acc, A (x) B) over kChunk k, A k-major in `as`
// (rows kTile + kAPad words apart), B in `bs` (rows of kTile / kPerWord words), both read with
// 16-byte loads in the ThreadTile layout; only the first kRows x kCols of acc are updated.
template <int kTile, int kChunk, int kPer, class F, int kRows, int kCols>
__device__ __forceinline__ void chunk_product(int (&acc)[kPer][kPer / F::kPerWord], const int* as,
                                              const int* bs) {
  using Layout = ThreadTile<kTile, kPer, F>;
  constexpr int kAStride = kTile + kAPad, kWords = Layout::kWords;
  const Layout t;
#pragma unroll
  for (int k = 0; k < kChunk; ++k) {
    int a[kPer], b[Layout::kPerW];
#pragma unroll
    for (int h = 0; h < kRows; h += 4) {
      const int4 va = *reinterpret_cast<const int4*>(as + k * kAStride + t.row(h));
      a[h + 0] = va.x;
      a[h + 1] = va.y;
      a[h + 2] = va.z;
      a[h + 3] = va.w;
    }
#pragma unroll
    for (int h = 0; h < kCols; h += 4) {
      const int4 vb = *reinterpret_cast<const int4*>(bs + k * kWords + t.col(h));
      b[h + 0] = vb.x;
      b[h + 1] = vb.y;
      b[h + 2] = vb.z;
      b[h + 3] = vb.w;
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int c = 0; c < kCols; ++c) acc[r][c] = F::update(acc[r][c], a[r], b[c]);
  }
}

// acc = min(acc, A (x) B) for one kTile x kTile output tile: A the tile (a_ti, a_tk) of `a` (rows
// a_pitch apart), B the tile (b_tk, b_tj) of `b`. sm90 reads both from its one matrix (a = b = d,
// a_tk = b_tk = kt); the distributed engine (kernels/distributed.cuh) A from a rank's row block
// and B from the broadcast pivot-row panel. (Scalars, not a struct of them: with a struct, nvcc
// 13.0 emitted different code for sm90's kernels.) k runs over the kTile columns of A, in chunks
// of kChunk staged through registers into double-buffered shared memory (A transposed, so both
// operands are read with 16-byte loads). Only the first `chunks` chunks and the first kRows x
// kCols of acc are updated (padding, above). Ends with a barrier, so smem is free again on return.
// In words of format F: B and acc hold kPer / kPerWord words a row; an A element is staged as a
// word of its own (F::a_word: packed 16-bit A elements are duplicated into both halves there),
// so the inner loop is kRows x kCols updates of whole words. kCols counts words; tile indices
// count elements, pitches words.
template <int kTile, int kChunk, int kPer, class F = Int32Elements, int kRows = kPer,
          int kCols = kPer / F::kPerWord>
__device__ __forceinline__ void accumulate(int (&acc)[kPer][kPer / F::kPerWord],
                                           const int* __restrict__ a, int a_pitch, int a_ti,
                                           int a_tk, const int* __restrict__ b, int b_pitch,
                                           int b_tk, int b_tj, int chunks, int* smem) {
  using Layout = ThreadTile<kTile, kPer, F>;
  constexpr int kThreads = Layout::kThreads;
  constexpr int kAStride = kTile + kAPad;
  constexpr int kWords = Layout::kWords;     // words in a row of B
  constexpr int kKPerVec = 4 * F::kPerWord;  // k elements in a 16-byte vector of an A row
  constexpr int kVecPerChunk = kTile * kChunk / kKPerVec;  // int4 per operand chunk
  constexpr int kLoads = kVecPerChunk / kThreads;
  static_assert(kLoads >= 1 && kLoads * kThreads == kVecPerChunk,
                "chunk must split evenly over the threads");
  static_assert(kTile % kChunk == 0 && kChunk % kKPerVec == 0, "chunks of whole 16-byte vectors");
  static_assert(kRows % kSub == 0 && kCols % kSub == 0, "whole sub-blocks");
  static_assert(kAStride % 32 == 4, "A rows 4 apart must fall 16 banks apart (kAPad)");

  const Layout t;
  int* As = smem;                          // [2][kChunk][kAStride], A transposed (k-major)
  int* Bs = smem + 2 * kChunk * kAStride;  // [2][kChunk][kWords]
  const int tid = threadIdx.x;
  const int row0 = a_ti * kTile, col0 = b_tj * kWords, a_k0 = a_tk * kTile, b_k0 = b_tk * kTile;

  int4 ra[kLoads], rb[kLoads];
  // Each thread's loads: their sources at chunk 0, which each load_chunk moves a chunk on (as in
  // accumulate_from_panel: sources recomputed from the chunk index cost instructions on the ALU
  // pipe, VIADDMNMX's). Not at int32's tile 128, 8 x 8 a thread: at two blocks an SM (128
  // registers) the pointers spilled 4-12 bytes in lookahead2_line, so every kernel of those
  // configs recomputes.
  constexpr bool kMoveSources = !(kTile == 128 && kPer == 8 && F::kPerWord == 1);
  const int* a_src[kLoads];
  const int* b_src[kLoads];
  auto source =
      [&](int l,
          int chunk) {  // A: kTile rows of kChunk/kKPerVec vectors; B: kChunk rows of kWords/4
        const int v = l * kThreads + tid;
        const int am = v / (kChunk / kKPerVec), ak = (v % (kChunk / kKPerVec)) * kKPerVec;
        const int bk = v / (kWords / 4), bn = (v % (kWords / 4)) * 4;
        a_src[l] = a + at(row0 + am, (a_k0 + chunk * kChunk + ak) / F::kPerWord, a_pitch);
        b_src[l] = b + at(b_k0 + chunk * kChunk + bk, col0 + bn, b_pitch);
      };
  auto load_chunk = [&](int chunk) {  // called for chunks 0, 1, ... in turn
#pragma unroll
    for (int l = 0; l < kLoads; ++l) {
      if (!kMoveSources || chunk == 0) source(l, chunk);
      ra[l] = *reinterpret_cast<const int4*>(a_src[l]);
      rb[l] = *reinterpret_cast<const int4*>(b_src[l]);
      if constexpr (kMoveSources) {
        a_src[l] += kChunk / F::kPerWord;
        b_src[l] += static_cast<size_t>(kChunk) * b_pitch;
      }
    }
  };
  auto store_chunk = [&](int stage) {
    int* as = As + stage * kChunk * kAStride;
    int* bs = Bs + stage * kChunk * kWords;
#pragma unroll
    for (int l = 0; l < kLoads; ++l) {
      const int v = l * kThreads + tid;
      const int am = v / (kChunk / kKPerVec), ak = (v % (kChunk / kKPerVec)) * kKPerVec;
      // One store per element (a fold, not a loop: for int32 the very code of four statements).
      [&]<int... q>(std::integer_sequence<int, q...>) {
        ((as[(ak + q) * kAStride + am] = F::a_word(ra[l], q)), ...);
      }
      (std::make_integer_sequence<int, kKPerVec>{});
      const int bk = v / (kWords / 4), bn = (v % (kWords / 4)) * 4;
      *reinterpret_cast<int4*>(bs + bk * kWords + bn) = rb[l];
    }
  };

  load_chunk(0);
  store_chunk(0);
  __syncthreads();
#pragma unroll 1
  for (int chunk = 0; chunk < chunks; ++chunk) {
    const int stage = chunk & 1;
    if (chunk + 1 < chunks) load_chunk(chunk + 1);  // global loads in flight during the math
    const int* as = As + stage * kChunk * kAStride;
    const int* bs = Bs + stage * kChunk * kWords;
    chunk_product<kTile, kChunk, kPer, F, kRows, kCols>(acc, as, bs);
    if (chunk + 1 < chunks) store_chunk(stage ^ 1);
    __syncthreads();
  }
}

// C = min(C, A (x) B) for one tile, C the tile (ci, cj) of c (rows `pitch` apart), A and B as
// for accumulate; C's row tile in the whole matrix is row_tile (ci itself in sm90's one matrix,
// the rank's first tile + ci in a row block). No block of the same launch writes A or B (phase 2
// reads its own tile as an operand, and only it reads that tile). kSkipHalves: leave out a padded
// half of the tiles in the last row and column (three copies of the loop, so only the kernels
// that update most tiles use it). A thread's columns come in two halves only where its words
// form two sub-blocks (int32); with one (16-bit pairs at kPer = 8) only rows are skipped.
// `copy` (null: none): the new tile also goes to tile (0, cj) there (rows `pitch` apart).
template <int kTile, int kChunk, int kPer, bool kSkipHalves, class F = Int32Elements>
__device__ __forceinline__ void update_tile(int* __restrict__ c, int pitch, int n, int ci, int cj,
                                            int row_tile, const int* __restrict__ a, int a_pitch,
                                            int a_ti, int a_tk, const int* __restrict__ b,
                                            int b_pitch, int b_tk, int b_tj, int* smem,
                                            int* __restrict__ copy = nullptr) {
  using Layout = ThreadTile<kTile, kPer, F>;
  constexpr int kPerW = Layout::kPerW;
  int acc[kPer][kPerW];
  load_tile<kTile, kPer, F>(acc, c, pitch, ci, cj);
  const int chunks = live_chunks<kTile, kChunk>(n, a_tk);
  if constexpr (kSkipHalves && Layout::kSubs == 2) {
    constexpr int kHalfPer = kPer / 2;
    if (n - row_tile * kTile <=
        Layout::kHalf) {  // (the corner tile too: its columns are done in full)
      accumulate<kTile, kChunk, kPer, F, kHalfPer, kPerW>(acc, a, a_pitch, a_ti, a_tk, b, b_pitch,
                                                          b_tk, b_tj, chunks, smem);
    } else if constexpr (Layout::kSubsW == 2) {
      if (n - cj * kTile <= Layout::kHalf) {
        accumulate<kTile, kChunk, kPer, F, kPer, kPerW / 2>(acc, a, a_pitch, a_ti, a_tk, b, b_pitch,
                                                            b_tk, b_tj, chunks, smem);
      } else {
        accumulate<kTile, kChunk, kPer, F>(acc, a, a_pitch, a_ti, a_tk, b, b_pitch, b_tk, b_tj,
                                           chunks, smem);
      }
    } else {
      accumulate<kTile, kChunk, kPer, F>(acc, a, a_pitch, a_ti, a_tk, b, b_pitch, b_tk, b_tj,
                                         chunks, smem);
    }
  } else {
    accumulate<kTile, kChunk, kPer, F>(acc, a, a_pitch, a_ti, a_tk, b, b_pitch, b_tk, b_tj, chunks,
                                       smem);
  }
  store_tile<kTile, kPer, F>(acc, c, pitch, ci, cj);
  if (copy != nullptr) store_tile<kTile, kPer, F>(acc, copy, pitch, 0, cj);
}

// sm90's product: C = tile (ci, cj) of d, A = (ci, kt), B = (kt, cj); with `copy`, C to tile
// (0, cj) there too.
template <int kTile, int kChunk, int kPer = kPerThread, bool kSkipHalves = false,
          class F = Int32Elements>
__device__ __forceinline__ void product_tile(int* __restrict__ d, int pitch, int n, int ci, int cj,
                                             int kt, int* smem, int* __restrict__ copy = nullptr) {
  update_tile<kTile, kChunk, kPer, kSkipHalves, F>(d, pitch, n, ci, cj, ci, d, pitch, ci, kt, d,
                                                   pitch, kt, cj, smem, copy);
}

// Phase 2: blockIdx.y == 0 the pivot-row tiles (kt, t), == 1 the pivot-column tiles (t, kt).
// int32: 4 x 4 per thread: only 2 x tiles blocks per round, so more threads per block hide
// latency. 16-bit pairs: 8 x 8 (4 x 4 elements would be two words a row, no 16-byte loads).
template <class F = Int32Elements>
constexpr int per_thread2() {
  return F::kPerWord == 1 ? kPerThread2 : kPerThread;
}
template <int kTile, class F = Int32Elements>
constexpr int phase2_chunk() {  // one int4 per thread and operand (16-bit pairs at tile 64: two)
  return F::kPerWord == 1 ? (kTile == 64 ? 16 : 32) : 16;
}

// (16-bit pairs: one block per SM asked, or ptxas caps the registers at 80 and spills 16 bytes.)
template <class F = Int32Elements>
constexpr int phase2_min_blocks() {
  return F::kPerWord == 1 ? 0 : 1;
}

template <int kTile, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, per_thread2<F>()>(), phase2_min_blocks<F>())
                                                           phase2(int* __restrict__ d, int pitch,
                                                                  int n, int kt) {
  wait_for_previous();
  allow_next();
  const int t = blockIdx.x;
  if (t == kt) return;
  extern __shared__ int4 smem4[];
  constexpr int kC = phase2_chunk<kTile, F>(), kP = per_thread2<F>();
  int* smem = reinterpret_cast<int*>(smem4);
  if (blockIdx.y == 0)
    product_tile<kTile, kC, kP, false, F>(d, pitch, n, kt, t, kt, smem);
  else
    product_tile<kTile, kC, kP, false, F>(d, pitch, n, t, kt, kt, smem);
}

// Phase 3: every tile off the pivot row and column. Two blocks per SM at least (at most 128
// registers a thread for 256 threads) hide one block's loads behind the other's math.
// (Forcing 8 blocks of 64 threads, 128 registers, at tile 64 spilled 44-84 bytes and ran 1.5-6%
// slower at n = 10000; 64-thread blocks take the 146-155 registers they need, 6 per SM.)
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), 2) phase3(int* __restrict__ d, int pitch, int n, int kt) {
  wait_for_previous();
  allow_next();
  if (blockIdx.x == kt || blockIdx.y == kt) return;
  extern __shared__ int4 smem4[];
  product_tile<kTile, kChunk, kPer, true, F>(d, pitch, n, blockIdx.y, blockIdx.x, kt,
                                             reinterpret_cast<int*>(smem4));
}

// Which (tile, chunk, per-thread tile) combinations make a kernel: at most 256 threads a block
// (two blocks per SM at 128 registers), every thread loads whole 16-byte vectors per chunk, and
// a thread's row holds whole 16-byte vectors of words.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
constexpr bool product_fits() {
  constexpr int threads = product_threads<kTile, kPer>();
  constexpr int vectors = kTile * kChunk / (4 * F::kPerWord);
  return threads <= 256 && kChunk % (4 * F::kPerWord) == 0 && vectors % threads == 0 &&
         vectors >= threads && (kPer / F::kPerWord) % kSub == 0;
}

// ---- Look-ahead rounds ----------------------------------------------------------------------
// Round r's phase 3 runs as two concurrent parts (the host forks a second, high-priority
// stream): the ordinary tiles (neither in row/column r nor r + 1) on the main stream, and on the
// side stream, in order, the work that round r + 1's phases 1 and 2 need:
//   lookahead_pivot: tile (r+1, r+1): its round-r update, then phase 1 of round r + 1;
//   lookahead_line:  the tiles of row and column r + 1: round-r update, then round-(r+1) phase 2;
//   lookahead_edges: (r+1, r) and (r, r+1), phase 2 of round r + 1 only. They are the round-r
//                    operands of the line tiles, so they wait for that launch.
// So phases 1 and 2 leave the critical path at large n: they run while the ordinary tiles fill
// the GPU, where the three-launch schedule paid for two launches a round that leave most of
// the GPU idle. At small n (few rounds, one wave of ordinary tiles) the side chain is longer
// than what it overlaps, and the three-launch schedule wins (docs/perf-notes.md).
//
// The two parts write disjoint tiles and read only tiles neither writes (row and column r, and
// (r+1, r) / (r, r+1) before lookahead_edges), so they need no synchronisation but the streams'
// order. Earlier versions did it all in one launch, with the pivot published through flags and
// the row/column blocks spinning on them: the flags' atomics and the waits cost 3-5% of a round,
// and the extra code pushed the ordinary tiles' hot loop into spills at tile 128.

// Phase 1 on a tile held in registers (the ThreadTile layout). Step k needs only row k and
// column k, which step k does not change (d[k][k] = 0): so shared memory holds just those two
// vectors, twice (step k reads buffer k % 2; the owners of row and column k + 1 write theirs
// into the other buffer, which nobody reads in step k and everybody finished reading a barrier
// ago), and a step is two or four 16-byte loads, the updates, at most two predicated 16-byte
// stores per owner thread and one barrier. Alone on one SM at tile 64, probes/closure_probe.cu
// times it at 8.5 k cycles, and the same loads, updates and barriers without the step-to-step
// dependency at 6.5 k: what is left is each step's load, update, store and barrier latency. The
// earlier form (the whole tile in shared memory, published with per-element conditions:
// branches, scalar stores, the one element of column k others were reading left out) took
// 16.5 k where a throwaway probe timed this one at 11.8 k. Not better there: per-step mbarriers
// instead of the barrier, two steps per barrier with row / column k + 1 advanced by every
// thread (docs/perf-notes.md).
template <int kTile, int kPer>
__device__ __forceinline__ void close_pivot(int (&acc)[kPer][kPer], int* s) {
  using Layout = ThreadTile<kTile, kPer>;
  constexpr int kQuads = Layout::kHalf / kSub;  // groups of 4 steps per sub-block
  const Layout t;
  int* rows = s;              // [2][kTile]: row k for step k, in buffer k % 2
  int* cols = s + 2 * kTile;  // [2][kTile]: column k for step k
  // This thread's part of row m (acc row r) or column m (acc column r), if it owns one.
  auto publish_row = [&](int buffer, int r) {
#pragma unroll
    for (int c = 0; c < kPer; c += 4)
      *reinterpret_cast<int4*>(rows + buffer * kTile + t.col(c)) =
          make_int4(acc[r][c], acc[r][c + 1], acc[r][c + 2], acc[r][c + 3]);
  };
  auto publish_col = [&](int buffer, int c) {
#pragma unroll
    for (int r = 0; r < kPer; r += 4)
      *reinterpret_cast<int4*>(cols + buffer * kTile + t.row(r)) =
          make_int4(acc[r][c], acc[r + 1][c], acc[r + 2][c], acc[r + 3][c]);
  };
  if (t.ty == 0) publish_row(0, 0);
  if (t.tx == 0) publish_col(0, 0);
  __syncthreads();
  // k = h * kHalf + 4 q + j: the sub-block h and the step j in a quad are compile-time, so the
  // acc row and column that hold row / column k + 1 are too; q (the owner's ty / tx) is not.
#pragma unroll
  for (int h = 0; h < Layout::kSubs; ++h) {
#pragma unroll 1
    for (int q = 0; q < kQuads; ++q) {
#pragma unroll
      for (int j = 0; j < kSub; ++j) {
        const int buffer = j % 2;  // k % 2, as kHalf and 4 q are even
        int lhs[kPer], rhs[kPer];
#pragma unroll
        for (int a = 0; a < kPer; a += 4) {
          const int4 u = *reinterpret_cast<const int4*>(cols + buffer * kTile + t.row(a));
          lhs[a] = u.x, lhs[a + 1] = u.y, lhs[a + 2] = u.z, lhs[a + 3] = u.w;
          const int4 v = *reinterpret_cast<const int4*>(rows + buffer * kTile + t.col(a));
          rhs[a] = v.x, rhs[a + 1] = v.y, rhs[a + 2] = v.z, rhs[a + 3] = v.w;
        }
#pragma unroll
        for (int r = 0; r < kPer; ++r)
#pragma unroll
          for (int c = 0; c < kPer; ++c) acc[r][c] = min_plus(acc[r][c], lhs[r], rhs[c]);
        // Row and column k + 1, to their owners' ty / tx and from a compile-time acc index (a
        // runtime one would put acc in local memory).
        auto publish = [&](int owner, int next) {
          if (t.ty == owner) publish_row(buffer ^ 1, next);
          if (t.tx == owner) publish_col(buffer ^ 1, next);
        };
        if (j + 1 < kSub) {
          publish(q, h * kSub + j + 1);
        } else if (q + 1 < kQuads) {
          publish(q + 1, h * kSub);
        } else if (h + 1 < Layout::kSubs) {
          publish(0, (h + 1) * kSub);
        }
        __syncthreads();
      }
    }
  }
}

template <int kTile>
constexpr int pivot_smem() {
  return 4 * kTile * 4;
}

// Phase 1 of the three-launch schedule: the pivot tile closed in place by close_pivot on 16 x 16
// threads (4 x 4 per thread at tile 64, 8 x 8 at 128). It replaced a 32 x 32-thread kernel that
// wrote every improvement back (docs/perf-notes.md).
// In every format the closure works on one int a distance (load_elements).
template <int kTile, class F = Int32Elements>
__global__ void __launch_bounds__(kPhase1Edge * kPhase1Edge)
    phase1(int* __restrict__ d, int pitch, int kt) {
  constexpr int kPer = kTile / kPhase1Edge;
  wait_for_previous();
  allow_next();
  extern __shared__ int4 smem4[];
  int acc[kPer][kPer];
  load_elements<kTile, kPer, F>(acc, d, pitch, kt, kt);
  close_pivot<kTile, kPer>(acc, reinterpret_cast<int*>(smem4));
  store_elements<kTile, kPer, F>(acc, d, pitch, kt, kt);
}

// Map x in [0, tiles - 1) onto the tile indices other than r, and x in [0, tiles - 2) onto
// those other than r and r + 1.
__device__ __forceinline__ int skip_one(int x, int r) { return x < r ? x : x + 1; }
__device__ __forceinline__ int skip_two(int x, int r) { return x < r ? x : x + 2; }

// The round-r update of the pivot tile (r+1, r+1), then phase 1 of round r + 1 on it, in one
// block (smem: the larger of product_smem and pivot_smem). int32: the closure runs on the
// product's registers. Packed formats: the product's words are stored and read back as one int
// a distance (the block's own writes, visible after the barrier), in the element layout of the
// same threads.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
__device__ __forceinline__ void update_and_close_next_pivot(int* __restrict__ d, int pitch, int n,
                                                            int r, int* smem) {
  const int next = r + 1;
  int acc[kPer][kPer];
  if constexpr (F::kPerWord == 1) {
    load_tile<kTile, kPer>(acc, d, pitch, next, next);
    accumulate<kTile, kChunk, kPer>(acc, d, pitch, next, r, d, pitch, r, next,
                                    live_chunks<kTile, kChunk>(n, r), smem);
  } else {
    product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, next, next, r, smem);
    __syncthreads();
    load_elements<kTile, kPer, F>(acc, d, pitch, next, next);
  }
  close_pivot<kTile, kPer>(acc, smem);
  store_elements<kTile, kPer, F>(acc, d, pitch, next, next);
}

template <int kTile, int kChunk, int kPer, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>())
                                      lookahead_pivot(int* __restrict__ d, int pitch, int n,
                                                      int r) {
  extern __shared__ int4 smem4[];
  update_and_close_next_pivot<kTile, kChunk, kPer, F>(d, pitch, n, r,
                                                      reinterpret_cast<int*>(smem4));
}

// ---- The ordinary tiles from a transposed panel (chunk 16: tile 128 at look-ahead 1 or 3, -------
// ---- int32's tile 64 at look-ahead 3, 4 and 5) --------------------------------------------------
// accumulate() stages A through registers to transpose it (A is read k-major in the loop), so
// each chunk costs each thread global loads, scalar stores and a barrier it must wait for. Here
// A comes from a k-major copy of the round's pivot column (the panel: row k holds column
// r * kTile + k of d over every row), so both operands are copied to shared memory by cp.async,
// without registers, in a ring of chunks of ring_chunk (ring_block_barrier; int32's pairs of
// rounds at tile 128 run ring_mbarrier). The side stream fills the next round's
// panel as it finishes column r + 1 (tile_to_panel); transpose_column fills round 0's.
// probes/product_probe.cu measured a ring of 2 x 16 the fastest of the forms tried, the ordinary
// tiles 1.7-1.9% faster than accumulate's at chunk 8 on the H200 (docs/perf-notes.md);
// accumulate itself at tile 128, chunk 16 spills at 128 registers, the ring does not. It is the
// config sm90[tile=128,chunk=16,per_thread=8,lookahead=1]: its ordinary tiles run the ring, its
// other products (side stream, last round) accumulate at chunk 8 (product_chunk), which fit. At
// lookahead 3 (kernels/sm90_pairs.cuh) the same ring runs over two rounds' k from a panel of two
// columns of tiles.
// In a packed format (sm90_u16) a panel entry is one word an element, the element in both halves
// as accumulate() stages A (F::splat), so the ring copies A as it is: the panel has a word for
// each of the padded matrix's rows (pitch * kPerWord words a row of the panel). B and the tiles
// are words of the format. Its other products keep their chunk (16 at tile 128 fits there).
// <- k elements a stage of the ring (the panel configs' chunk)
inline constexpr int kRingChunk = 16;
inline constexpr int kRingStages = 3;  // <- ring_mbarrier's stages (ring_block_barrier uses two)

// k elements a stage of the ring a block of kPer x kPer a thread runs: kRingChunk, but 32 at tile
// 64 with 4 x 4 a thread (int32's pairs pass there, and every config's L), which halves the block
// barriers a pass: 1-3% at n = 2000-5000 on the H100 (69 registers, so three blocks an SM; capped
// at 64, four, it lost that; 8 x 8 a thread at 32 took 177 and lost 10-25%;
// docs/perf-notes.md). The config's chunk stays the chunk of its other products.
template <int kTile, int kPer>
constexpr int ring_chunk() {
  return kTile == 64 && kPer == 4 ? 32 : kRingChunk;
}

// How a ring_mbarrier warp releases a stage: __syncwarp, then one arrival from lane 0 (the
// shipped form), or an arrival from every thread (APSP_RACECHECK_BUILD). Both order every read
// of the stage before the copies that overwrite it. compute-sanitizer racecheck sees only the
// second: on a 256-thread control kernel it reported the first as a hazard and the second as
// none, and the second is 0.9% slower at n = 10000 (H100; docs/perf-notes.md).
#ifdef APSP_RING_ARRIVE_PER_THREAD
inline constexpr bool kRingArrivePerThread = true;
#else
inline constexpr bool kRingArrivePerThread = false;
#endif

// The ring a pass runs: ring_mbarrier where it measured faster, int32's pairs of rounds at tile
// 128 (16 chunks a tile: 0.9% at n = 10000 on both GPUs, 1.1% at 30000 on the H200);
// ring_block_barrier in the panel's one-round pass (8 chunks a tile), where ring_mbarrier lost
// 1.1-1.3% at n = 5000 and 6500, in sm90_u16's pairs, where it lost 1.7% at n = 10000 (H100;
// docs/perf-notes.md), and in int32's pairs at tile 64 (then 8 chunks of 16 k a tile;
// 4 x 4 now stages 32 k, ring_chunk), where it lost 0.8-2.5% at n = 2500 to 10000 (H200).
template <int kTile, class F, bool kPairs>
constexpr bool ring_mbarriers() {
  return kPairs && kTile == 128 && F::kPerWord == 1;
}

// The configs whose ordinary tiles read A from a panel: the ring's chunk at tile 128 with 8 x 8 a
// thread (both formats), and int32 at tile 64 (4 x 4 or 8 x 8 a thread), where pairs of rounds
// take k = 128 a pass over 64 x 64 tiles.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
constexpr bool ordinary_from_panel() {
  return kChunk == kRingChunk && ((kTile == 128 && kPer == 8) || (kTile == 64 && F::kPerWord == 1));
}

// Whether look-ahead 1's one-round pass reads A from the panel: at tile 128 only. At tile 64 the
// ring ran n = 2500 slower than accumulate (1.56 ms against chunk 32's 1.50, H200;
// docs/perf-notes.md), so there only the pairs of rounds use it.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
constexpr bool one_round_from_panel() {
  return kTile == 128 && ordinary_from_panel<kTile, kChunk, kPer, F>();
}

// The chunk of the products that accumulate() does in a config (all of them but the panel's
// ordinary tiles): int32's accumulate spills at tile 128, chunk 16, so its panel config's run at 8.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
constexpr int product_chunk() {
  return kTile == 128 && ordinary_from_panel<kTile, kChunk, kPer, F>() && F::kPerWord == 1 ? 8
                                                                                           : kChunk;
}

// Shared memory of a block that runs the ring at kPer x kPer a thread (kPairs: the pairs of
// rounds' pass and L): its stages of A and B.
template <int kTile, int kPer, class F, bool kPairs>
constexpr int ring_smem() {
  return product_smem<kTile, ring_chunk<kTile, kPer>(), F>() / 2 *
         (ring_mbarriers<kTile, F, kPairs>() ? kRingStages : 2);
}

// A panel's row length in words, for a matrix whose rows are `pitch` words apart: a word an element.
template <class F>
__host__ __device__ __forceinline__ int panel_pitch(int pitch) {
  if constexpr (F::kPerWord == 1)
    return pitch;
  else
    return pitch * F::kPerWord;
}

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(int* smem, const int* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared_address(smem)), "l"(gmem)
               : "memory");
}

// A thread's share of the ring's copies, a chunk of ring_chunk k at a time: A's rows from the
// panel (k-major, rows panel_pitch<F>(pitch) words apart), B's from rows b_tk * kTile .. of d,
// 16-byte cp.async each. The sources are computed once and moved a chunk on by each copy: sources
// recomputed from the chunk index cost 33 instructions a chunk on the ALU pipe, the pipe VIADDMNMX
// issues on (docs/perf-notes.md).
// kOneRow: a thread's copies of a matrix lie in one row, kAGap (kBGap) words apart, so one pointer
// a matrix serves them all (the others are immediate offsets from it) and a chunk moves 2 pointers,
// not 2 * kALoads: 12 fewer ALU instructions a trip of ring_mbarrier, 0.8% faster there.
// Otherwise copy l of every thread covers whole rows (l * kThreads + tid);
// ring_block_barrier keeps it, 0.2% faster there. Either way a warp's copy covers runs of 16
// or more whole vectors of a row (whole sectors; conflict-free shared stores).
template <int kTile, int kPer, class F, bool kOneRow>
struct RingCopies {
  using Layout = ThreadTile<kTile, kPer, F>;
  static constexpr int kThreads = Layout::kThreads, kChunk = ring_chunk<kTile, kPer>(),
                       kAStride = kTile + kAPad;
  static constexpr int kWords = Layout::kWords;                   // words in a row of B
  static constexpr int kALoads = kTile * kChunk / 4 / kThreads;   // int4 a thread per chunk: A
  static constexpr int kBLoads = kWords * kChunk / 4 / kThreads;  // and B
  static_assert(kALoads * kThreads * 4 == kTile * kChunk &&
                    kBLoads * kThreads * 4 == kWords * kChunk,
                "chunk must split evenly over the threads");
  static constexpr int kAGap = kTile / kALoads, kBGap = kWords / kBLoads;
  static_assert(!kOneRow || (kAGap % 4 == 0 && kBGap % 4 == 0 && kThreads / (kAGap / 4) == kChunk &&
                             kThreads / (kBGap / 4) == kChunk),
                "a row's copies must split evenly over its threads");
  static constexpr int kAPointers = kOneRow ? 1 : kALoads, kBPointers = kOneRow ? 1 : kBLoads;
  // A stage: [kChunk][kAStride] of A (k-major, as accumulate stages it), then [kChunk][kWords] of B.
  static constexpr int kStageA = kChunk * kAStride, kStageB = kChunk * kWords;

  const int* a_src[kAPointers];
  const int* b_src[kBPointers];
  int a_dst[kAPointers], b_dst[kBPointers];
  size_t a_step, b_step;

  __device__ __forceinline__ RingCopies(const int* __restrict__ panel, const int* __restrict__ d,
                                        int pitch, int a_ti, int b_tk, int b_tj) {
    const int tid = threadIdx.x, a_pitch = panel_pitch<F>(pitch);
#pragma unroll
    for (int l = 0; l < kAPointers; ++l) {
      const int v = kOneRow ? tid : l * kThreads + tid, per_row = kOneRow ? kAGap / 4 : kTile / 4;
      const int kk = v / per_row, mm = (v % per_row) * 4;
      a_src[l] = panel + at(kk, a_ti * kTile + mm, a_pitch);
      a_dst[l] = kk * kAStride + mm;
    }
#pragma unroll
    for (int l = 0; l < kBPointers; ++l) {
      const int v = kOneRow ? tid : l * kThreads + tid, per_row = kOneRow ? kBGap / 4 : kWords / 4;
      const int kk = v / per_row, mm = (v % per_row) * 4;
      b_src[l] = d + at(b_tk * kTile + kk, b_tj * kWords + mm, pitch);
      b_dst[l] = kk * kWords + mm;
    }
    a_step = static_cast<size_t>(kChunk) * a_pitch, b_step = static_cast<size_t>(kChunk) * pitch;
  }
  // The next chunk's copies into A stage `as` and B stage `bs`.
  __device__ __forceinline__ void next(int* as, int* bs) {
    if constexpr (kALoads == kBLoads) {  // int32: A's and B's copies of a vector side by side
#pragma unroll
      for (int l = 0; l < kALoads; ++l) copy_a(as, l), copy_b(bs, l);
    } else {
#pragma unroll
      for (int l = 0; l < kALoads; ++l) copy_a(as, l);
#pragma unroll
      for (int l = 0; l < kBLoads; ++l) copy_b(bs, l);
    }
#pragma unroll
    for (int l = 0; l < kAPointers; ++l) a_src[l] += a_step;
#pragma unroll
    for (int l = 0; l < kBPointers; ++l) b_src[l] += b_step;
  }
  __device__ __forceinline__ void copy_a(int* as, int l) {  // copy l of A
    const int p = kOneRow ? 0 : l, offset = kOneRow ? l * kAGap : 0;
    cp_async16(as + a_dst[p] + offset, a_src[p] + offset);
  }
  __device__ __forceinline__ void copy_b(int* bs, int l) {
    const int p = kOneRow ? 0 : l, offset = kOneRow ? l * kBGap : 0;
    cp_async16(bs + b_dst[p] + offset, b_src[p] + offset);
  }
};

// Two stages and a block barrier a chunk: every thread copies its share of chunk c + 1 once every
// thread is done with chunk c - 1. The panel's one-round pass, sm90_u16 and int32's pairs at tile
// 64 run it (ring_mbarriers); int32's pairs pass at tile 128 ran it before it took
// ring_mbarrier, and product_probe times it against that pass's ring_mbarrier.
template <int kTile, int kPer, class F = Int32Elements, int kRows = kPer,
          int kCols = kPer / F::kPerWord>
__device__ __forceinline__ void ring_block_barrier(int (&acc)[kPer][kPer / F::kPerWord],
                                                   const int* __restrict__ panel,
                                                   const int* __restrict__ d, int pitch, int a_ti,
                                                   int b_tk, int b_tj, int chunks, int* smem) {
  using Copies = RingCopies<kTile, kPer, F, false>;
  constexpr int kStageA = Copies::kStageA, kStageB = Copies::kStageB;
  int* As = smem;                // [2] stages of A
  int* Bs = smem + 2 * kStageA;  // [2] stages of B
  Copies copies(panel, d, pitch, a_ti, b_tk, b_tj);
  auto issue = [&](int chunk, int stage) {  // chunk's copies into `stage` (chunk % 2), as one group
    if (chunk < chunks) copies.next(As + stage * kStageA, Bs + stage * kStageB);
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
  // A chunk in stage kStage (chunk % 2): the loop below runs two a trip, so that every shared
  // address is a constant offset from the stage's base (no per-chunk address arithmetic).
  auto step = [&]<int kStage>(int chunk, std::integral_constant<int, kStage>) {
    // This chunk's copies landed, every thread's too (the barrier), and every thread is done
    // with the other stage (chunk - 1), which the next copies overwrite.
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    issue(chunk + 1, 1 - kStage);
    chunk_product<kTile, Copies::kChunk, kPer, F, kRows, kCols>(acc, As + kStage * kStageA,
                                                                Bs + kStage * kStageB);
  };
  issue(0, 0);
#pragma unroll 1
  for (int chunk = 0; chunk < chunks; chunk += 2) {
    step(chunk, std::integral_constant<int, 0>{});
    if (chunk + 1 < chunks) step(chunk + 1, std::integral_constant<int, 1>{});
  }
  __syncthreads();
}

// ---- mbarriers (sm_90), for the ring below --------------------------------------------------------
__device__ __forceinline__ void mbarrier_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count)
               : "memory");
}
// After this thread's mbarrier_init calls: orders them before other threads' (and the copies')
// use of the barriers; a block barrier follows it.
__device__ __forceinline__ void mbarrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void mbarrier_inval(unsigned long long* bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(shared_address(bar)) : "memory");
}
__device__ __forceinline__ void mbarrier_arrive(unsigned long long* bar) {  // release, CTA scope
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}
// Until the phase of the given parity has completed (acquire, CTA scope).
__device__ __forceinline__ void mbarrier_wait(unsigned long long* bar, unsigned parity) {
  unsigned done;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, "
        "1, 0, p;\n}"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } while (!done);
}
// One arrival on bar once this thread's cp.async copies so far have landed (.noinc: it is one of
// the arrivals the barrier expects).
__device__ __forceinline__ void cp_async_arrive(unsigned long long* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(shared_address(bar))
               : "memory");
}

// The ring without a block barrier: every thread copies its share of each chunk as in
// ring_block_barrier, and a stage's `landed` mbarrier counts every thread's copies; a warp done with
// a stage arrives on its `consumed` mbarrier. A thread copies chunk c + 2 when it is done with
// chunk c, into chunk c - 1's stage, once every warp is done with that. So a warp waits only for
// the chunk it reads to land, and warps may drift a chunk apart instead of meeting at a barrier
// each chunk (docs/perf-notes.md). The operands and the order of the updates are those of
// ring_block_barrier: the same values.
template <int kTile, int kPer, class F = Int32Elements, int kRows = kPer,
          int kCols = kPer / F::kPerWord>
__device__ __forceinline__ void ring_mbarrier(int (&acc)[kPer][kPer / F::kPerWord],
                                              const int* __restrict__ panel,
                                              const int* __restrict__ d, int pitch, int a_ti,
                                              int b_tk, int b_tj, int chunks, int* smem) {
  using Copies = RingCopies<kTile, kPer, F, true>;
  constexpr int kStageA = Copies::kStageA, kStageB = Copies::kStageB;
  constexpr int kThreads = Copies::kThreads,
                kReleases = kRingArrivePerThread ? kThreads : kThreads / 32;
  static_assert(kRingStages == 3, "the loop below runs a trip of three chunks, one a stage");
  // every thread's copies of a stage's chunk landed
  __shared__ unsigned long long landed[kRingStages];
  // every warp (thread) is done with a stage's chunk
  __shared__ unsigned long long consumed[kRingStages];
  int* As = smem;                          // [3] stages of A
  int* Bs = smem + kRingStages * kStageA;  // [3] stages of B
  Copies copies(panel, d, pitch, a_ti, b_tk, b_tj);
  auto issue = [&]<int kStage>(std::integral_constant<int, kStage>) {  // the next chunk into kStage
    copies.next(As + kStage * kStageA, Bs + kStage * kStageB);
    cp_async_arrive(&landed[kStage]);
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < kRingStages; ++s)
      mbarrier_init(&landed[s], kThreads), mbarrier_init(&consumed[s], kReleases);
    mbarrier_init_fence();
  }
  __syncthreads();
  // chunks >= 1: pair_pass gives 9 to 16 (tile 128, the only one here)
  issue(std::integral_constant<int, 0>{});
  if (chunks > 1) issue(std::integral_constant<int, 1>{});
  // Chunk `chunk` in stage kStage (chunk % 3) of trip t = chunk / 3: each stage's use t, phase
  // parity t & 1. Chunk - 1's stage was used in this trip, or (kStage 0) in the one before.
  auto step = [&]<int kStage>(int chunk, unsigned parity, std::integral_constant<int, kStage>) {
    constexpr int kFree = (kStage + 2) % 3;  // chunk + 2's stage, chunk - 1's
    mbarrier_wait(&landed[kStage], parity);
    chunk_product<kTile, Copies::kChunk, kPer, F, kRows, kCols>(acc, As + kStage * kStageA,
                                                                Bs + kStage * kStageB);
    if constexpr (kRingArrivePerThread) {
      mbarrier_arrive(&consumed[kStage]);
    } else {
      __syncwarp();  // orders the warp's reads of this stage before lane 0's arrival (a release)
      if (threadIdx.x % 32 == 0) mbarrier_arrive(&consumed[kStage]);
    }
    if (chunk + 2 < chunks) {
      if (chunk >= 1) mbarrier_wait(&consumed[kFree], kStage == 0 ? parity ^ 1u : parity);
      issue(std::integral_constant<int, kFree>{});
    }
  };
#pragma unroll 1
  for (int chunk = 0; chunk < chunks; chunk += 3) {
    const unsigned parity = (chunk / 3) & 1;
    step(chunk, parity, std::integral_constant<int, 0>{});
    if (chunk + 1 < chunks) step(chunk + 1, parity, std::integral_constant<int, 1>{});
    if (chunk + 2 < chunks) step(chunk + 2, parity, std::integral_constant<int, 2>{});
  }
  __syncthreads();  // every warp is past every stage: smem and the barriers are free again
  if (threadIdx.x == 0)
    for (int s = 0; s < kRingStages; ++s) mbarrier_inval(&landed[s]), mbarrier_inval(&consumed[s]);
}

// acc = min(acc, A (x) B) as accumulate(), A the rows a_ti * kTile .. + kTile of the panel
// (kTile words a row of it, rows panel_pitch<F>(pitch) apart), B the tile (b_tk, b_tj) of d (rows
// `pitch` words apart), over `chunks` chunks of ring_chunk, in ring_mbarrier (kMbarriers) or
// ring_block_barrier; kCols counts words, as in chunk_product.
template <bool kMbarriers, int kTile, int kPer, class F = Int32Elements, int kRows = kPer,
          int kCols = kPer / F::kPerWord>
__device__ __forceinline__ void accumulate_from_panel(int (&acc)[kPer][kPer / F::kPerWord],
                                                      const int* __restrict__ panel,
                                                      const int* __restrict__ d, int pitch,
                                                      int a_ti, int b_tk, int b_tj, int chunks,
                                                      int* smem) {
  if constexpr (kMbarriers)
    ring_mbarrier<kTile, kPer, F, kRows, kCols>(acc, panel, d, pitch, a_ti, b_tk, b_tj, chunks,
                                                smem);
  else
    ring_block_barrier<kTile, kPer, F, kRows, kCols>(acc, panel, d, pitch, a_ti, b_tk, b_tj, chunks,
                                                     smem);
}

// C = min(C, A (x) B) for tile (ci, cj) of d: A from the panel, B rows kt * kTile .. of d (or, with
// `row_panel`, rows 0 .. of it: a copy of those rows, `pitch` words apart), over `chunks` chunks of
// the ring (one round's or, over pairs of rounds, two rounds'), the padded halves of the last row and
// column of tiles left out as update_tile leaves them (packed formats: rows only). C's row tile in
// the whole matrix is row_tile, as in update_tile.
template <int kTile, int kPer, class F, bool kMbarriers>
__device__ __forceinline__ void update_from_panel(int* __restrict__ d, int pitch, int n, int ci,
                                                  int cj, int row_tile, int kt, int chunks,
                                                  const int* __restrict__ panel, int* smem,
                                                  const int* __restrict__ row_panel = nullptr) {
  using Layout = ThreadTile<kTile, kPer, F>;
  constexpr int kPerW = Layout::kPerW;
  const int* const b = row_panel != nullptr ? row_panel : d;
  const int b_tk = row_panel != nullptr ? 0 : kt;
  int acc[kPer][kPerW];
  load_tile<kTile, kPer, F>(acc, d, pitch, ci, cj);
  bool halved = false;  // halves exist only with 2 x 2 sub-blocks a thread
  if constexpr (Layout::kSubs == 2) {
    if (n - row_tile * kTile <= Layout::kHalf) {
      accumulate_from_panel<kMbarriers, kTile, kPer, F, kPer / 2, kPerW>(acc, panel, b, pitch, ci,
                                                                         b_tk, cj, chunks, smem);
      halved = true;
    } else if constexpr (Layout::kSubsW == 2) {
      if (n - cj * kTile <= Layout::kHalf) {
        accumulate_from_panel<kMbarriers, kTile, kPer, F, kPer, kPerW / 2>(acc, panel, b, pitch, ci,
                                                                           b_tk, cj, chunks, smem);
        halved = true;
      }
    }
  }
  if (!halved)
    accumulate_from_panel<kMbarriers, kTile, kPer, F>(acc, panel, b, pitch, ci, b_tk, cj, chunks,
                                                      smem);
  store_tile<kTile, kPer, F>(acc, d, pitch, ci, cj);
}

// Column tile kt of d (every row of the padded matrix: pitch * kPerWord of them) into the panel,
// transposed: panel row k is column kt * kTile + k, a word an element (F::splat). 32 x 32 blocks
// through shared memory (a padded row: no bank conflicts), grid (kTile / 32, rows / 32), 32 x 8
// threads.
template <int kTile, class F = Int32Elements>
__global__ void __launch_bounds__(256)
    transpose_column(const int* __restrict__ d, int pitch, int kt, int* __restrict__ panel) {
  __shared__ int block[32][33];
  const int k0 = blockIdx.x * 32, g0 = blockIdx.y * 32, x = threadIdx.x, y = threadIdx.y;
#pragma unroll
  for (int i = y; i < 32; i += 8) {
    if constexpr (F::kPerWord == 1) {
      block[i][x] = d[at(g0 + i, kt * kTile + k0 + x, pitch)];
    } else {
      const int column = kt * kTile + k0 + x;
      block[i][x] = F::element(d[at(g0 + i, column / F::kPerWord, pitch)], column % F::kPerWord);
    }
  }
  __syncthreads();
#pragma unroll
  for (int i = y; i < 32; i += 8)
    panel[at(k0 + i, g0 + x, panel_pitch<F>(pitch))] = F::splat(block[x][i]);
}

// Copies the tile (ci, cj) of d, just stored by this block, into the panel transposed: panel row
// k is column cj * kTile + k of d. It reads the tile back as one int an element and writes its
// 8 x 8 part as 16 vectors of 4 rows, a word an element (F::splat). int32: each thread reads
// back what it wrote itself (its own stores are visible to it). Packed formats: the element
// layout reads words other lanes stored (thread tx reads words 2 tx and 32 + 2 tx, stored by
// threads tx / 2 and 8 + tx / 2), always of the same ty, so of the same warp: __syncwarp orders
// them. The side stream does it for the tiles of column r + 1 once they are final, so that
// round r + 1's ordinary tiles find column r + 1 in the panel.
template <int kTile, int kPer, class F = Int32Elements>
__device__ __forceinline__ void tile_to_panel(const int* __restrict__ d, int pitch, int ci, int cj,
                                              int* __restrict__ panel) {
  const ThreadTile<kTile, kPer> t;
  int acc[kPer][kPer];
  if constexpr (F::kPerWord > 1) __syncwarp();
  load_elements<kTile, kPer, F>(acc, d, pitch, ci, cj);
  const int p_pitch = panel_pitch<F>(pitch);
#pragma unroll
  for (int c = 0; c < kPer; ++c)
#pragma unroll
    for (int r = 0; r < kPer; r += 4)
      *reinterpret_cast<int4*>(panel + at(t.col(c), ci * kTile + t.row(r), p_pitch)) =
          make_int4(F::splat(acc[r][c]), F::splat(acc[r + 1][c]), F::splat(acc[r + 2][c]),
                    F::splat(acc[r + 3][c]));
}

// The side stream's row/column kernels at tile 128 hold two tile products' state: capped at 128
// registers (two blocks per SM) they spill, so they may take more and share an SM less.
template <int kTile>
constexpr int side_blocks_per_sm() {
  return kTile == 128 ? 1 : 2;
}

// 2 (tiles - 2) blocks, after lookahead_pivot: the tiles of row and column r + 1 (but the
// pivot and the two edge tiles), round-r update, then phase 2 of round r + 1; where the
// ordinary tiles read A from a panel, the column's tiles are copied into the next one.
template <int kTile, int kChunk, int kPer, class F = Int32Elements, bool kToPanel = false>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), side_blocks_per_sm<kTile>())
                                               lookahead_line(int* __restrict__ d, int pitch, int n,
                                                              int tiles, int r,
                                                              int* __restrict__ panel) {
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  const int next = r + 1, others = tiles - 2, q = blockIdx.x, x = skip_two(q % others, r);
  const int ci = q < others ? next : x, cj = q < others ? x : next;
  product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, ci, cj, r, smem);
  // The tile's own new values are an operand of its phase-2 product: every thread's stores
  // must be visible to the block's loads first.
  __syncthreads();
  product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, ci, cj, next,
                                              smem);  // operands: pivot, itself
  if constexpr (kToPanel) {
    if (q >= others) tile_to_panel<kTile, kPer, F>(d, pitch, ci, cj, panel);  // column r + 1
  }
}

// 2 blocks, after lookahead_line: phase 2 of round r + 1 for (r+1, r) and (r, r+1) (the latter
// into the panel too, as lookahead_line's column tiles).
template <int kTile, int kChunk, int kPer, class F = Int32Elements, bool kToPanel = false>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), side_blocks_per_sm<kTile>())
                                          lookahead_edges(int* __restrict__ d, int pitch, int n,
                                                          int r, int* __restrict__ panel) {
  extern __shared__ int4 smem4[];
  const int next = r + 1;
  const bool row = blockIdx.x == 0;
  product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, row ? next : r, row ? r : next, next,
                                              reinterpret_cast<int*>(smem4));
  if constexpr (kToPanel) {
    if (!row) tile_to_panel<kTile, kPer, F>(d, pitch, r, next, panel);  // (r, r + 1): column r + 1
  }
}

// (tiles - 2)^2 blocks: the round-r update of every tile outside rows and columns r and r + 1
// (phase 3 of the three-launch schedule, less the tiles the side stream owns). Where
// one_round_from_panel holds, A comes from `panel` (column r transposed); elsewhere panel is
// unused (null) and the product is accumulate's.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), 2) lookahead_ordinary(int* __restrict__ d, int pitch,
                                                                 int n, int tiles, int r,
                                                                 const int* __restrict__ panel) {
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  const int others = tiles - 2, ci = skip_two(blockIdx.x / others, r),
            cj = skip_two(blockIdx.x % others, r);
  if constexpr (one_round_from_panel<kTile, kChunk, kPer, F>()) {
    update_from_panel<kTile, kPer, F, ring_mbarriers<kTile, F, false>()>(
        d, pitch, n, ci, cj, ci, r, live_chunks<kTile, ring_chunk<kTile, kPer>()>(n, r), panel,
        smem);
  } else {
    product_tile<kTile, kChunk, kPer, true, F>(d, pitch, n, ci, cj, r, smem);
  }
}

// ---- The pivot inside phase 3 (lookahead = 2, for small n) -----------------------------------
// Two launches a round, chained by programmatic dependent launch: phase 3 of round r with, in
// block 0, the next pivot (update_and_close_next_pivot), then phase 2 of round r + 1. Against
// three launches a round, phase 1 leaves the chain of kernels: it overlaps the ordinary tiles.
// The host gives the launch over half an SM's shared memory, so that each SM holds one block:
// the pivot block, the longest of the launch and dispatched first, then has its SM to itself.
// Shared with a phase-3 block it lost more than the launch saved (docs/perf-notes.md);
// alone, n = 1000 went from 0.28-0.30 ms to 0.21. With many tiles a round (n = 2500:
// 1521), one block per SM hides less latency than two and the side-stream schedule is faster.
// The launch reads row and column r (no block of it writes them) and writes each other tile once.
// (One block per SM: it may take all the registers, which keeps tile 128 free of spills.)
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), 1) phase3_next_pivot(int* __restrict__ d, int pitch,
                                                                int n, int tiles, int r) {
  wait_for_previous();
  allow_next();
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  if (blockIdx.x == 0) {
    update_and_close_next_pivot<kTile, kChunk, kPer, F>(d, pitch, n, r, smem);
    return;
  }
  // Blocks 1 .. (tiles - 1)^2 - 1: the tiles off row and column r, less (r+1, r+1), which is
  // number r (tiles - 1) + r among them, row-major.
  const int others = tiles - 1, pivot = r * others + r;
  int x = blockIdx.x - 1;
  if (x >= pivot) ++x;
  const int ci = x / others, cj = x % others;
  product_tile<kTile, kChunk, kPer, true, F>(d, pitch, n, skip_one(ci, r), skip_one(cj, r), r,
                                             smem);
}

}  // namespace apsp::kernels::sm90
