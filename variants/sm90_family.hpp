// What sm90 (05_sm90.cu) and its 16-bit sibling sm90_u16 (06_sm90_u16.cu) share where their
// kernels are instantiated: the shape of their parameter space (tile, chunk, per_thread,
// lookahead) with its dispatch, constraints and launch checks, and each point's kernels over
// words of an element format (kernels/elements.cuh) for its launch schedule. The kernels are
// kernels/sm90.cuh's and kernels/sm90_pairs.cuh's, instantiated for that format; the schedules
// that launch them are host code compiled once (sm90_schedules.hpp), and so is what of the
// Variant knows no point (sm90_family_variant.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "core/phase_timer.hpp"
#include "kernels/sm90.cuh"
#include "kernels/sm90_pairs.cuh"
#include "variants/dispatch.hpp"
#include "variants/instances.hpp"
#include "variants/sm90_family_variant.hpp"
#include "variants/sm90_schedules.hpp"
#include "variants/variant.hpp"

namespace apsp::sm90_family {

namespace k = kernels::sm90;

// The rule every combination must pass to have a kernel, for format F, as a constexpr predicate
// over the point (integral constants) with its text (the variant files add their own, NoSpills).
template <class F>
struct ProductFits {
  static constexpr const char* kRule =
      F::kPerWord == 1
          ? "(tile / per_thread)^2 <= 256 threads, and a whole 16-byte load per thread and chunk"
          : "(tile / per_thread)^2 <= 256 threads, a whole 16-byte load per thread and chunk, and "
            "a "
            "thread's row of 16-bit pairs in whole 16-byte vectors";
  template <class T, class C, class P, class L>
  constexpr bool operator()(T, C, P, L) const {
    return k::product_fits<T::value, C::value, P::value, F>();
  }
};

// Pairs of rounds (lookahead 3, kernels/sm90_pairs.cuh) read A from a panel of two columns of
// tiles: the configs that run the ring (kernels/sm90.cuh, ordinary_from_panel) in format F.
template <class F>
struct PairsOnThePanel {
  static constexpr const char* kRule =
      F::kPerWord == 1
          ? "lookahead 3 (pairs of rounds) only at chunk 16, with per_thread 8 at tile 128"
          : "lookahead 3 (pairs of rounds) only at tile 128, chunk 16, per_thread 8";
  template <class T, class C, class P, class L>
  constexpr bool operator()(T, C, P, L) const {
    return L::value != 3 || k::ordinary_from_panel<T::value, C::value, P::value, F>();
  }
};

// The short chain's own schedules (kernels/sm90_pairs.cuh; tile 64, int32, chunk 16): pairs of
// rounds with E deferred (lookahead 5) and, with the pass held to three blocks an SM too
// (lookahead 4), at 4 x 4 a thread, the pass whose registers once admitted four (61 a thread; 69
// since its ring stages 32 k at a time, so three; docs/perf-notes.md).
template <class F>
struct ShortChainSchedules {
  static constexpr const char* kRule =
      "lookahead 4 only at tile 64, chunk 16, per_thread 4; lookahead 5 only at tile 64, chunk 16";
  template <class T, class C, class P, class L>
  constexpr bool operator()(T, C, P, L) const {
    const bool short_chain = k::short_chain<T::value>() && C::value == 16 && F::kPerWord == 1;
    if (L::value == 4) return short_chain && P::value == 4;
    return L::value != 5 || short_chain;
  }
};

// The kernels and launch sizes of one point's schedule (sm90_schedules.hpp), in format F: exactly
// the kernels that the schedule its lookahead names launches. Naming one here instantiates it in
// this translation unit; the others stay null and are never compiled for this point.
template <class F, int kTile, int kChunk, int kPer, int kLookahead>
ScheduleKernels schedule_kernels() {
  // The chunk of every product but the ordinary tiles of a config that reads A from a panel.
  constexpr int kC = k::product_chunk<kTile, kChunk, kPer, F>();
  constexpr int kProd = k::product_smem<kTile, kC, F>();
  ScheduleKernels s;
  s.tile = kTile;
  s.per_word = F::kPerWord;
  s.phase1 = k::phase1<kTile, F>;
  s.phase1_threads = k::kPhase1Edge * k::kPhase1Edge;
  s.phase1_smem = k::pivot_smem<kTile>();
  s.phase2 = k::phase2<kTile, F>;
  s.phase2_threads = k::product_threads<kTile, k::per_thread2<F>()>();
  s.phase2_smem = k::product_smem<kTile, k::phase2_chunk<kTile, F>(), F>();
  s.phase3 = k::phase3<kTile, kC, kPer, F>;
  s.threads = k::product_threads<kTile, kPer>();
  s.product_smem = kProd;
  s.pivot_smem = std::max(kProd, k::pivot_smem<kTile>());
  if constexpr (kLookahead == 1) {
    // Where the ordinary tiles read A from a panel (kernels/sm90.cuh), the side stream's line
    // and edge tiles write the next round's.
    constexpr bool kPanel = k::one_round_from_panel<kTile, kChunk, kPer, F>();
    s.side.pivot = k::lookahead_pivot<kTile, kC, kPer, F>;
    s.side.line = k::lookahead_line<kTile, kC, kPer, F, kPanel>;
    s.side.edges = k::lookahead_edges<kTile, kC, kPer, F, kPanel>;
    s.side.ordinary = k::lookahead_ordinary<kTile, kChunk, kPer, F>;
    if constexpr (kPanel) s.side.transpose = k::transpose_column<kTile, F>;
    s.side.panel = kPanel;
    s.side.ordinary_smem = kPanel ? k::ring_smem<kTile, kPer, F, false>() : kProd;
  } else if constexpr (kLookahead == 2) {
    s.next_pivot = k::phase3_next_pivot<kTile, kC, kPer, F>;
  } else if constexpr (kLookahead >= 3) {
    static_assert(k::ordinary_from_panel<kTile, kChunk, kPer, F>(),
                  "pairs of rounds need the panel config");
    static_assert(kLookahead == 3 || k::short_chain<kTile>(),
                  "E is deferred (lookahead 4 and 5) at tile 64 only");
    // Pairs of rounds at tile 64 prepare a pair in five launches, not eleven, and may defer E
    // (lookahead 4 and 5; kernels/sm90_pairs.cuh): there a launch's wait costs about what its
    // work does. The side chain has a per_thread of its own.
    constexpr bool kShortChain = k::short_chain<kTile>();
    constexpr int kChainPer = k::chain_per<kTile, kPer>();
    s.pairs.pivot = k::lookahead2_pivot<kTile, kC, kChainPer, F>;
    s.pairs.pass = k::lookahead2_ordinary<kTile, kPer, F>;
    s.pairs.lines = k::lookahead2_lines<kTile, kChainPer, F, kShortChain>;
    if constexpr (kShortChain) {
      s.pairs.cross = k::lookahead2_cross<kTile, kC, kChainPer, F>;
    } else {
      s.pairs.row_line = k::lookahead2_line<kTile, kC, kPer, false, F>;
      s.pairs.column_line = k::lookahead2_line<kTile, kC, kPer, true, F>;
    }
    s.pairs.short_chain = kShortChain;
    s.pairs.ring_smem = k::ring_smem<kTile, kPer, F, true>();
    s.pairs.chain_threads = k::product_threads<kTile, kChainPer>();
    s.pairs.chain_ring_smem = k::ring_smem<kTile, kChainPer, F, true>();
  }
  return s;
}

// One solve of one point, in format F, by the schedule its lookahead names (run_schedule).
template <class F, int kTile, int kChunk, int kPer, int kLookahead>
void solve(int* words, int n, cudaStream_t stream, PhaseTimer* phases) {
  static const ScheduleKernels point = schedule_kernels<F, kTile, kChunk, kPer, kLookahead>();
  run_schedule(point, kLookahead, words, n, stream, phases);
}

// A variant's space of this shape: its element format F, its value lists (the compiled
// instances) and its rules (a tuple of constexpr predicates with kRule texts, ProductFits<F>
// among them). Dispatch, constraints and checks read the same lists and rules, so they cannot
// drift apart from the instances.
template <class F, class TileValues, class ChunkValues, class PerThreadValues,
          class LookaheadValues, class Rules>
struct Family {
  using Space = InstanceSpace<TileValues, ChunkValues, PerThreadValues, LookaheadValues>;

