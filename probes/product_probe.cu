// product_probe: where sm90's ordinary tiles lose against the min-plus ceiling. One round of
// ordinary tiles (tile 128, 8 x 8 a thread, the look-ahead schedule's lookahead_ordinary) at a
// given n, timed as shipped and in forms that each change one thing, beside the ceiling probe
// in the same run (docs/perf-notes.md):
//   accumulate  the ordinary tiles before the panel: accumulate(), chunk 8, one block a tile, 2 an SM
//               (the reference); "copy" is the probe's own copy of its loop (the forms below
//               change that copy)
//   panel ring  lookahead_ordinary as shipped: A from a transposed panel, both operands by cp.async
//               in a ring of 2 x 16 (kernels/sm90.cuh)
//   rounds r, r+1  two rounds in one pass (k = 256, A from a panel of two columns of tiles, in the
//               pairs pass's ring: 3 x 16 on mbarriers), as
//               lookahead 3 runs its ordinary tiles, against the two rounds one by one; then
//               lookahead 3's pass as shipped (lookahead2_ordinary, the tiles off rows and
//               columns r .. r + 3: (n / 128 - 4)^2 blocks, the grid of a solve at that padded n),
//               and that pass with the older ring (two stages, a block barrier a chunk)
//               and without the barrier (wrong values: the most a ring without it could reach)
//   persistent  2 blocks an SM, each looping over tiles (no block launches, no tail of blocks)
//   async-b     B copied to shared memory by cp.async (no staging registers, no STS for it)
//   chunk16     chunk 16 (half the barriers), which fits 128 registers only with async-b
//   no-c        (wrong values) C not read: acc starts at INF, so no load latency a tile
//   no-staging  (wrong values) chunk 0 only, reused: no global loads, STS or barriers a chunk
// The forms that compute the right thing are compared bit-exact with the shipped kernel.
//   ./build/release/product_probe [n]      (n a multiple of 128, default 9984; exit 3 without a GPU)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/console.hpp"
#include "core/device_info.hpp"
#include "kernels/ceiling.cuh"
#include "kernels/sm90.cuh"
#include "kernels/sm90_pairs.cuh"

