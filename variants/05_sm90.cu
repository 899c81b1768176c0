// 05 sm90: our Hopper-tuned variant. Changes against the course variants: the matrix is laid
// out with rows padded to a multiple of the tile (Variant::pitch: the caller's copies do it) so
// no kernel checks bounds (the padding is left out of the work); tiles of 64 or 128 elements;
// phases 2 and 3 share one GEMM-like min-plus routine with an 8 x 8 (or 4 x 4) register tile per
// thread, 16-byte shared-memory loads and a double-buffered k loop (kernels/sm90.cuh); three
// schedules of a round (lookahead), chained by programmatic dependent launch.
//
// Its instances (dozens of kernels) take minutes to compile in one translation unit, so the
// build compiles this file as the number of translation units on the next line, each with its
// share of the configs (variants/instances.hpp), and spreads them over the cores. Each costs its
// own pass over the headers and host code: 4 gave the fastest fresh build on the 2-core
// development machine.
// apsp-instance-shards: 4
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"
#include "kernels/sm90.cuh"
#include "variants/dispatch.hpp"
#include "variants/instances.hpp"
#include "variants/variant.hpp"

namespace apsp {

namespace {

// The name the variant and its instances are registered under (a copy of this file needs a new
// one, and nothing else).
constexpr char kName[] = "sm90";

using TileValues = IntList<64, 128>;    // <- tile edge: round size and output tile per block
using ChunkValues = IntList<8, 16, 32>;  // <- k elements staged in shared memory per step
using PerThreadValues = IntList<4, 8>;   // <- outputs per thread along each edge (4x4 or 8x8)
using LookaheadValues = IntList<0, 1, 2>;  // <- 0: three launches a round; 1: each round's phase 3
                                           //    beside a side stream that prepares the next
                                           //    round; 2: two launches a round, the next pivot
                                           //    inside phase 3 on an SM of its own
using Space = InstanceSpace<TileValues, ChunkValues, PerThreadValues, LookaheadValues>;

Config make_config(int tile, int chunk, int per_thread, int lookahead) {
  return {{"tile", tile}, {"chunk", chunk}, {"per_thread", per_thread}, {"lookahead", lookahead}};
}

// The rules a combination must pass to be compiled, each a constexpr predicate over the point (as
// integral constants) with its text: the Variant's constraints test them at run time (through
// dispatch), and each shard compiles only the points that pass them all (kBuilt), so the
// constraints and the compiled instances cannot drift apart.
struct ProductFits {
  static constexpr const char* kRule =
      "(tile / per_thread)^2 <= 256 threads, and a whole 16-byte load per thread and chunk";
  template <class T, class C, class P, class L>
  constexpr bool operator()(T, C, P, L) const {
    return kernels::sm90::product_fits<T::value, C::value, P::value>();
  }
};
// The variants library makes a ptxas spill an error (variants/CMakeLists.txt), so the shipped
// kernels never touch local memory for registers. ptxas -warn-spills (nvcc 13.0, sm_90) spills
// in phase3 and lookahead_ordinary at tile 128 with chunk 16 or 32 (36-372 bytes), and at tile
// 64 with per_thread 8 and chunk 32 in phase3_next_pivot (44) and lookahead_line (40): those
// combinations are not compiled. A compiler that spills elsewhere fails the build: the
// combination belongs here then.
struct NoSpills {
  static constexpr const char* kRule =
      "no register spills (ptxas -warn-spills is an error): chunk 8 at tile 128; lookahead 0 at "
      "tile 64 with per_thread 8 and chunk 32";
  template <class T, class C, class P, class L>
  constexpr bool operator()(T, C, P, L) const {
    if (T::value == 128) return C::value == 8;
    if (T::value == 64 && P::value == 8 && C::value == 32) return L::value == 0;
    return true;
  }
};
using Rules = std::tuple<ProductFits, NoSpills>;
constexpr auto kBuilt = [](auto... point) {
  return std::apply([&](auto... rule) { return (rule(point...) && ...); }, Rules{});
};

int round_up(int n, int m) { return (n + m - 1) / m * m; }

// Dynamic shared memory that admits one block per SM: over half of an SM's (each block also
// takes 1 KB of it for the system). The lookahead = 2 schedule gives its pivot block an SM this way.
int one_block_per_sm_smem(int smem_per_sm) { return smem_per_sm / 2; }
int one_block_per_sm_smem() {
  static const int bytes = [] {
    int dev = 0, per_sm = 0;
    APSP_CUDA_CHECK(cudaGetDevice(&dev));
    APSP_CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    return one_block_per_sm_smem(per_sm);
  }();
  return bytes;
}

// Launches with programmatic stream serialization: the kernel's blocks may be launched while
// the previous kernel in the stream still runs, and wait for it on the device
// (kernels::sm90::wait_for_previous). Saves the launch latency of the three-launch rounds.
template <class... Params, class... Args>
void launch_early(void (*kernel)(Params...), dim3 grid, int threads, int smem, cudaStream_t stream,
                  Args... args) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  APSP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...));
}

