// 07 blocked_i64: the exact 64-bit path. Distances are int64 (unreachable kInf64 = 2^62 - 1), so
// a graph whose distances reach int32's kInf = 2^30 - 1 is solved exactly: the path for graphs
// where the int32 solve cannot prove that nothing was clipped. Changes against the int32 variants:
//   - run_wide (Variant::run_wide) solves an n x n int64 matrix in place (rows n apart: no
//     Variant::pitch); the kernels check bounds when they load and store a tile, so the matrix
//     needs no padding (kernels/blocked_i64.cuh).
//   - run takes the int32 matrix as every variant does, widens it into an int64 buffer it
//     allocates on the stream (cudaMallocAsync: Variant::scratch_bytes, 8 n^2 bytes), solves
//     that with run_wide's kernels and narrows it back (x >= kInf -> kInf): the int32 solve
//     computes min(true distance, kInf) on every input, so the result equals it bit for bit and
//     the bench and the tuner time and check it like any variant. The conversions are part of
//     the timed solve: 24 bytes moved an element, against the solve's n updates of it.
//   - 64 x 64 tiles, 4 x 4 int64 outputs a thread, three launches a round chained by
//     programmatic dependent launch; phases 2 and 3 copy their operands to shared memory with
//     cp.async, double-buffered in chunks of `chunk` k (16 or 32), three blocks an SM. A round
//     moves each element of C in and out (16 bytes) for 64 updates: a quarter of a byte an
//     update, about 2 TB/s at 8 T updates/s (what the FP64 form's four instructions an update
//     allow on 132 SMs at 1.98 GHz, if DADD and DSETP issue at 64 an SM a clock), under half of
//     the H200's: the update, not memory, bounds it.
//   - the update min(c, a + b) has no single instruction in 64 bits; `fp64` picks its form
//     (kernels/blocked_i64.cuh): 0 on the integer pipes (six instructions), 1 on the FP64 pipe
//     with the int64 bits read as doubles (four), exact for every distance below 2^53, which
//     every graph of int32 weights on at most 2^20 vertices satisfies (Variant::admits says so).
//   - results record precision "int64"; a run's share is of the int64 ceiling, which the probe
//     measures with this very k step in both forms, the faster being 100% (kernels/ceiling.cuh).
//   - run_float64 (Variant::run_float64) solves doubles with the FP64 form's instructions on the
//     values themselves (kernels/blocked_i64.cuh, Float64): the float64 path of the Python
//     module's floyd_warshall, for weights that are not integers or not all >= 0; `fp64` does
//     not apply there.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"
#include "core/precision.hpp"
#include "kernels/blocked_i64.cuh"
#include "variants/dispatch.hpp"
#include "variants/launch_early.hpp"
#include "variants/variant.hpp"

namespace apsp {

namespace {

static_assert(kernels::blocked_i64::kInf64 == kInf64 && kernels::kInf == kInf,
              "device and host agree on the unreachable values");

namespace k = kernels::blocked_i64;

using ChunkValues = IntList<16, 32>;  // <- k elements a shared-memory stage
using Fp64Values = IntList<0, 1>;     // <- the update on the integer pipes (0) or the FP64 one (1)

// Every distance below 2^53: what the FP64 form needs to be exact (the integer form is exact up
// to kInf64).
constexpr int64_t kExactBelow = int64_t{1} << 53;

std::string admission(int n, int64_t max_weight) {
  if (n <= 1 || max_weight <= 0 || n - 1 <= (kExactBelow - 1) / max_weight) return "";
  return "64-bit distances here are exact only while (V - 1) * the largest weight < 2^53; here " +
         std::to_string(n - 1) + " * " + std::to_string(max_weight) + " is more";
}

// The instance of c: f(chunk, update format) as a constant and a type.
template <class Fn>
void with_config(const Config& c, Fn&& f) {
  dispatch(ChunkValues{}, c.at("chunk"), "chunk", [&](auto chunk) {
    dispatch(Fp64Values{}, c.at("fp64"), "fp64", [&](auto fp64) {
      using U = std::conditional_t<decltype(fp64)::value == 1, k::Fp64Pipe, k::IntegerPipes>;
      f(chunk, std::type_identity<U>{});
    });
  });
}

// The three launches of each round on an n x n int64 matrix, in place.
template <class U, int kChunk>
void solve_wide(int64_t* d, int n, cudaStream_t stream, PhaseTimer* phases) {
  constexpr int kSmem = k::product_smem<kChunk>();
  allow_smem(k::phase2<U, kChunk>, kSmem);
  allow_smem(k::phase3<U, kChunk>, kSmem);
  const int tiles = (n + k::kTile - 1) / k::kTile;
  for (int kt = 0; kt < tiles; ++kt) {
    mark_phase(phases, 1);
    launch_early(k::phase1<U>, dim3(1), k::kThreads, 0, stream, d, n, kt);
    if (tiles == 1) break;
    mark_phase(phases, 2);
    launch_early(k::phase2<U, kChunk>, dim3(tiles, 2), k::kThreads, kSmem, stream, d, n, kt);
    mark_phase(phases, 3);
    launch_early(k::phase3<U, kChunk>, dim3(tiles, tiles), k::kThreads, kSmem, stream, d, n, kt);
  }
  mark_phase(phases, 0);
}

// The int64 copy of the caller's matrix for one solve, allocated and freed on the stream.
struct Widened {
  int64_t* d = nullptr;
  cudaStream_t stream = nullptr;
  Widened(int n, cudaStream_t s) : stream(s) {
    APSP_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&d), bytes(n), stream));
  }
  ~Widened() { cudaFreeAsync(d, stream); }  // on the stream: after the narrowing that reads it
  Widened(const Widened&) = delete;
  Widened& operator=(const Widened&) = delete;
  static size_t bytes(int n) { return static_cast<size_t>(n) * static_cast<size_t>(n) * 8; }
};