namespace {

using namespace apsp::kernels;
using namespace apsp::kernels::sm90;

constexpr int kTile = 128, kPer = 8, kThreads = 256;

__device__ __forceinline__ void cp_async_wait_all() {
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// A form: its chunk, whether blocks loop over tiles, B by cp.async, C read, chunks staged
// (template parameters of the kernel one by one: nvcc's host stubs take no class-type ones).
struct Form {
  int chunk = 8;
  bool persistent = false, async_b = false, read_c = true, stage = true;
  int ring = 0;  // stages of the cp.async ring (product_ring), 0: the shipped double buffer
  bool no_barrier = false, no_global = false;
  int a_mode = 0;  // the ring's A: 0 k-major source, 1 m-major read by scalars, 2 m-major by pairs
};

// One k step of the 8 x 8 outputs: A's 8 values from the k-major row as, B's from bs.
__device__ __forceinline__ void step(int (&acc)[kPer][kPer], const int* as, const int* bs) {
  chunk_product<kTile, 1, kPer, Int32Elements, kPer, kPer>(acc, as, bs);
}

// accumulate() of kernels/sm90.cuh with the probe's switches (A = (ti, kt), B = (kt, tj)).
template <int kChunk, bool kAsync, bool kStage, bool kNoBarrier = false, bool kNoGlobal = false>
__device__ __forceinline__ void product(int (&acc)[kPer][kPer], const int* __restrict__ d,
                                        int pitch, int ti, int kt, int tj, int chunks, int* smem) {
  constexpr int kAStride = kTile + kAPad;
  constexpr int kLoads = kTile * kChunk / 4 / kThreads;
  int* As = smem;
  int* Bs = smem + 2 * kChunk * kAStride;
  const int tid = threadIdx.x, row0 = ti * kTile, col0 = tj * kTile, k0 = kt * kTile;
  int4 ra[kLoads], rb[kLoads];
  auto load_chunk = [&](int chunk, int stage) {
#pragma unroll
    for (int l = 0; l < kLoads; ++l) {
      const int v = l * kThreads + tid;
      const int am = v / (kChunk / 4), ak = (v % (kChunk / 4)) * 4;
      ra[l] = *reinterpret_cast<const int4*>(d + at(row0 + am, k0 + chunk * kChunk + ak, pitch));
      const int bk = v / (kTile / 4), bn = (v % (kTile / 4)) * 4;
      const int* src = d + at(k0 + chunk * kChunk + bk, col0 + bn, pitch);
      if constexpr (kAsync)
        cp_async16(Bs + stage * kChunk * kTile + bk * kTile + bn, src);
      else
        rb[l] = *reinterpret_cast<const int4*>(src);
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
      if constexpr (!kAsync) *reinterpret_cast<int4*>(bs + bk * kTile + bn) = rb[l];
    }
    if constexpr (kAsync) cp_async_wait_all();
  };
  load_chunk(0, 0);
  store_chunk(0);
  __syncthreads();
#pragma unroll 1
  for (int chunk = 0; chunk < chunks; ++chunk) {
    const int stage = kStage ? chunk & 1 : 0;
    const bool next = kStage && chunk + 1 < chunks;
    // Reused operands: without this clobber the compiler hoists the sums out of the loop
    // (kernels/ceiling.cuh says why).
    if constexpr (!kStage) asm volatile("" ::: "memory");
    if (next && !kNoGlobal) load_chunk(chunk + 1, stage ^ 1);
    const int* as = As + stage * kChunk * kAStride;
    const int* bs = Bs + stage * kChunk * kTile;
#pragma unroll
    for (int k = 0; k < kChunk; ++k) step(acc, as + k * kAStride, bs + k * kTile);
    if (next && !kNoGlobal) store_chunk(stage ^ 1);
    if (kStage && !kNoBarrier) __syncthreads();
  }
  __syncthreads();
}

// A k step with A m-major in shared memory (rows kChunk + 4 words apart): 8 scalar loads of
// A (kPairs false) or, for two k steps at once, 8 8-byte loads (kPairs true).
template <int kAS, bool kPairs>
__device__ __forceinline__ void step_m(int (&acc)[kPer][kPer], const int* as, int k,
                                       const int* bs) {
  const ThreadTile<kTile, kPer> t;
  constexpr int kSteps = kPairs ? 2 : 1;
  int a[kSteps][kPer];
#pragma unroll
  for (int r = 0; r < kPer; ++r) {
    if constexpr (kPairs) {
      const int2 v = *reinterpret_cast<const int2*>(as + t.row(r) * kAS + k);
      a[0][r] = v.x, a[kSteps - 1][r] = v.y;
    } else {
      a[0][r] = as[t.row(r) * kAS + k];
    }
  }
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    int b[kPer];
#pragma unroll
    for (int h = 0; h < kPer; h += 4) {
      const int4 vb = *reinterpret_cast<const int4*>(bs + s * kTile + t.col(h));
      b[h + 0] = vb.x;
      b[h + 1] = vb.y;
      b[h + 2] = vb.z;
      b[h + 3] = vb.w;
    }
#pragma unroll
    for (int r = 0; r < kPer; ++r)
#pragma unroll
      for (int c = 0; c < kPer; ++c) acc[r][c] = min_plus(acc[r][c], a[s][r], b[c]);
  }
}

// Words of one stage of A in the ring: k-major (kAMode 0) or m-major (rows kChunk + 4 apart).
template <int kChunk, int kAMode>
constexpr int ring_a_words() {
  return kAMode == 0 ? kChunk * (kTile + kAPad) : kTile * (kChunk + 4);
}

// The ring of kStages chunks, both operands by cp.async and A read from a k-major source (a
// transposed copy of the pivot column; here the matrix itself: timing only), one barrier a chunk.
template <int kChunk, int kStages, int kAMode>
__device__ __forceinline__ void product_ring(int (&acc)[kPer][kPer], const int* __restrict__ d,
                                             int pitch, int ti, int kt, int tj, int chunks,
                                             int* smem) {
  // kAMode 0: A k-major (a transposed source); 1, 2: A m-major, read by scalar / pair loads.
  constexpr int kAStride = kAMode == 0 ? kTile + kAPad : kChunk + 4;
  constexpr int kAStage = ring_a_words<kChunk, kAMode>();
  constexpr int kLoads = kTile * kChunk / 4 / kThreads;
  int* As = smem;
  int* Bs = smem + kStages * kAStage;
  const int tid = threadIdx.x, row0 = ti * kTile, col0 = tj * kTile, k0 = kt * kTile;
  auto issue = [&](int chunk) {
    if (chunk < chunks) {
      const int stage = chunk % kStages;
#pragma unroll
      for (int l = 0; l < kLoads; ++l) {
        const int v = l * kThreads + tid, kk = v / (kTile / 4), mm = (v % (kTile / 4)) * 4;
        if constexpr (kAMode == 0) {
          cp_async16(As + stage * kAStage + kk * kAStride + mm,
                     d + at(k0 + chunk * kChunk + kk, row0 + mm, pitch));
        } else {  // row am of A, k ak .. ak + 3
          const int am = v / (kChunk / 4), ak = (v % (kChunk / 4)) * 4;
          cp_async16(As + stage * kAStage + am * kAStride + ak,
                     d + at(row0 + am, k0 + chunk * kChunk + ak, pitch));
        }
        cp_async16(Bs + (stage * kChunk + kk) * kTile + mm,
                   d + at(k0 + chunk * kChunk + kk, col0 + mm, pitch));
      }
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) issue(s);
#pragma unroll 1
  for (int chunk = 0; chunk < chunks; ++chunk) {
    asm volatile("cp.async.wait_group %0;" ::"n"(kStages - 2) : "memory");
    __syncthreads();
    issue(chunk + kStages - 1);
    const int stage = chunk % kStages;
    const int* as = As + stage * kAStage;
    const int* bs = Bs + stage * kChunk * kTile;
    if constexpr (kAMode == 0) {
#pragma unroll
      for (int k = 0; k < kChunk; ++k) step(acc, as + k * kAStride, bs + k * kTile);
    } else {
      constexpr int kSteps = kAMode == 2 ? 2 : 1;
#pragma unroll
      for (int k = 0; k < kChunk; k += kSteps)
        step_m<kAStride, kAMode == 2>(acc, as, k, bs + k * kTile);
    }
  }
  __syncthreads();
}

// The ordinary tiles as sm90 ran them before the panel: accumulate(), chunk 8.
__global__ void __launch_bounds__(kThreads, 2) accumulate_ordinary(int* __restrict__ d, int pitch,
                                                                   int n, int tiles, int r) {
  extern __shared__ int4 smem4[];
  const int others = tiles - 2;
  product_tile<kTile, 8, kPer, true>(d, pitch, n, skip_two(blockIdx.x / others, r),
                                     skip_two(blockIdx.x % others, r), r,
                                     reinterpret_cast<int*>(smem4));
}

template <int kChunk, bool kPersistent, bool kAsyncB, bool kReadC, bool kStage, int kRing = 0,
          bool kNoBarrier = false, bool kNoGlobal = false, int kAMode = 0>
__global__ void __launch_bounds__(kThreads, 2)
                                      ordinary(int* __restrict__ d, int pitch, int tiles, int r) {
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  const int others = tiles - 2, count = others * others;
  for (int x = blockIdx.x; x < count; x += kPersistent ? gridDim.x : count) {
    const int ci = skip_two(x / others, r), cj = skip_two(x % others, r);
    int acc[kPer][kPer];
    if constexpr (!kReadC) {
#pragma unroll
      for (int i = 0; i < kPer; ++i)
#pragma unroll
        for (int j = 0; j < kPer; ++j) acc[i][j] = kInf;
    } else {
      load_tile<kTile, kPer>(acc, d, pitch, ci, cj);
    }
    if constexpr (kRing > 0)
      product_ring<kChunk, kRing, kAMode>(acc, d, pitch, ci, r, cj, kTile / kChunk, smem);
    else
      product<kChunk, kAsyncB, kStage, kNoBarrier, kNoGlobal>(acc, d, pitch, ci, r, cj,
                                                              kTile / kChunk, smem);
    store_tile<kTile, kPer>(acc, d, pitch, ci, cj);
  }
}

// The panel ring over kRounds consecutive rounds' k (kt .. kt + kRounds - 1) in one pass over each
// tile: A from kRounds panels stacked (rows kRounds * kTile), B the matching rows of d. The tiles
// are the shipped round's (off rows and columns r, r + 1), so no launch writes an operand. The
// ring is the pairs pass's.
template <int kRounds>
__global__ void __launch_bounds__(kThreads, 2)
                                      panel_rounds(int* __restrict__ d, int pitch, int tiles, int r,
                                                   int kt, const int* __restrict__ panel) {
  extern __shared__ int4 smem4[];
  const int others = tiles - 2, ci = skip_two(blockIdx.x / others, r),
            cj = skip_two(blockIdx.x % others, r);
  int acc[kPer][kPer];
  load_tile<kTile, kPer>(acc, d, pitch, ci, cj);
  accumulate_from_panel<ring_mbarriers<kTile, Int32Elements, true>(), kTile, kPer>(
      acc, panel, d, pitch, ci, kt, cj, kRounds * kTile / kRingChunk,
      reinterpret_cast<int*>(smem4));
  store_tile<kTile, kPer>(acc, d, pitch, ci, cj);
}

// ring_block_barrier with the barrier left out and ring_mbarrier's copies (one row a thread;
// timing only: wrong values): what a ring without a block barrier could reach at most.
__device__ __forceinline__ void ring_without_barrier(int (&acc)[kPer][kPer],
                                                     const int* __restrict__ panel,
                                                     const int* __restrict__ d, int pitch, int a_ti,
                                                     int b_tk, int b_tj, int chunks, int* smem) {
  using Copies = RingCopies<kTile, kPer, Int32Elements, true>;
  int* As = smem;
  int* Bs = smem + 2 * Copies::kStageA;
  Copies copies(panel, d, pitch, a_ti, b_tk, b_tj);
  auto issue = [&](int chunk, int stage) {  // as in ring_block_barrier
    if (chunk < chunks) copies.next(As + stage * Copies::kStageA, Bs + stage * Copies::kStageB);
    asm volatile("cp.async.commit_group;" ::: "memory");
  };
  auto step = [&]<int kStage>(int chunk, std::integral_constant<int, kStage>) {
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    issue(chunk + 1, 1 - kStage);
    chunk_product<kTile, kRingChunk, kPer, Int32Elements, kPer, kPer>(
        acc, As + kStage * Copies::kStageA, Bs + kStage * Copies::kStageB);
  };
  issue(0, 0);
#pragma unroll 1
  for (int chunk = 0; chunk < chunks; chunk += 2) {
    step(chunk, std::integral_constant<int, 0>{});
    if (chunk + 1 < chunks) step(chunk + 1, std::integral_constant<int, 1>{});
  }
}

// lookahead2_ordinary's pass on whole tiles (the probe's n is a multiple of 128) with another
// ring: 0 ring_block_barrier (the older ring), 1 no barrier (timing only: wrong values).
template <int kRing>
__global__ void __launch_bounds__(kThreads, 2) pairs_pass_form(
    int* __restrict__ d, int pitch, int n, int r, const int* __restrict__ panel,
    const int* __restrict__ /*row_panel: tile 64 only*/) {
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  const int ci = skip_range(blockIdx.y, r, 4), cj = skip_range(blockIdx.x, r, 4);
  const int chunks = (min(2 * kTile, n - r * kTile) + kRingChunk - 1) / kRingChunk;
  int acc[kPer][kPer];
  load_tile<kTile, kPer>(acc, d, pitch, ci, cj);
  if constexpr (kRing == 0)
    ring_block_barrier<kTile, kPer>(acc, panel, d, pitch, ci, r, cj, chunks, smem);
  if constexpr (kRing == 1) ring_without_barrier(acc, panel, d, pitch, ci, r, cj, chunks, smem);
  store_tile<kTile, kPer>(acc, d, pitch, ci, cj);
}

bool ok(cudaError_t e) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "product_probe: %s\n", cudaGetErrorString(e));
  return false;
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() { cudaEventCreate(&start), cudaEventCreate(&stop); }
  ~Timer() { cudaEventDestroy(start), cudaEventDestroy(stop); }
  template <class Launch>
  double median_ms(Launch&& launch, int reps) {
    std::vector<float> ms;
    for (int i = 0; i < reps; ++i) {
      cudaEventRecord(start);
      launch();
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float m = 0;
      cudaEventElapsedTime(&m, start, stop);
      ms.push_back(m);
    }
    std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
    return ms[reps / 2];
  }
};

