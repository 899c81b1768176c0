// sm90: blocked Floyd-Warshall shaped like a register-tiled GEMM, for Hopper.
//   - The matrix is padded to a multiple of the tile (kInf fill), so no kernel checks bounds.
//   - Phases 2 and 3 are one min-plus product routine: a kTile x kTile output tile per block,
//     8 x 8 outputs per thread (as 2 x 2 sub-blocks of 4 x 4, kTile/2 apart, so that 16 threads
//     read 256 contiguous bytes with 16-byte loads: no bank conflicts), the k dimension in
//     chunks of kChunk staged through registers into double-buffered shared memory.
//   - The update min(c, a + b) compiles to one VIADDMNMX on sm_90.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels::sm90 {

inline constexpr int kPerThread = 8;   // <- outputs per thread along each edge (8 x 8 in registers)
inline constexpr int kSub = 4;         // <- sub-block edge: one 16-byte shared-memory load
inline constexpr int kPhase1Edge = 32;  // <- phase 1: 32 x 32 threads (16 x 16 measured slower:
                                        //    2.72 vs 2.08 ms over 157 rounds at n = 10000)
inline constexpr int kPhase1Threads = kPhase1Edge * kPhase1Edge;
inline constexpr int kAPad = 8;        // <- A is stored k-major; 8 words of padding per row keep
                                       //    the transposing stores free of bank conflicts

inline constexpr int kPerThread2 = 4;  // <- phase 2: 4 x 4 per thread, four times the warps of
                                       //    phase 3 for its few blocks (2 x tiles per round)

template <int kTile, int kPer = kPerThread>
constexpr int product_threads() { return (kTile / kPer) * (kTile / kPer); }

// Shared memory of one product block: two stages of A (transposed, padded) and B.
template <int kTile, int kChunk>
constexpr int product_smem() { return 2 * kChunk * ((kTile + kAPad) + kTile) * 4; }

template <int kTile>
constexpr int phase1_smem() { return kTile * kTile * 4; }

// Copies the n x n matrix into a pitch x pitch one, padding with kInf (which never lowers a
// distance, so padded vertices change nothing), and back.
__global__ void pad(const int* __restrict__ src, int n, int* __restrict__ dst, int pitch) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= pitch) return;
  dst[at(i, j, pitch)] = (i < n && j < n) ? src[at(i, j, n)] : kInf;
}
__global__ void unpad(const int* __restrict__ src, int pitch, int* __restrict__ dst, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j < n) dst[at(i, j, n)] = src[at(i, j, pitch)];
}

// Pivot tile in place, kPhase1Threads threads, (kTile/E)^2 elements each, strided by E so that a
// warp reads broadcast words and consecutive words per step. In step k only elements off row k
// and column k can change and only those two are read: write on improvement, one barrier per
// step.
template <int kTile>
__global__ void __launch_bounds__(kPhase1Threads) phase1(int* __restrict__ d, int pitch, int kt) {
  constexpr int E = kPhase1Edge;
  constexpr int kPer = kTile / E;
  extern __shared__ int s[];  // [kTile][kTile]
  const int tx = threadIdx.x % E, ty = threadIdx.x / E, base = kt * kTile;
  int c[kPer][kPer];
#pragma unroll
  for (int a = 0; a < kPer; ++a)
#pragma unroll
    for (int b = 0; b < kPer; ++b) {
      c[a][b] = d[at(base + ty + E * a, base + tx + E * b, pitch)];
      s[(ty + E * a) * kTile + tx + E * b] = c[a][b];
    }
  __syncthreads();
  for (int k = 0; k < kTile; ++k) {
    int lhs[kPer], rhs[kPer];
#pragma unroll
    for (int a = 0; a < kPer; ++a) {
      lhs[a] = s[(ty + E * a) * kTile + k];
      rhs[a] = s[k * kTile + tx + E * a];
    }
#pragma unroll
    for (int a = 0; a < kPer; ++a)
#pragma unroll
      for (int b = 0; b < kPer; ++b) {
        const int cand = lhs[a] + rhs[b];
        if (cand < c[a][b]) {
          c[a][b] = cand;
          s[(ty + E * a) * kTile + tx + E * b] = cand;
        }
      }
    __syncthreads();
  }
#pragma unroll
  for (int a = 0; a < kPer; ++a)
#pragma unroll
    for (int b = 0; b < kPer; ++b) d[at(base + ty + E * a, base + tx + E * b, pitch)] = c[a][b];
}

