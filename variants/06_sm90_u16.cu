// 06 sm90_u16: sm90 on distances stored as packed unsigned 16-bit pairs, for graphs whose
// distances fit. Changes against sm90 (05_sm90.cu):
//   - a 32-bit word holds d[i][j] and d[i][j+1], and one VIADDMNMX.U16x2 makes both updates,
//     min(c, a + b) per half: two min-plus updates per instruction where sm90 makes one. The
//     product, closure and schedules are sm90's, instantiated for U16x2Elements
//     (kernels/elements.cuh, kernels/sm90.cuh); a thread's 8 x 8 outputs are 8 rows of one
//     16-byte vector (8 consecutive elements), and A's elements are duplicated into both halves
//     of a word once, as they are staged in shared memory. Phase 2 uses 8 x 8 per thread too.
//   - the 16-bit "unreachable" is 0x7FFF (a sum of two stored values never wraps). It solves
//     exactly the inputs with (V - 1) * max_w < 0x7FFF, max_w the largest finite entry
//     (Variant::admits, core/precision.hpp): the harness never runs it on any other input.
//   - run() takes the caller's int32 matrix as it is (n x n: no Variant::pitch), packs it into a
//     buffer of pairs in sm90's padded layout that it allocates on the stream (cudaMallocAsync:
//     the bench counts it as scratch; Variant::scratch_bytes), padding with 0x7FFF, solves,
//     unpacks (0x7FFF -> 1073741823) and frees it. The conversion is part of the timed solve.
//   - the pack records the largest finite entry: an input the rule refuses comes back as -1 in
//     every entry with one printed line (kernels/sm90_u16.cuh), never as wrong distances.
// Its space is small on purpose (tile 64 or 128, chunk 16 or 32 at tile 64, 8 x 8 per thread,
// sm90's schedules, pairs of rounds on the panel only): a handful of instances, in the shards on
// the next line.
// apsp-instance-shards: 2
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <tuple>

#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"
#include "core/precision.hpp"
#include "kernels/sm90_u16.cuh"
#include "variants/dispatch.hpp"
#include "variants/instances.hpp"
#include "variants/sm90_family.hpp"
#include "variants/variant.hpp"