static_assert(ordinary_from_panel<kTile, kRingChunk, kPer>(),
              "the probe times the panel form of the ordinary tiles");
static_assert(ring_chunk<kTile, kPer>() == kRingChunk,
              "the probe's own rings stage kRingChunk k, as the kernels' here");

// What the probe's steps share: the sizes, the input and the reference output (want) the forms
// are checked against, the last output read back (got), the device buffers, the timer, the
// ceiling the times are set against and whether every check so far held.
struct Probe {
  int n = 0, tiles = 0, r = 0, others = 0;
  size_t elems = 0;
  cudaDeviceProp prop{};
  std::vector<int> input, want, got;
  int *d = nullptr, *ref = nullptr, *out = nullptr;
  int smem8 = 0, smem16 = 0;
  Timer timer;
  double ceiling = 0, updates = 0;
  bool good = true;
};

// n from the command line, if given; returns the exit code to stop with, or nothing to go on.
std::optional<int> read_n(int argc, char** argv, int& n) {
  const auto argument = apsp::probe_argument(
      argc, argv, "product_probe", "n",
      "product_probe: times one round of sm90's ordinary tiles at tile 128 as before the panel\n"
      "(accumulate, chunk 8: the reference), as shipped (the panel config's ring) and in forms\n"
      "that each change one thing, beside the int32 min-plus ceiling; then two rounds in one\n"
      "pass, and lookahead 3's pass as shipped (the grid of a solve whose padded n is n).\n"
      "The forms that compute the right values are compared bit-exact.\n"
      "Usage: product_probe [n]   n a multiple of 128 from 512 to 46336 (default 9984)",
      "a wrong result or a CUDA error");
  if (argument.exit_code) return argument.exit_code;
  if (argc == 2) {
    const std::string& arg = argument.value;
    const auto [end, error] = std::from_chars(arg.data(), arg.data() + arg.size(), n);
    if (error != std::errc() || end != arg.data() + arg.size() || n < 4 * kTile || n % kTile != 0 ||
        n > 46336) {
      std::fprintf(stderr,
                   "product_probe: n must be a multiple of 128 from 512 to 46336 (got '%s')\n",
                   arg.c_str());
      return apsp::kExitRefused;
    }
  }
  return std::nullopt;
}