template <class Kernel>
void allow_smem(Kernel* kernel, int bytes) {
  APSP_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

// The look-ahead schedule's second stream, at the highest priority so that its few blocks are
// dispatched ahead of the waiting ordinary tiles, and the events that fork and join it. One per
// host thread, made on first use and kept (a CUDA graph capture records through it as well).
struct SideStream {
  cudaStream_t stream = nullptr;
  cudaEvent_t fork = nullptr, join = nullptr;
};
const SideStream& side_stream() {
  thread_local const SideStream side = [] {
    SideStream s;
    int least = 0, greatest = 0;
    APSP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    APSP_CUDA_CHECK(cudaStreamCreateWithPriority(&s.stream, cudaStreamNonBlocking, greatest));
    APSP_CUDA_CHECK(cudaEventCreateWithFlags(&s.fork, cudaEventDisableTiming));
    APSP_CUDA_CHECK(cudaEventCreateWithFlags(&s.join, cudaEventDisableTiming));
    return s;
  }();
  return side;
}

// One instance: Variant::run for one point (InstanceFn). d comes in the padded layout that
// Variant::pitch declares (rows round_up(n, kTile) apart, padding set): no bounds checks, and no
// second matrix.
template <int kTile, int kChunk, int kPer, int kLookahead>
void solve(int* d, int n, const Config&, cudaStream_t stream, PhaseTimer* phases) {
  namespace k = kernels::sm90;
  const int pitch = round_up(n, kTile);
  const int tiles = pitch / kTile;
  int* const m = d;
  constexpr int kP1 = k::pivot_smem<kTile>(), kProd = k::product_smem<kTile, kChunk>();
  constexpr int kP2 = k::product_smem<kTile, k::phase2_chunk<kTile>()>();
  constexpr int kThreads = k::product_threads<kTile, kPer>();
  constexpr int kThreads2 = k::product_threads<kTile, k::kPerThread2>();
  allow_smem(k::phase1<kTile>, kP1);
  allow_smem(k::phase2<kTile>, kP2);
  allow_smem(k::phase3<kTile, kChunk, kPer>, kProd);

  auto phase_2 = [&](int kt) {
    mark_phase(phases, 2);
    launch_early(k::phase2<kTile>, dim3(tiles, 2), kThreads2, kP2, stream, m, pitch, n, kt);
  };
  auto phases_1_2 = [&](int kt) {
    mark_phase(phases, 1);
    launch_early(k::phase1<kTile>, dim3(1), k::kPhase1Edge * k::kPhase1Edge, kP1, stream, m, pitch, kt);
    phase_2(kt);
  };
  auto phase_3 = [&](int kt) {
    mark_phase(phases, 3);
    launch_early(k::phase3<kTile, kChunk, kPer>, dim3(tiles, tiles), kThreads, kProd, stream, m, pitch, n, kt);
  };
  if constexpr (kLookahead == 1) {
    // Round 0's phases 1 and 2 as plain launches; then each round's phase 3 forks: the side
    // stream prepares round r + 1 (pivot, row and column r + 1, edges) while the main stream
    // updates the ordinary tiles (kernels/sm90.cuh). The last round has nothing to prepare.
    // --phases shows all of it as phase 3.
    constexpr int kPivot = std::max(kProd, k::pivot_smem<kTile>());
    allow_smem(k::lookahead_pivot<kTile, kChunk, kPer>, kPivot);
    allow_smem(k::lookahead_line<kTile, kChunk, kPer>, kProd);
    allow_smem(k::lookahead_edges<kTile, kChunk, kPer>, kProd);
    allow_smem(k::lookahead_ordinary<kTile, kChunk, kPer>, kProd);
    const SideStream& side = side_stream();
    phases_1_2(0);
    for (int r = 0; r + 1 < tiles; ++r) {
      mark_phase(phases, 3);
      APSP_CUDA_CHECK(cudaEventRecord(side.fork, stream));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(side.stream, side.fork));
      k::lookahead_pivot<kTile, kChunk, kPer><<<1, kThreads, kPivot, side.stream>>>(m, pitch, n, r);
      APSP_CUDA_CHECK_LAUNCH();
      const int others = tiles - 2;
      if (others > 0) {
        k::lookahead_line<kTile, kChunk, kPer><<<2 * others, kThreads, kProd, side.stream>>>(m, pitch, n, tiles, r);
        APSP_CUDA_CHECK_LAUNCH();
      }
      k::lookahead_edges<kTile, kChunk, kPer><<<2, kThreads, kProd, side.stream>>>(m, pitch, n, r);
      APSP_CUDA_CHECK_LAUNCH();
      if (others > 0) {
        k::lookahead_ordinary<kTile, kChunk, kPer><<<others * others, kThreads, kProd, stream>>>(m, pitch, n, tiles, r);
        APSP_CUDA_CHECK_LAUNCH();
      }
      APSP_CUDA_CHECK(cudaEventRecord(side.join, side.stream));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(stream, side.join));
    }
    if (tiles > 1) phase_3(tiles - 1);
  } else if constexpr (kLookahead == 2) {
    // Round r's phase 3 with round r + 1's pivot in its block 0, alone on its SM (the launch's
    // shared memory admits one block per SM; kernels/sm90.cuh), then round r + 1's phase 2.
    // --phases shows the pivot as phase 3.
    const int smem = std::max({kProd, k::pivot_smem<kTile>(), one_block_per_sm_smem()});
    allow_smem(k::phase3_next_pivot<kTile, kChunk, kPer>, smem);
    phases_1_2(0);
    for (int r = 0; r + 1 < tiles; ++r) {
      mark_phase(phases, 3);
      launch_early(k::phase3_next_pivot<kTile, kChunk, kPer>, dim3((tiles - 1) * (tiles - 1)), kThreads, smem,
                   stream, m, pitch, n, tiles, r);
      phase_2(r + 1);
    }
    phase_3(tiles - 1);
  } else {
    for (int kt = 0; kt < tiles; ++kt) {
      phases_1_2(kt);
      phase_3(kt);
    }
  }
  mark_phase(phases, 0);
}

