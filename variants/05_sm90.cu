// 05 sm90: our Hopper-tuned variant. Changes against the course variants: the matrix is laid
// out with rows padded to a multiple of the tile (Variant::pitch: the caller's copies do it) so
// no kernel checks bounds (the padding is left out of the work); tiles of 64 or 128 elements;
// phases 2 and 3 share one GEMM-like min-plus routine with an 8 x 8 (or 4 x 4) register tile per
// thread, 16-byte shared-memory loads and a double-buffered k loop (kernels/sm90.cuh); six
// schedules of a round (lookahead), chained by programmatic dependent launch (the schedules in
// variants/sm90_schedules.cpp, checks and space shape in sm90_family.hpp, shared with 06_sm90_u16).
//
// Its instances (dozens of kernels) take minutes to compile in one translation unit, so the
// build compiles this file as the number of translation units on the next line, each with its
// share of the configs (variants/instances.hpp), and spreads them over the cores. Each costs its
// own pass over the headers and host code: 4 gave the fastest fresh build on the 2-core
// development machine.
// apsp-instance-shards: 4
#include <cuda_runtime_api.h>

#include <climits>
#include <string>
#include <tuple>

#include "kernels/sm90.cuh"
#include "variants/dispatch.hpp"
#include "variants/instances.hpp"
#include "variants/sm90_family.hpp"
#include "variants/sm90_multigpu.hpp"
#include "variants/variant.hpp"

namespace apsp {

namespace {

// The name the variant and its instances are registered under (a copy of this file needs a new
// one, and nothing else).
constexpr char kName[] = "sm90";

using kernels::Int32Elements;
using sm90_family::make_config;

using TileValues = IntList<64, 128>;     // <- tile edge: round size and output tile per block
using ChunkValues = IntList<8, 16, 32>;  // <- k elements staged in shared memory per step
using PerThreadValues = IntList<4, 8>;   // <- outputs per thread along each edge (4x4 or 8x8)
using LookaheadValues = IntList<0, 1, 2, 3, 4, 5>;  // <- 0: three launches a round; 1: each
                                                    //    round's phase 3 beside a side stream that
                                                    //    prepares the next round; 2: two launches a
                                                    //    round, the next pivot inside phase 3 on an
                                                    //    SM of its own; 3: as 1 over pairs of
                                                    //    rounds, both in one pass of phase 3 (chunk
                                                    //    16 only: the ring); 5: as 3 at tile 64, a
                                                    //    step of the side chain deferred to a third
                                                    //    stream; 4: as 5 at 4 x 4, the pass held to
                                                    //    three blocks an SM

// The rules a combination must pass to be compiled, each a constexpr predicate over the point (as
// integral constants) with its text: the Variant's constraints test them at run time (through
// dispatch), and each shard compiles only the points that pass them all (kBuilt), so the
// constraints and the compiled instances cannot drift apart. ProductFits is the family's
// (variants/sm90_family.hpp).
// The variants library makes a ptxas spill an error (variants/CMakeLists.txt), so the shipped
// kernels never touch local memory for registers. ptxas -warn-spills (nvcc 13.0, sm_90) spills
// in phase3 and lookahead_ordinary at tile 128 with chunk 16 or 32 (36-372 bytes), and at tile
// 64 with per_thread 8 and chunk 32 in phase3_next_pivot (44) and lookahead_line (40): those
// combinations are not compiled. A compiler that spills elsewhere fails the build: the
// combination belongs here then. The exception: tile 128, chunk 16 with look-ahead 1, whose
// ordinary tiles read A from a panel in a cp.async ring that fits (kernels/sm90.cuh,
// ordinary_from_panel) and whose other products run at chunk 8, with look-ahead 1 or 3.
struct NoSpills {
  static constexpr const char* kRule =
      "no register spills (ptxas -warn-spills is an error): chunk 8 at tile 128, or chunk 16 with "
      "lookahead 1 or 3 (the panel); lookahead 0 at tile 64 with per_thread 8 and chunk 32";
  template <class T, class C, class P, class L>
  constexpr bool operator()(T, C, P, L) const {
    if (T::value == 128)
      return C::value == 8 || (C::value == 16 && (L::value == 1 || L::value == 3));
    if (T::value == 64 && P::value == 8 && C::value == 32) return L::value == 0;
    return true;
  }
};
using Rules = std::tuple<sm90_family::ProductFits<Int32Elements>, NoSpills,
                         sm90_family::PairsOnThePanel<Int32Elements>,
                         sm90_family::ShortChainSchedules<Int32Elements>>;
using Family = sm90_family::Family<Int32Elements, TileValues, ChunkValues, PerThreadValues,
                                   LookaheadValues, Rules>;

// This shard's instances, registered before main() (variants/instances.hpp): each the schedule
// on the caller's buffer in the padded layout that Variant::pitch declares (rows
// round_up(n, kTile) apart, padding set): no bounds checks, and no second matrix.
void add_instances() {
  Family::register_shard<APSP_SHARD, APSP_SHARDS, Family::Plain>(kName, __FILE__);
}

}  // namespace

APSP_REGISTER_INSTANCES(add_instances)

// The Variant itself, its checks and its constraints: once, in shard 0.
#if APSP_SHARD == 0

namespace {

// Declared default (tile, chunk, per_thread, lookahead): the panel at look-ahead 1, the fastest
// the tuner measured at n = 5000 on both the H200 and the H100 until tile 64's pairs of rounds
// (docs/perf-notes.md), and ahead of every config but the pairs of rounds above
// that. The policy tables (policies/) and, on a device without one, the heuristic give each n its
// config. The heuristic's tiers are the tables' (tuned at n = 1000, 1600, 2000, 2500,
// 3000, 4000, 5000 and 10000; the edges are the geometric means between them): while a round has
// few tiles, tile 64 with the next pivot inside phase 3 (chunk 32 at 1000, 16 at 1600); then tile
// 64 over pairs of rounds with its short side chain: E deferred and the pass held to three
// blocks an SM (lookahead 4, the pick at 2000), E deferred at 4 x 4 (lookahead 5, 2500 and 3000),
// E in the chain at 4 x 4 (lookahead 3, 4000) and deferred at 8 x 8 (lookahead 5, 5000); from
// the geometric mean of 5000 and 10000, tile 128's pairs of rounds (lookahead 3), which won at
// 10000 and 30000 on the H200. At 3000, 4000 and 5000 the two tables differ, each
// between configs within 0.6% of each other on both GPUs; there the heuristic takes one of the
// two picks, which is 0.1-0.4% behind the other table's (docs/perf-notes.md).
Variant make_sm90() {
  Variant v = Family::variant(
      kName,
      "padded 64/128 tiles, GEMM-like 4x4/8x8 per thread, double-buffered k chunks, "
      "look-ahead rounds",
      make_config(128, 16, 8, 1),
      {{1264, make_config(64, 32, 4, 2)},
       {1788, make_config(64, 16, 4, 2)},
       {2236, make_config(64, 16, 4, 4)},
       {3464, make_config(64, 16, 4, 5)},
       {4472, make_config(64, 16, 4, 3)},
       {7071, make_config(64, 16, 8, 5)},
       {INT_MAX, make_config(128, 16, 8, 3)}});
  v.pitch = [](const Config& c, int n) { return sm90_family::round_up(n, c.at("tile")); };
  v.scratch_bytes = Family::panel_bytes;
  v.multi_gpu = sm90_multi_gpu();  // variants/05_sm90_multigpu.cu
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_sm90)

#endif  // APSP_SHARD == 0

}  // namespace apsp