// The sizes, the input (distances 1-1000, a fifth of the pairs unreachable) and the device buffers.
bool allocate(Probe& p) {
  cudaGetDeviceProperties(&p.prop, 0);
  p.tiles = p.n / kTile, p.r = p.tiles / 2, p.others = p.tiles - 2;
  p.elems = static_cast<size_t>(p.n) * p.n;
  p.input.resize(p.elems);
  for (size_t i = 0; i < p.elems; ++i) {
    const unsigned h = static_cast<unsigned>(i) * 2654435761u;
    p.input[i] = (h >> 7) % 5 == 0 ? kInf : static_cast<int>(h % 1000) + 1;
  }
  return ok(cudaMalloc(&p.d, p.elems * 4)) && ok(cudaMalloc(&p.ref, p.elems * 4)) &&
         ok(cudaMalloc(&p.out, 2 * p.prop.multiProcessorCount * kCeilThreads * 4));
}

// The ceiling, as the bench measures it (2 blocks an SM, median of 5), and the first line.
void measure_ceiling(Probe& p) {
  int* const out = p.out;
  const int ceil_reps = 20000, ceil_blocks = 2 * p.prop.multiProcessorCount;
  minplus_ceiling<Int32Elements><<<ceil_blocks, kCeilThreads>>>(16, 1, out);
  const double ceil_ms = p.timer.median_ms(
      [&] { minplus_ceiling<Int32Elements><<<ceil_blocks, kCeilThreads>>>(ceil_reps, 1, out); }, 5);
  p.ceiling =
      static_cast<double>(ceil_blocks) * kCeilThreads * 64.0 * kCeilK * ceil_reps / (ceil_ms / 1e3);
  std::printf("%s, n = %d, %d ordinary tiles a round; int32 ceiling %.2f T updates/s\n",
              p.prop.name, p.n, p.others * p.others, p.ceiling / 1e12);
  p.updates = static_cast<double>(p.others) * p.others * kTile * kTile * kTile;
}