// C = min(C, A (x) B) for one kTile x kTile tile: C at tile (ci, cj), A the tiles (ci, kt),
// B the tiles (kt, cj), k over the kTile columns of A. No block of the same launch writes A or
// B (phase 2 reads its own tile as an operand, and only it reads that tile).
template <int kTile, int kChunk, int kPer = kPerThread>
__device__ __forceinline__ void product_tile(int* __restrict__ d, int pitch, int ci, int cj,
                                             int kt, int* smem) {
  constexpr int kThreads = product_threads<kTile, kPer>();
  constexpr int kEdge = kTile / kPer;        // threads along an edge
  constexpr int kSubs = kPer / kSub;         // 4 x 4 sub-blocks along an edge
  constexpr int kHalf = kTile / kSubs;       // their spacing
  constexpr int kAStride = kTile + kAPad;
  constexpr int kVecPerChunk = kTile * kChunk / 4;  // int4 per operand chunk
  constexpr int kLoads = kVecPerChunk / kThreads;
  static_assert(kLoads >= 1 && kLoads * kThreads == kVecPerChunk, "chunk must split evenly over the threads");
  static_assert(kTile % kChunk == 0 && kChunk % 4 == 0, "chunks of whole 16-byte vectors");
  static_assert(kEdge * kSub == kHalf, "4 x 4 sub-blocks, kTile/kSubs apart, must cover the tile");

  int* As = smem;                            // [2][kChunk][kAStride], A transposed (k-major)
  int* Bs = smem + 2 * kChunk * kAStride;    // [2][kChunk][kTile]
  const int tid = threadIdx.x, tx = tid % kEdge, ty = tid / kEdge;
  const int row0 = ci * kTile, col0 = cj * kTile, k0 = kt * kTile;

  int acc[kPer][kPer];
#pragma unroll
  for (int r = 0; r < kPer; ++r) {
    const int i = row0 + (r / kSub) * kHalf + ty * kSub + r % kSub;
#pragma unroll
    for (int h = 0; h < kSubs; ++h) {
      const int4 v = *reinterpret_cast<const int4*>(d + at(i, col0 + h * kHalf + tx * kSub, pitch));
      acc[r][h * 4 + 0] = v.x; acc[r][h * 4 + 1] = v.y; acc[r][h * 4 + 2] = v.z; acc[r][h * 4 + 3] = v.w;
    }
  }

  int4 ra[kLoads], rb[kLoads];
  auto load_chunk = [&](int chunk) {
#pragma unroll
    for (int l = 0; l < kLoads; ++l) {
      const int v = l * kThreads + tid;
      // A: kTile rows of kChunk/4 vectors; B: kChunk rows of kTile/4 vectors.
      const int am = v / (kChunk / 4), ak = (v % (kChunk / 4)) * 4;
      ra[l] = *reinterpret_cast<const int4*>(d + at(row0 + am, k0 + chunk * kChunk + ak, pitch));
      const int bk = v / (kTile / 4), bn = (v % (kTile / 4)) * 4;
      rb[l] = *reinterpret_cast<const int4*>(d + at(k0 + chunk * kChunk + bk, col0 + bn, pitch));
    }
  };
  auto store_chunk = [&](int stage) {
    int* as = As + stage * kChunk * kAStride;
    int* bs = Bs + stage * kChunk * kTile;
#pragma unroll
    for (int l = 0; l < kLoads; ++l) {
      const int v = l * kThreads + tid;
      const int am = v / (kChunk / 4), ak = (v % (kChunk / 4)) * 4;
      as[(ak + 0) * kAStride + am] = ra[l].x;
      as[(ak + 1) * kAStride + am] = ra[l].y;
      as[(ak + 2) * kAStride + am] = ra[l].z;
      as[(ak + 3) * kAStride + am] = ra[l].w;
      const int bk = v / (kTile / 4), bn = (v % (kTile / 4)) * 4;
      *reinterpret_cast<int4*>(bs + bk * kTile + bn) = rb[l];
    }
  };

  constexpr int kChunks = kTile / kChunk;
  load_chunk(0);
  store_chunk(0);
  __syncthreads();
#pragma unroll 1
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    const int stage = chunk & 1;
    if (chunk + 1 < kChunks) load_chunk(chunk + 1);  // global loads in flight during the math
    const int* as = As + stage * kChunk * kAStride;
    const int* bs = Bs + stage * kChunk * kTile;
#pragma unroll
    for (int k = 0; k < kChunk; ++k) {
      int a[kPer], b[kPer];
#pragma unroll
      for (int h = 0; h < kSubs; ++h) {
        const int4 va = *reinterpret_cast<const int4*>(as + k * kAStride + h * kHalf + ty * kSub);
        const int4 vb = *reinterpret_cast<const int4*>(bs + k * kTile + h * kHalf + tx * kSub);
        a[h * 4 + 0] = va.x; a[h * 4 + 1] = va.y; a[h * 4 + 2] = va.z; a[h * 4 + 3] = va.w;
        b[h * 4 + 0] = vb.x; b[h * 4 + 1] = vb.y; b[h * 4 + 2] = vb.z; b[h * 4 + 3] = vb.w;
      }
#pragma unroll
      for (int r = 0; r < kPer; ++r)
#pragma unroll
        for (int c = 0; c < kPer; ++c) acc[r][c] = min_plus(acc[r][c], a[r], b[c]);
    }
    if (chunk + 1 < kChunks) store_chunk(stage ^ 1);
    __syncthreads();
  }