namespace apsp {

namespace {

static_assert(kernels::kInf16 == kInf16 && kernels::kInf == kInf,
              "device and host agree on the unreachable values");

constexpr char kName[] = "sm90_u16";

using kernels::U16x2Elements;
using sm90_family::make_config;
using sm90_family::round_up;

using TileValues = IntList<64, 128>;  // <- tile edge, as sm90
using ChunkValues = IntList<16, 32>;  // <- k elements per shared-memory stage (whole 16-byte
                                      //    vectors of pairs: a multiple of 8)
using PerThreadValues = IntList<8>;   // <- 8 x 8 elements a thread: 8 rows of 4 words (4 x 4
                                      //    would be 2 words a row: no 16-byte loads)
using LookaheadValues = IntList<0, 1, 2, 3>;  // <- the schedules of sm90, pairs of rounds (3) too

// The space is kept small so that the build stays fast: chunk 32 only at tile 64 with lookahead
// 0. Every compiled kernel is free of spills (their registers: docs/perf-notes.md, "The 16-bit
// path"); the points left out compiled without spills too (tile 128 with chunk 32: 100-123
// registers), and none of them was measured: a tuner run that wants them adds them here.
struct Compiled {
  static constexpr const char* kRule =
      "a small space: chunk 16 at tile 128; chunk 32 at tile 64 only with lookahead 0";
  template <class T, class C, class P, class L>
  constexpr bool operator()(T, C, P, L) const {
    if (C::value == 32) return T::value == 64 && L::value == 0;
    return true;
  }
};
using Rules = std::tuple<sm90_family::ProductFits<U16x2Elements>, Compiled,
                         sm90_family::PairsOnThePanel<U16x2Elements>>;
using Family = sm90_family::Family<U16x2Elements, TileValues, ChunkValues, PerThreadValues,
                                   LookaheadValues, Rules>;

// The buffer of pairs for one solve, and what the pack saw: allocated and freed on the stream.
struct Packed {
  unsigned* words = nullptr;
  kernels::sm90_u16::Seen* seen = nullptr;
  cudaStream_t stream = nullptr;
  Packed(int pitch, cudaStream_t s) : stream(s) {
    void* p = nullptr;
    APSP_CUDA_CHECK(cudaMallocAsync(&p, bytes(pitch), stream));
    words = static_cast<unsigned*>(p);
    seen = reinterpret_cast<kernels::sm90_u16::Seen*>(static_cast<char*>(p) + pair_bytes(pitch));
    APSP_CUDA_CHECK(cudaMemsetAsync(seen, 0, sizeof *seen, stream));
  }
  ~Packed() { cudaFreeAsync(words, stream); }  // on the stream: after the unpack that reads it
  Packed(const Packed&) = delete;
  Packed& operator=(const Packed&) = delete;
  static size_t pair_bytes(int pitch) {
    return static_cast<size_t>(pitch) * static_cast<size_t>(pitch) * 2;
  }
  static size_t bytes(int pitch) { return pair_bytes(pitch) + 256; }
};

// A grid for the grid-stride pack and unpack: words on x (up to 64 blocks a row), rows on y, about
// 2048 blocks in all (enough to fill any GPU's memory pipes; the pack's atomics stay few).
dim3 conversion_grid(int rows, int words) {
  constexpr int kThreads = kernels::sm90_u16::kConvertThreads;
  const int across = std::min((words + kThreads - 1) / kThreads, 64);
  return dim3(static_cast<unsigned>(across),
              static_cast<unsigned>(std::min(rows, std::max(1, 2048 / across))));
}

// One instance: Variant::run for one point (InstanceFn). d is the caller's n x n int32 matrix:
// packed into the 16-bit buffer, solved there by the family's schedule, unpacked back.
template <int kTile, int kChunk, int kPer, int kLookahead>
struct Solve {
  static void run(int* d, int n, const Config&, cudaStream_t stream, PhaseTimer* phases) {
    namespace k = kernels::sm90_u16;
    const int pitch = round_up(n, kTile);
    const Packed packed(pitch, stream);
    k::pack<<<conversion_grid(pitch, pitch / 2), k::kConvertThreads, 0, stream>>>(
        d, n, packed.words, pitch, packed.seen);
    APSP_CUDA_CHECK_LAUNCH();
    sm90_family::solve<U16x2Elements, kTile, kChunk, kPer, kLookahead>(
        reinterpret_cast<int*>(packed.words), n, stream, phases);
    k::unpack<<<conversion_grid(n, (n + 1) / 2), k::kConvertThreads, 0, stream>>>(
        packed.words, pitch, d, n, packed.seen);
    APSP_CUDA_CHECK_LAUNCH();
  }
};

// This shard's instances, registered before main() (variants/instances.hpp).
void add_instances() { Family::register_shard<APSP_SHARD, APSP_SHARDS, Solve>(kName, __FILE__); }

}  // namespace

APSP_REGISTER_INSTANCES(add_instances)

#if APSP_SHARD == 0

namespace {

// Declared default (tile, chunk, per_thread, lookahead): the panel, tile 128 with the side stream
// reading A from a transposed copy of the pivot column (kernels/sm90.cuh), and pairs of rounds
// (lookahead 3, kernels/sm90_pairs.cuh) from n = 7072, as sm90's heuristic; below n = 1500 the
// next pivot inside phase 3 and up to 3500 tile 64 with the side stream, sm90's small-n rules.
// Measured in one run on the H200 (unweighted random graphs, `apsp_bench --wmax 1
// --config ...`, docs/perf-notes.md), tile 64 with the side stream (the default before)
// / the panel / pairs of rounds: n = 5000 5.381 / 5.244 / 6.712 ms, n = 10000 38.708 / 37.362 /
// 36.500, n = 30000 994.846 / 959.695 / 940.631. The policy tables (policies/*-u16.json) hold the
// tuner's picks per n on the H200 and the H100; this is for a device without one.
Variant make_sm90_u16() {
  Variant v = Family::variant(
      kName,
      "sm90 on packed 16-bit distances (2 updates per VIADDMNMX.U16x2), for graphs with "
      "(V - 1) * max weight < 32767",
      make_config(128, 16, 8, 1),
      {{1500, make_config(64, 16, 8, 2)},
       {3500, make_config(64, 16, 8, 1)},
       {7071, make_config(128, 16, 8, 1)},
       {INT_MAX, make_config(128, 16, 8, 3)}});
  v.admits = [](int n, int64_t max_weight) { return u16_admission(n, max_weight); };
  v.precision = kPrecisionU16x2;
  v.scratch_bytes = [](const Config& c, int n) {
    return static_cast<uint64_t>(Packed::bytes(round_up(n, c.at("tile")))) +
           Family::panel_bytes(c, n);
  };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_sm90_u16)

#endif  // APSP_SHARD == 0

}  // namespace apsp