// The reference output: one round of accumulate_ordinary on the input, in ref and in want.
bool make_reference(Probe& p) {
  const int n = p.n, tiles = p.tiles, r = p.r, others = p.others;
  cudaMemcpy(p.ref, p.input.data(), p.elems * 4, cudaMemcpyHostToDevice);
  p.smem8 = product_smem<kTile, 8>(), p.smem16 = product_smem<kTile, 16>();
  const int smem8 = p.smem8;
  cudaFuncSetAttribute(accumulate_ordinary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem8);
  accumulate_ordinary<<<others * others, kThreads, smem8>>>(p.ref, n, n, tiles, r);
  if (!ok(cudaDeviceSynchronize())) return false;
  p.want.resize(p.elems), p.got.resize(p.elems);
  cudaMemcpy(p.want.data(), p.ref, p.elems * 4, cudaMemcpyDeviceToHost);
  return true;
}

// Reads d back into got; whether it equals `expected` (a difference fails the probe).
bool read_back_equals(Probe& p, const std::vector<int>& expected) {
  cudaMemcpy(p.got.data(), p.d, p.elems * 4, cudaMemcpyDeviceToHost);
  const bool same = p.got == expected;
  p.good = p.good && same;
  return same;
}

// One line of the table: the kernel's registers and spills, its time for a round, the rate and
// the share of the ceiling, and what its check found.
void report(const Probe& p, const char* name, const void* kernel, double ms,
            const std::string& check) {
  cudaFuncAttributes attr{};
  cudaFuncGetAttributes(&attr, kernel);
  std::printf("%-26s %4d regs %5d spill B  %8.3f ms  %6.2f T/s  %5.1f%% of the ceiling  %s\n", name,
              attr.numRegs, static_cast<int>(attr.localSizeBytes), ms,
              p.updates / (ms / 1e3) / 1e12, 100.0 * p.updates / (ms / 1e3) / p.ceiling,
              check.c_str());
}