// This shard's instances, registered before main() (variants/instances.hpp).
void add_instances() {
  Space::for_each_in_shard<APSP_SHARD, APSP_SHARDS>(kBuilt, [](auto t, auto ch, auto p, auto la) {
    constexpr int kT = decltype(t)::value, kC = decltype(ch)::value, kP = decltype(p)::value;
    constexpr int kL = decltype(la)::value;
    register_instance(kName, make_config(kT, kC, kP, kL), &solve<kT, kC, kP, kL>, __FILE__);
  });
}

}  // namespace

APSP_REGISTER_INSTANCES(add_instances)

// The Variant itself, its checks and its constraints: once, in shard 0.
#if APSP_SHARD == 0

namespace {

// Declared defaults: the best measured at n = 10000 on the H200 (70.3 ms; docs/perf-notes.md,
// step 6). Smaller n want tile 64 (step 8): the policy tables (policies/) and, on a device
// without one, sm90_heuristic below give each n its config.
constexpr int kDefaultTile = 128;
constexpr int kDefaultChunk = 8;  // tile 128 with chunk 16 or 32 spills at 128 registers
constexpr int kDefaultPerThread = 8;
constexpr int kDefaultLookahead = 1;

// Calls f(tile, chunk, per-thread, lookahead) as integral constants for c's values (declared
// ones: dispatch throws otherwise). Instantiates no kernel: f only evaluates constexpr helpers.
template <class F>
void with_config(const Config& c, F&& f) {
  dispatch(TileValues{}, c.at("tile"), "tile", [&](auto t) {
    dispatch(ChunkValues{}, c.at("chunk"), "chunk", [&](auto ch) {
      dispatch(PerThreadValues{}, c.at("per_thread"), "per_thread", [&](auto p) {
        dispatch(LookaheadValues{}, c.at("lookahead"), "lookahead",
                 [&](auto la) { f(t, ch, p, la); });
      });
    });
  });
}

template <class Rule>
bool passes(const Config& c) {
  bool ok = false;
  with_config(c, [&](auto... point) { ok = Rule{}(point...); });
  return ok;
}

std::vector<Constraint> constraints() {
  return std::apply(
      [](auto... rule) {
        return std::vector<Constraint>{
            Constraint{decltype(rule)::kRule, passes<decltype(rule)>}...};
      },
      Rules{});
}

template <int kTile, int kChunk, int kPer>
int smem_bytes() {
  namespace k = kernels::sm90;
  return std::max({k::product_smem<kTile, kChunk>(),
                   k::product_smem<kTile, k::phase2_chunk<kTile>()>(), k::pivot_smem<kTile>()});
}

// For a device with no policy table (harness/policy): the configs the H200 and H100 tables
// (policies/) hold: while a round has few tiles, tile 64 with the next pivot inside phase 3
// (tuned at n = 1000), then tile 64 with the side stream (2500); from the geometric mean of
// 2500 and 5000, where tile 128 was already the faster on both, the declared default.
Config sm90_heuristic(int n, const DeviceInfo&) {
  if (n <= 1500) return make_config(64, 32, 4, 2);
  if (n <= 3500) return make_config(64, 16, 4, 1);
  return make_config(kDefaultTile, kDefaultChunk, kDefaultPerThread, kDefaultLookahead);
}

Variant make_sm90() {
  Variant v;
  v.name = kName;
  v.summary = "padded 64/128 tiles, GEMM-like 4x4/8x8 per thread, double-buffered k chunks, "
              "look-ahead rounds";
  v.space = {Param{"tile", to_vector(TileValues{}), "tile edge (round size, output tile per block)", "tile"},
             Param{"chunk", to_vector(ChunkValues{}), "k elements per shared-memory stage", "tile"},
             Param{"per_thread", to_vector(PerThreadValues{}), "outputs per thread along an edge", "tile"},
             Param{"lookahead", to_vector(LookaheadValues{}),
                   "0: three launches a round; 1: phase 3 beside a side stream preparing the next "
                   "round; 2: two launches a round, the next pivot inside phase 3 on an SM of its own",
                   "tile"}};
  v.defaults = make_config(kDefaultTile, kDefaultChunk, kDefaultPerThread, kDefaultLookahead);
  v.constraints = constraints();
  v.heuristic = sm90_heuristic;
  v.check = [](const Config& c, int n, const DeviceInfo& dev) {
    for (const Constraint& rule : constraints()) {
      if (!rule.holds(c)) return "makes no kernel: needs " + rule.rule;
    }
    std::string launch;
    with_config(c, [&](auto t, auto ch, auto p, auto la) {
      constexpr int kT = decltype(t)::value, kC = decltype(ch)::value, kP = decltype(p)::value;
      namespace k = kernels::sm90;
      const int threads =
          std::max(k::product_threads<kT, k::kPerThread2>(), k::product_threads<kT, kP>());
      const int smem =
          std::max(smem_bytes<kT, kC, kP>(),
                   decltype(la)::value == 2 ? one_block_per_sm_smem(dev.smem_per_sm) : 0);
      launch = check_launch(n, threads, smem, dev);
    });
    return launch;
  };
  v.pitch = [](const Config& c, int n) { return round_up(n, c.at("tile")); };
  v.multi_gpu = true;
  v.run = [](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    run_instance(kName, d, n, c, stream, phases);
  };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_sm90)

#endif  // APSP_SHARD == 0

}  // namespace apsp