  // Whether a point makes a kernel: every rule holds. For for_each_in_shard.
  static constexpr auto kBuilt = [](auto... point) {
    return std::apply([&](auto... rule) { return (rule(point...) && ...); }, Rules{});
  };

  // Calls f(tile, chunk, per-thread, lookahead) as integral constants for c's values (declared
  // ones: dispatch throws otherwise). Instantiates no kernel: f only evaluates constexpr helpers.
  template <class Fn>
  static void with_config(const Config& c, Fn&& f) {
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
  static bool passes(const Config& c) {
    bool ok = false;
    with_config(c, [&](auto... point) { ok = Rule{}(point...); });
    return ok;
  }

  static std::vector<Constraint> constraints() {
    return std::apply(
        [](auto... rule) {
          return std::vector<Constraint>{
              Constraint{decltype(rule)::kRule, passes<decltype(rule)>}...};
        },
        Rules{});
  }

  static std::vector<Param> space() {
    return family_space(to_vector(TileValues{}), to_vector(ChunkValues{}),
                        to_vector(PerThreadValues{}), to_vector(LookaheadValues{}));
  }

  template <int kTile, int kChunk, int kPer>
  static int smem_bytes() {
    // The pass's ring and L's (its own per_thread at tile 64).
    const int panel_ring =
        k::ordinary_from_panel<kTile, kChunk, kPer, F>()
            ? std::max(k::ring_smem<kTile, kPer, F, true>(),
                       k::ring_smem<kTile, k::chain_per<kTile, kPer>(), F, true>())
            : 0;
    return std::max({k::product_smem<kTile, k::product_chunk<kTile, kChunk, kPer, F>(), F>(),
                     k::product_smem<kTile, k::phase2_chunk<kTile, F>(), F>(),
                     k::pivot_smem<kTile>(), panel_ring});
  }

  // The instance function of one point: the schedule on the caller's buffer as it is (sm90). A
  // variant with work around the schedule (sm90_u16's pack and unpack) passes its own.
  template <int kTile, int kChunk, int kPer, int kLookahead>
  struct Plain {
    static void run(int* d, int n, const Config&, cudaStream_t stream, PhaseTimer* phases) {
      solve<F, kTile, kChunk, kPer, kLookahead>(d, n, stream, phases);
    }
  };

  // Registers the points of shard kShard of kShards that make a kernel, each as
  // Instance<tile, chunk, per_thread, lookahead>::run (variants/instances.hpp).
  template <int kShard, int kShards, template <int, int, int, int> class Instance>
  static void register_shard(const char* variant, const char* file) {
    Space::template for_each_in_shard<kShard, kShards>(kBuilt, [&](auto t, auto ch, auto p,
                                                                   auto la) {
      constexpr int kT = decltype(t)::value, kC = decltype(ch)::value, kP = decltype(p)::value;
      constexpr int kL = decltype(la)::value;
      register_instance(variant, make_config(kT, kC, kP, kL), &Instance<kT, kC, kP, kL>::run, file);
    });
  }

  // The Variant of this family: its space, constraints and checks from the lists and rules; run()
  // finds the compiled instance. The heuristic (for a device without a policy table) is a rule of
  // thumb by n: the first tier whose n_max is n or more, the declared default past the last.
  static Variant variant(const std::string& name, const std::string& summary,
                         const Config& defaults, const std::vector<Tier>& tiers) {
    return family_variant(name, summary, space(), constraints(), defaults, tiers, check);
  }

  // The device memory a solve allocates beside the matrix: the look-ahead schedules' two panels
  // where their ordinary tiles read A from one (kernels/sm90.cuh): a column of tiles each at
  // lookahead 1 (one_round_from_panel), two at lookahead 3, 4 and 5 (pairs of rounds,
  // ordinary_from_panel); where E is deferred (4 and 5) the row panels as well.
  static uint64_t panel_bytes(const Config& c, int n) {
    uint64_t bytes = 0;
    with_config(c, [&](auto t, auto ch, auto p, auto la) {
      constexpr int kT = decltype(t)::value;
      constexpr int kL = decltype(la)::value;
      constexpr int kC = decltype(ch)::value, kP = decltype(p)::value;
      if constexpr (kL == 1 && k::one_round_from_panel<kT, kC, kP, F>())
        bytes = 2ull * kT * round_up(n, kT) * sizeof(int);
      if constexpr (kL >= 3 && k::ordinary_from_panel<kT, kC, kP, F>())
        bytes = 2ull * 2 * kT * round_up(n, kT) * sizeof(int);
      if constexpr (kL >= 4)  // and two row panels: two rows of tiles each, rows a pitch long
        bytes += 2ull * 2 * kT * (round_up(n, kT) / F::kPerWord) * sizeof(int);
    });
    return bytes;
  }

  // Variant::check: the constraints, then the launches' threads and shared memory on `dev`.
  static std::string check(const Config& c, int n, const DeviceInfo& dev) {
    for (const Constraint& rule : constraints()) {
      if (!rule.holds(c)) return "makes no kernel: needs " + rule.rule;
    }
    std::string launch;
    with_config(c, [&](auto t, auto ch, auto p, auto la) {
      constexpr int kT = decltype(t)::value, kC = decltype(ch)::value, kP = decltype(p)::value;
      const int threads =
          std::max(k::product_threads<kT, k::per_thread2<F>()>(), k::product_threads<kT, kP>());
      const int smem = std::max(smem_bytes<kT, kC, kP>(),
                                held_blocks_smem(decltype(la)::value, dev.smem_per_sm));
      launch = check_launch(n, threads, smem, dev);
    });
    return launch;
  }
};

}  // namespace apsp::sm90_family