// The reference's own time (on whatever d holds: timing only).
void time_reference(Probe& p) {
  const int n = p.n, tiles = p.tiles, r = p.r, others = p.others, smem8 = p.smem8;
  int* const d = p.d;
  report(p, "accumulate, chunk 8", reinterpret_cast<const void*>(accumulate_ordinary),
         p.timer.median_ms(
             [&] { accumulate_ordinary<<<others * others, kThreads, smem8>>>(d, n, n, tiles, r); },
             11),
         "(the reference)");
}

// sm90's ordinary tiles as shipped: A from column r transposed into a panel.
bool time_shipped_panel(Probe& p) {
  const int n = p.n, tiles = p.tiles, r = p.r, others = p.others;
  int* const d = p.d;
  int* panel = nullptr;
  if (!ok(cudaMalloc(&panel, static_cast<size_t>(kTile) * n * 4))) return false;
  auto ordinary = lookahead_ordinary<kTile, kRingChunk, kPer>;
  const int smem = ring_smem<kTile, kPer, Int32Elements, false>();
  cudaFuncSetAttribute(ordinary, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaMemcpy(d, p.input.data(), p.elems * 4, cudaMemcpyHostToDevice);
  transpose_column<kTile><<<dim3(kTile / 32, n / 32), dim3(32, 8)>>>(d, n, r, panel);
  ordinary<<<others * others, kThreads, smem>>>(d, n, n, tiles, r, panel);
  p.good = ok(cudaDeviceSynchronize()) && p.good;
  const bool same = read_back_equals(p, p.want);
  report(p, "panel ring (shipped)", reinterpret_cast<const void*>(ordinary),
         p.timer.median_ms(
             [&] { ordinary<<<others * others, kThreads, smem>>>(d, n, n, tiles, r, panel); }, 11),
         same ? "equals the reference" : "DIFFERS from the reference");
  const double t_ms = p.timer.median_ms(
      [&] { transpose_column<kTile><<<dim3(kTile / 32, n / 32), dim3(32, 8)>>>(d, n, r, panel); },
      11);
  std::printf("%-26s %8.3f ms a round\n", "transpose_column", t_ms);
  cudaFree(panel);
  return true;
}

// d back to the input, and the panels of columns r and r + 1 (the second kTile * n words on).
void fill_panels(Probe& p, int* panels) {
  const int n = p.n, r = p.r;
  int* const d = p.d;
  int* const second = panels + static_cast<size_t>(kTile) * n;
  cudaMemcpy(d, p.input.data(), p.elems * 4, cudaMemcpyHostToDevice);
  transpose_column<kTile><<<dim3(kTile / 32, n / 32), dim3(32, 8)>>>(d, n, r, panels);
  transpose_column<kTile><<<dim3(kTile / 32, n / 32), dim3(32, 8)>>>(d, n, r + 1, second);
}

// Whether d holds what a pass off rows and columns r .. r + 3 leaves: the tiles off them as the
// two rounds in one pass left them (got), those on them as the input had them.
bool pass_matches(const Probe& p) {
  std::vector<int> pairs(p.elems);
  cudaMemcpy(pairs.data(), p.d, p.elems * 4, cudaMemcpyDeviceToHost);
  const int n = p.n, r = p.r;
  bool equal = true;
  for (size_t i = 0; i < p.elems; ++i) {
    const int ti = static_cast<int>(i / n) / kTile, tj = static_cast<int>(i % n) / kTile;
    const bool line = (ti >= r && ti < r + 4) || (tj >= r && tj < r + 4);
    equal = equal && pairs[i] == (line ? p.input[i] : p.got[i]);
  }
  return equal;
}

// One form of lookahead 3's pass: the tiles off rows and columns r .. r + 3 alone, a grid of
// those tiles, from the panels of columns r and r + 1.
template <class Kernel>
void time_pairs_pass(Probe& p, Kernel kernel, const char* name, bool exact, int bytes,
                     int* panels) {
  const int n = p.n, r = p.r, rest = p.tiles - 4;
  int* const d = p.d;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
  auto pass = [&] { kernel<<<dim3(rest, rest), kThreads, bytes>>>(d, n, n, r, panels, nullptr); };
  fill_panels(p, panels);
  pass();
  p.good = ok(cudaDeviceSynchronize()) && p.good;
  const bool equal = pass_matches(p);
  if (exact) p.good = p.good && equal;
  const double ms = p.timer.median_ms(pass, 11);
  const double pass_updates = 2.0 * rest * rest * kTile * kTile * kTile;
  cudaFuncAttributes attr{};
  cudaFuncGetAttributes(&attr, kernel);
  std::printf("%-26s %4d regs %5d spill B  %8.3f ms a pair  %5.1f%% of the ceiling  %s\n", name,
              attr.numRegs, static_cast<int>(attr.localSizeBytes), ms,
              100.0 * pass_updates / (ms / 1e3) / p.ceiling,
              !exact  ? "(timing only: wrong values by design)"
              : equal ? "equals one pass off r .. r+3"
                      : "DIFFERS from one pass off r .. r+3");
}

// Two rounds a pass (k = 256) against one round a pass twice, both from panels; then the pass
// lookahead 3 ships (kernels/sm90_pairs.cuh) and its earlier rings, which leave the tiles on
// rows and columns r .. r + 3 as they were.
bool time_rounds(Probe& p) {
  const int n = p.n, tiles = p.tiles, r = p.r, others = p.others;
  int* const d = p.d;
  int* panels = nullptr;
  if (!ok(cudaMalloc(&panels, 2ull * kTile * n * 4))) return false;
  const int smem = ring_smem<kTile, kPer, Int32Elements, true>();
  cudaFuncSetAttribute(panel_rounds<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  cudaFuncSetAttribute(panel_rounds<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  int* const second = panels + static_cast<size_t>(kTile) * n;
  const int grid = others * others;
  auto one_by_one = [&] {
    panel_rounds<1><<<grid, kThreads, smem>>>(d, n, tiles, r, r, panels);
    panel_rounds<1><<<grid, kThreads, smem>>>(d, n, tiles, r, r + 1, second);
  };
  auto together = [&] { panel_rounds<2><<<grid, kThreads, smem>>>(d, n, tiles, r, r, panels); };
  fill_panels(p, panels);
  one_by_one();
  p.good = ok(cudaDeviceSynchronize()) && p.good;
  std::vector<int> two(p.elems);
  cudaMemcpy(two.data(), d, p.elems * 4, cudaMemcpyDeviceToHost);
  fill_panels(p, panels);
  together();
  p.good = ok(cudaDeviceSynchronize()) && p.good;
  const bool same = read_back_equals(p, two);
  const double ms1 = p.timer.median_ms(one_by_one, 11), ms2 = p.timer.median_ms(together, 11);
  std::printf("%-26s %8.3f ms  %5.1f%% of the ceiling\n", "rounds r, r+1 one by one", ms1,
              100.0 * 2 * p.updates / (ms1 / 1e3) / p.ceiling);
  report(p, "rounds r, r+1 in one pass", reinterpret_cast<const void*>(panel_rounds<2>), ms2 / 2,
         same ? "equals one by one (time: a round's half)" : "DIFFERS from one by one");
  if (tiles - 4 > 0) {
    time_pairs_pass(p, lookahead2_ordinary<kTile, kPer>, "pairs pass (shipped)", true, smem,
                    panels);
    const int two_stages = ring_smem<kTile, kPer, Int32Elements, false>();
    time_pairs_pass(p, pairs_pass_form<0>, "pairs, block barrier", true, two_stages, panels);
    time_pairs_pass(p, pairs_pass_form<1>, "pairs, no barrier", false, two_stages, panels);
  }
  cudaFree(panels);
  return true;
}

// One form of the probe's own copy of the loop: its registers, time and share of the ceiling;
// `exact` forms are compared with the reference first.
template <Form kForm>
void time_form(Probe& p, const char* name, bool exact) {
  const int n = p.n, tiles = p.tiles, r = p.r, others = p.others;
  int* const d = p.d;
  const int smem =
      kForm.ring > 0
          ? kForm.ring * (ring_a_words<kForm.chunk, kForm.a_mode>() + kForm.chunk * kTile) * 4
      : kForm.chunk == 16 ? p.smem16
                          : p.smem8;
  auto kernel = ordinary<kForm.chunk, kForm.persistent, kForm.async_b, kForm.read_c, kForm.stage,
                         kForm.ring, kForm.no_barrier, kForm.no_global, kForm.a_mode>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  const int grid = kForm.persistent ? 2 * p.prop.multiProcessorCount : others * others;
  std::string check = "(timing only: wrong values by design)";
  if (exact) {
    cudaMemcpy(d, p.input.data(), p.elems * 4, cudaMemcpyHostToDevice);
    kernel<<<grid, kThreads, smem>>>(d, n, tiles, r);
    p.good = ok(cudaDeviceSynchronize()) && p.good;
    check = read_back_equals(p, p.want) ? "equals the reference" : "DIFFERS from the reference";
  }
  const double ms =
      p.timer.median_ms([&] { kernel<<<grid, kThreads, smem>>>(d, n, tiles, r); }, 11);
  p.good = ok(cudaGetLastError()) && p.good;
  report(p, name, reinterpret_cast<const void*>(kernel), ms, check);
}

void time_forms(Probe& p) {
  time_form<Form{}>(p, "copy", true);
  time_form<Form{.read_c = false}>(p, "no-c", false);
  time_form<Form{.stage = false}>(p, "no-staging", false);
  time_form<Form{.no_barrier = true}>(p, "no-barrier", false);
  time_form<Form{.no_global = true}>(p, "no-global", false);
  time_form<Form{.ring = 4}>(p, "ring 4 x 8", false);
  time_form<Form{.chunk = 16, .ring = 2}>(p, "ring 2 x 16", false);
  time_form<Form{.chunk = 16, .ring = 3}>(p, "ring 3 x 16", false);
  time_form<Form{.chunk = 16, .ring = 2, .a_mode = 1}>(p, "ring 2 x 16, A m scalar", true);
  time_form<Form{.chunk = 16, .ring = 2, .a_mode = 2}>(p, "ring 2 x 16, A m pairs", true);
  time_form<Form{.chunk = 16, .ring = 3, .a_mode = 1}>(p, "ring 3 x 16, A m scalar", true);
  time_form<Form{.chunk = 16, .ring = 3, .a_mode = 2}>(p, "ring 3 x 16, A m pairs", true);
  time_form<Form{.chunk = 8, .ring = 4, .a_mode = 2}>(p, "ring 4 x 8, A m pairs", true);
  time_form<Form{.chunk = 32, .ring = 2, .a_mode = 2}>(p, "ring 2 x 32, A m pairs", true);
}

}  // namespace

int probe_main(int argc, char** argv) {
  int n = 9984;
  if (const std::optional<int> rc = read_n(argc, argv, n)) return *rc;
  if (!apsp::device_or_say_none("product_probe"))
    return apsp::kExitNoDevice;  // ctest reads it as skipped
  Probe p;
  p.n = n;
  if (!allocate(p)) return apsp::kExitFailed;
  measure_ceiling(p);
  if (!make_reference(p)) return apsp::kExitFailed;
  time_reference(p);
  if (!time_shipped_panel(p) || !time_rounds(p)) return apsp::kExitFailed;
  time_forms(p);
  cudaFree(p.d), cudaFree(p.ref), cudaFree(p.out);
  return p.good ? apsp::kExitOk : apsp::kExitFailed;
}

int main(int argc, char** argv) {
  return apsp::run_program("product_probe", probe_main, argc, argv);
}