#pragma unroll
  for (int r = 0; r < kPer; ++r) {
    const int i = row0 + (r / kSub) * kHalf + ty * kSub + r % kSub;
#pragma unroll
    for (int h = 0; h < kSubs; ++h) {
      *reinterpret_cast<int4*>(d + at(i, col0 + h * kHalf + tx * kSub, pitch)) =
          make_int4(acc[r][h * 4 + 0], acc[r][h * 4 + 1], acc[r][h * 4 + 2], acc[r][h * 4 + 3]);
    }
  }
}

// Phase 2: blockIdx.y == 0 the pivot-row tiles (kt, t), == 1 the pivot-column tiles (t, kt).
// 4 x 4 per thread: only 2 x tiles blocks per round, so more threads per block hide latency.
template <int kTile>
constexpr int phase2_chunk() { return kTile == 64 ? 16 : 32; }  // one int4 per thread and operand

template <int kTile>
__global__ void __launch_bounds__(product_threads<kTile, kPerThread2>()) phase2(int* __restrict__ d,
                                                                              int pitch, int kt) {
  const int t = blockIdx.x;
  if (t == kt) return;
  extern __shared__ int4 smem4[];
  constexpr int kC = phase2_chunk<kTile>();
  if (blockIdx.y == 0) product_tile<kTile, kC, kPerThread2>(d, pitch, kt, t, kt, reinterpret_cast<int*>(smem4));
  else product_tile<kTile, kC, kPerThread2>(d, pitch, t, kt, kt, reinterpret_cast<int*>(smem4));
}

// Phase 3: every tile off the pivot row and column. Two blocks per SM (at most 128 registers a
// thread for 256 threads) hide one block's loads behind the other's math.
template <int kTile, int kChunk>
__global__ void __launch_bounds__(product_threads<kTile>(), 2) phase3(int* __restrict__ d, int pitch,
                                                                   int kt) {
  if (blockIdx.x == kt || blockIdx.y == kt) return;
  extern __shared__ int4 smem4[];
  product_tile<kTile, kChunk>(d, pitch, blockIdx.y, blockIdx.x, kt, reinterpret_cast<int*>(smem4));
}

}  // namespace apsp::kernels::sm90