// Blocks of the grid-stride conversions: enough to fill any GPU's memory pipes.
unsigned conversion_blocks(size_t count) {
  const size_t blocks = (count + k::kConvertThreads - 1) / k::kConvertThreads;
  return static_cast<unsigned>(std::clamp<size_t>(blocks, 1, 8192));
}

// Variant::run: the int32 matrix widened, solved in 64 bits and narrowed back.
template <class U, int kChunk>
void solve_narrow(int* d, int n, cudaStream_t stream, PhaseTimer* phases) {
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  const Widened wide(n, stream);
  mark_phase(phases, 0);
  k::widen<<<conversion_blocks(count), k::kConvertThreads, 0, stream>>>(d, wide.d, count);
  APSP_CUDA_CHECK_LAUNCH();
  solve_wide<U, kChunk>(wide.d, n, stream, phases);
  k::narrow<<<conversion_blocks(count), k::kConvertThreads, 0, stream>>>(wide.d, d, count);
  APSP_CUDA_CHECK_LAUNCH();
}

// Declared default: chunk 16 (a third of an SM's shared memory for three blocks, against two
// thirds at 32) and the FP64 form (four instructions an update against six, two of them on a
// pipe the integer form leaves idle): chosen by counting instructions, not by timing them; the
// tuner's picks and a policy table replace it where they measured better.
Variant make_blocked_i64() {
  Variant v;
  v.name = "blocked_i64";
  v.summary =
      "int64 distances, exact for any int32 weights: 64x64 tiles, 4x4 per thread, cp.async "
      "double-buffered k chunks";
  v.space = {Param{"chunk", to_vector(ChunkValues{}), "k elements per shared-memory stage", "tile"},
             Param{"fp64", to_vector(Fp64Values{}),
                   "1: the 64-bit update on the FP64 pipe (the bits as doubles), 0: on the integer "
                   "pipes",
                   "tile"}};
  v.defaults = {{"chunk", 16}, {"fp64", 1}};
  v.check = [](const Config& c, int n, const DeviceInfo& dev) {
    int smem = 0;
    with_config(c, [&](auto chunk, auto) { smem = k::product_smem<decltype(chunk)::value>(); });
    return check_launch(n, k::kThreads, smem, dev);
  };
  v.run = [](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    with_config(c, [&](auto chunk, auto u) {
      solve_narrow<typename decltype(u)::type, decltype(chunk)::value>(d, n, stream, phases);
    });
  };
  v.run_wide = [](int64_t* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    with_config(c, [&](auto chunk, auto u) {
      solve_wide<typename decltype(u)::type, decltype(chunk)::value>(d, n, stream, phases);
    });
  };
  v.run_float64 = [](double* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    with_config(c, [&](auto chunk, auto) {
      solve_wide<k::Float64, decltype(chunk)::value>(reinterpret_cast<int64_t*>(d), n, stream,
                                                     phases);
    });
  };
  v.admits = admission;
  v.precision = kPrecisionInt64;
  v.scratch_bytes = [](const Config&, int n) { return static_cast<uint64_t>(Widened::bytes(n)); };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_blocked_i64)

}  // namespace apsp
