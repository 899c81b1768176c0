// What sm90 (05_sm90.cu) and its 16-bit sibling sm90_u16 (06_sm90_u16.cu) share, host side: the
// shape of their parameter space (tile, chunk, per_thread, lookahead) with its dispatch,
// constraints and launch checks, and the launch schedules of one solve (three launches a round,
// the side stream's look-ahead, the next pivot inside phase 3, and for the ring's configs pairs of
// rounds) over words of an element format (kernels/elements.cuh). The kernels are
// kernels/sm90.cuh's and kernels/sm90_pairs.cuh's, instantiated for that format.
//
// Everything here is a template or inline, so both variant files (and each of their instance
// shards) include it; the device's shared-memory size is one per program, the side stream one
// per solve.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/phase_timer.hpp"
#include "kernels/sm90.cuh"
#include "kernels/sm90_pairs.cuh"
#include "variants/dispatch.hpp"
#include "variants/instances.hpp"
#include "variants/variant.hpp"

namespace apsp::sm90_family {

namespace k = kernels::sm90;

inline Config make_config(int tile, int chunk, int per_thread, int lookahead) {
  return {{"tile", tile}, {"chunk", chunk}, {"per_thread", per_thread}, {"lookahead", lookahead}};
}

inline int round_up(int n, int m) { return (n + m - 1) / m * m; }

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

// Dynamic shared memory that admits at most `blocks` blocks of a launch per SM: an SM's bytes
// over blocks + 1. With the 1 KB each block also takes for the system, block blocks + 1 no longer
// fits; `blocks` still do, for a kernel without static shared memory on an SM of at least
// blocks x (blocks + 1) KB (228 KB on Hopper). The lookahead = 2 schedule gives its pivot block
// an SM this way (one block); lookahead 4 holds its pass to three.
inline int at_most_blocks_per_sm_smem(int blocks, int smem_per_sm) {
  return smem_per_sm / (blocks + 1);
}
inline int at_most_blocks_per_sm_smem(int blocks) {
  static const int per_sm = [] {
    int dev = 0, bytes = 0;
    APSP_CUDA_CHECK(cudaGetDevice(&dev));
    APSP_CUDA_CHECK(
        cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    return bytes;
  }();
  return at_most_blocks_per_sm_smem(blocks, per_sm);
}

// Launches with programmatic stream serialization: the kernel's blocks may be launched while
// the previous kernel in the stream still runs, and wait for it on the device
// (kernels::sm90::wait_for_previous). Saves the launch latency of the three-launch rounds, of
// look-ahead 2's and of the short chain's steps.
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

// The look-ahead schedules' second stream, at the highest priority so that its few blocks are
// dispatched ahead of the waiting ordinary tiles, and the events that fork and join it; where
// the short chain's pairs of rounds defer E (kernels/sm90_pairs.cuh), a third at the same
// priority, where E runs, and the event the side stream waits for before the next B.
//
// Made anew for every solve, after the solve's first launches (its host cost then overlaps them).
// One kept from solve to solve ran lookahead 1 at n = 2500 6% slower on the H200 once it had
// served a solve at another n (1.56-1.62 ms against 1.50-1.51;
// docs/perf-notes.md); a new one each solve ran at 1.49-1.51 in every process. The cause was not found.
//
// The host thread's previous solve's stream and events are destroyed here, not at the end of
// that solve: a stream a CUDA graph capture recorded through must live until the capture ends
// (so a capture holds one look-ahead solve). Work still queued on them runs first; CUDA frees
// them after. The new ones are made before the old go, so a failure leaves no freed handle (and
// destroys the new ones made before it).
struct SideStream {
  cudaStream_t stream = nullptr;
  cudaEvent_t fork = nullptr, join = nullptr;
  cudaStream_t deferred = nullptr;  // with_deferred only
  cudaEvent_t deferred_done = nullptr;
};
inline void destroy(const SideStream& side) {
  for (cudaStream_t s : {side.stream, side.deferred})
    if (s) APSP_CUDA_CHECK(cudaStreamDestroy(s));
  for (cudaEvent_t e : {side.fork, side.join, side.deferred_done})
    if (e) APSP_CUDA_CHECK(cudaEventDestroy(e));
}
inline const SideStream& new_side_stream(bool with_deferred = false) {
  thread_local SideStream side;
  SideStream made;
  try {
    made.stream = make_priority_stream(true), made.fork = make_ordering_event(),
    made.join = make_ordering_event();
    if (with_deferred)
      made.deferred = make_priority_stream(true), made.deferred_done = make_ordering_event();
  } catch (...) {
    destroy(made);  // what was made before the failure
    throw;
  }
  destroy(std::exchange(side, made));
  return side;
}

// One solve of one point, in format F, by the schedule its lookahead names: `words` holds the
// n x n matrix in the padded layout, rows round_up(n, kTile) elements (that many / kPerWord
// words) apart, every entry outside the matrix a padding value P with 2P >= the format's
// unreachable value: no bounds checks. Each schedule is a member; they share the geometry, the
// shared-memory sizes and the three-launch round's launches.
//
// apsp_bench --phases (a PhaseTimer on the main stream): phase 1 is the pivot's closure, phase 2
// the pivot row and column, phase 3 the rest, summed over rounds. In the look-ahead schedules
// (1, 3, 4 and 5) phases 1 and 2 of all but the first round run on the side stream beside phase 3,
// so what they cost the solve is the main stream's wait for them: phase 3 is the ordinary
// tiles' passes (the side stream's work shares the GPU with them), phase 2 the first round's
// (or pair's) lines (and lookahead 1's first panel) and every wait for the side stream after a
// pass, phase 1 the first pivot (the first pair's two pivots; at tile 64 only the first, the
// second being inside a launch of lines).
// lookahead 2 shows its next pivot as phase 3.
template <class F, int kTile, int kChunk, int kPer>
class Schedules {
 public:
  Schedules(int* words, int n, cudaStream_t stream, PhaseTimer* phases)
      : m_(words),
        n_(n),
        tiles_(round_up(n, kTile) / kTile),
        pitch_(tiles_ * kTile / F::kPerWord),
        stream_(stream),
        phases_(phases) {
    allow_smem(k::phase1<kTile, F>, kP1);
    allow_smem(k::phase2<kTile, F>, kP2);
    allow_smem(k::phase3<kTile, kC, kPer, F>, kProd);
  }

  // lookahead 0: phases 1, 2 and 3 of each round, one launch each.
  void three_launches() const {
    for (int kt = 0; kt < tiles_; ++kt) {
      phases_1_2(kt);
      phase_3(kt);
    }
  }

  // lookahead 1: round 0's phases 1 and 2 as plain launches; then each round's phase 3 forks:
  // the side stream prepares round r + 1 (pivot, row and column r + 1, edges) while the main
  // stream updates the ordinary tiles (kernels/sm90.cuh). The last round has nothing to prepare.
  void side_stream_rounds() const {
    allow_smem(k::lookahead_pivot<kTile, kC, kPer, F>, kPivot);
    // Where the ordinary tiles read A from a panel (kernels/sm90.cuh): two of them, round r's
    // column r in panel r % 2; round 0's transposed after phases 1 and 2, round r + 1's written
    // by the side stream's line and edge tiles as they finish, while round r's ordinary tiles
    // read the other.
    constexpr bool kPanel = k::one_round_from_panel<kTile, kChunk, kPer, F>();
    allow_smem(k::lookahead_line<kTile, kC, kPer, F, kPanel>, kProd);
    allow_smem(k::lookahead_edges<kTile, kC, kPer, F, kPanel>, kProd);
    constexpr int kOrdinary = kPanel ? k::ring_smem<kTile, kPer, F, false>() : kProd;
    allow_smem(k::lookahead_ordinary<kTile, kChunk, kPer, F>, kOrdinary);
    const size_t panel_elems = static_cast<size_t>(kTile) * rows();
    int* panels = nullptr;
    if constexpr (kPanel)
      APSP_CUDA_CHECK(cudaMallocAsync(&panels, 2 * panel_elems * sizeof(int), stream_));
    phases_1_2(0);
    if constexpr (kPanel) {
      k::transpose_column<kTile, F>
          <<<dim3(kTile / 32, rows() / 32), dim3(32, 8), 0, stream_>>>(m_, pitch_, 0, panels);
      APSP_CUDA_CHECK_LAUNCH();
    }
    const SideStream& side = new_side_stream();
    const int others = tiles_ - 2;
    for (int r = 0; r + 1 < tiles_; ++r) {
      fork(side);
      k::lookahead_pivot<kTile, kC, kPer, F>
          <<<1, kThreads, kPivot, side.stream>>>(m_, pitch_, n_, r);
      APSP_CUDA_CHECK_LAUNCH();
      int* const next_panel = kPanel ? panels + ((r + 1) & 1) * panel_elems : nullptr;
      if (others > 0) {
        k::lookahead_line<kTile, kC, kPer, F, kPanel>
            <<<2 * others, kThreads, kProd, side.stream>>>(m_, pitch_, n_, tiles_, r, next_panel);
        APSP_CUDA_CHECK_LAUNCH();
      }
      k::lookahead_edges<kTile, kC, kPer, F, kPanel>
          <<<2, kThreads, kProd, side.stream>>>(m_, pitch_, n_, r, next_panel);
      APSP_CUDA_CHECK_LAUNCH();
      mark_phase(phases_, 3);
      if (others > 0) {
        const int* panel = kPanel ? panels + (r & 1) * panel_elems : nullptr;
        k::lookahead_ordinary<kTile, kChunk, kPer, F>
            <<<others * others, kThreads, kOrdinary, stream_>>>(m_, pitch_, n_, tiles_, r, panel);
        APSP_CUDA_CHECK_LAUNCH();
      }
      join(side);
    }
    if constexpr (kPanel) APSP_CUDA_CHECK(cudaFreeAsync(panels, stream_));
    if (tiles_ > 1) phase_3(tiles_ - 1);
  }

  // lookahead 2: round r's phase 3 with round r + 1's pivot in its block 0, alone on its SM (the
  // launch's shared memory admits one block per SM; kernels/sm90.cuh), then round r + 1's
  // phase 2.
  void next_pivot_in_phase_3() const {
    const int smem = std::max({kProd, k::pivot_smem<kTile>(), at_most_blocks_per_sm_smem(1)});
    allow_smem(k::phase3_next_pivot<kTile, kC, kPer, F>, smem);
    phases_1_2(0);
    for (int r = 0; r + 1 < tiles_; ++r) {
      mark_phase(phases_, 3);
      launch_early(k::phase3_next_pivot<kTile, kC, kPer, F>, dim3((tiles_ - 1) * (tiles_ - 1)),
                   kThreads, smem, stream_, m_, pitch_, n_, tiles_, r);
      phase_2(r + 1);
    }
    phase_3(tiles_ - 1);
  }

  // lookahead 3 (the ring's configs only): pairs of rounds (kernels/sm90_pairs.cuh). The first
  // pair's lines are prepared on the main stream, then each pair's ordinary tiles run in one
  // pass beside the side stream preparing the next pair, into the other of two panels. An odd
  // last round is prepared beside the last pair and ends with a plain phase 3.
  // lookahead 4 (`pass_held_to_three`): the same with the pass asking for the shared memory that
  // admits three of its blocks an SM, not four. A side block (80-82 registers a thread) then
  // starts where one ordinary block ended, not two, and shares the SM with two. Where the side
  // chain is the longer of the two, this shortens a pair (n = 2000-3000 on the H200;
  // docs/perf-notes.md); elsewhere the pass's fourth block is worth more. Since the
  // 4 x 4 pass's ring takes 32 k a stage its 69 registers admit three blocks anyway, so
  // at 4 x 4 lookahead 4 differs from 5 only in the shared memory its pass asks for.
  // lookahead 4 and 5 (`defer_e`, the short chain only): each pair's E runs on a third stream,
  // beside the pair's pass and the next pair's L, and the pass and L read B from the pair's row
  // panel (kernels/sm90_pairs.cuh). It shortens the side chain by a step, which gains where the
  // chain is the longer path (n = 1600-3000 on the H200) and costs a little where the
  // pass is; lookahead 4 holds the pass to three blocks as well.
  void pairs_of_rounds(bool pass_held_to_three, bool defer_e) const {
    static_assert(k::ordinary_from_panel<kTile, kChunk, kPer, F>(),
                  "pairs of rounds need the panel config");
    if (tiles_ == 1) {
      phases_1_2(0);
      return;
    }
    allow_smem(k::lookahead2_pivot<kTile, kC, kChainPer, F>, kPivot);
    const int pass_smem =
        pass_held_to_three ? std::max(kRing, at_most_blocks_per_sm_smem(3)) : kRing;
    allow_smem(k::lookahead2_ordinary<kTile, kPer, F>, pass_smem);
    allow_smem(k::lookahead2_lines<kTile, kChainPer, F, kShortChain>, kChainRing);
    if constexpr (kShortChain) {
      allow_smem(k::lookahead2_cross<kTile, kC, kChainPer, F>, kPivot);
    } else {
      allow_smem(k::lookahead2_line<kTile, kC, kPer, false, F>, kProd);
      allow_smem(k::lookahead2_line<kTile, kC, kPer, true, F>, kProd);
    }
    // Two of each, pair p's in the p % 2nd: the panels (2 kTile rows of rows() words each) and,
    // where E is deferred, the row panels (2 kTile rows of pitch_ words) after them.
    const size_t panel_elems = 2ull * kTile * rows(),
                 row_panel_elems = defer_e ? 2ull * kTile * pitch_ : 0;
    int* panels = nullptr;
    APSP_CUDA_CHECK(
        cudaMallocAsync(&panels, 2 * (panel_elems + row_panel_elems) * sizeof(int), stream_));
    const auto panels_of = [&](int pair) -> Panels {
      return {panels + (pair & 1) * panel_elems,
              defer_e ? panels + 2 * panel_elems + (pair & 1) * row_panel_elems : nullptr};
    };
    prepare_pair(0, stream_, {}, panels_of(0), defer_e);
    const SideStream& side = new_side_stream(defer_e);
    for (int r = 0; r + 1 < tiles_; r += 2) {
      const int pair = r / 2;
      fork(side);
      const Panels panel = panels_of(pair);
      if constexpr (kShortChain) {
        if (defer_e) {  // E of this pair, before the next pair's B or the join
          APSP_CUDA_CHECK(cudaStreamWaitEvent(side.deferred, side.fork));
          cross(side.deferred, r, r, r, 2, r + 1, 1, false, {});
          APSP_CUDA_CHECK(cudaEventRecord(side.deferred_done, side.deferred));
        }
      }
      if (r + 2 < tiles_)
        prepare_pair(r + 2, side.stream, panel, panels_of(pair + 1), defer_e, &side);
      else if (defer_e)
        APSP_CUDA_CHECK(cudaStreamWaitEvent(side.stream, side.deferred_done));
      mark_phase(phases_, 3);
      const int others = tiles_ - std::min(4, tiles_ - r);  // off rows and columns r .. r + 3
      if (others > 0) {
        k::lookahead2_ordinary<kTile, kPer, F>
            <<<dim3(others, others), kThreads, pass_smem, stream_>>>(m_, pitch_, n_, r,
                                                                     panel.columns, panel.rows);
        APSP_CUDA_CHECK_LAUNCH();
      }
      join(side);
    }
    APSP_CUDA_CHECK(cudaFreeAsync(panels, stream_));
    if (tiles_ % 2 == 1) phase_3(tiles_ - 1);
  }

 private:
  // The chunk of every product but the ordinary tiles of a config that reads A from a panel.
  static constexpr int kC = k::product_chunk<kTile, kChunk, kPer, F>();
  static constexpr int kP1 = k::pivot_smem<kTile>(), kProd = k::product_smem<kTile, kC, F>();
  static constexpr int kP2 = k::product_smem<kTile, k::phase2_chunk<kTile, F>(), F>();
  static constexpr int kThreads = k::product_threads<kTile, kPer>();
  static constexpr int kThreads2 = k::product_threads<kTile, k::per_thread2<F>()>();
  // a pivot's update and closure
  static constexpr int kPivot = std::max(kProd, k::pivot_smem<kTile>());
  static constexpr int kRing = k::ring_smem<kTile, kPer, F, true>();  // the pairs pass
  // Pairs of rounds at tile 64 prepare a pair in five launches, not eleven, and may defer E
  // (lookahead 4 and 5; kernels/sm90_pairs.cuh): there a launch's wait costs about what its work
  // does.
  static constexpr bool kShortChain = k::short_chain<kTile>();
  static constexpr int kChainPer = k::chain_per<kTile, kPer>();  // the side chain's per_thread
  static constexpr int kChainThreads = k::product_threads<kTile, kChainPer>();
  static constexpr int kChainRing = k::ring_smem<kTile, kChainPer, F, true>();  // L's ring

  // The padded matrix's rows (and columns), in elements: a panel has a word for each.
  int rows() const { return tiles_ * kTile; }

  void phase_2(int kt) const {
    mark_phase(phases_, 2);
    launch_early(k::phase2<kTile, F>, dim3(tiles_, 2), kThreads2, kP2, stream_, m_, pitch_, n_, kt);
  }
  void phases_1_2(int kt) const {
    mark_phase(phases_, 1);
    launch_early(k::phase1<kTile, F>, dim3(1), k::kPhase1Edge * k::kPhase1Edge, kP1, stream_, m_,
                 pitch_, kt);
    phase_2(kt);
  }
  void phase_3(int kt) const {
    mark_phase(phases_, 3);
    launch_early(k::phase3<kTile, kC, kPer, F>, dim3(tiles_, tiles_), kThreads, kProd, stream_, m_,
                 pitch_, n_, kt);
  }

  // The side stream starts after everything the main stream has enqueued; the main stream goes
  // on after everything the side stream has. Between them the main stream's time is waiting for
  // the side stream (phase 2 for --phases).
  void fork(const SideStream& side) const {
    APSP_CUDA_CHECK(cudaEventRecord(side.fork, stream_));
    APSP_CUDA_CHECK(cudaStreamWaitEvent(side.stream, side.fork));
  }
  void join(const SideStream& side) const {
    mark_phase(phases_, 2);
    APSP_CUDA_CHECK(cudaEventRecord(side.join, side.stream));
    APSP_CUDA_CHECK(cudaStreamWaitEvent(stream_, side.join));
  }

  // A pair's panel (its columns, transposed) and, where E is deferred, its row panel: where the
  // pass and L read A and B (kernels/sm90_pairs.cuh).
  struct Panels {
    int* columns = nullptr;
    int* rows = nullptr;
  };

  // The lines of pair (u, u + 1), on stream s, into `next`, after the pair (u - 2, u - 1) whose
  // panels are `prev` (none: u = 0, no pair before). The steps L and A-E are
  // kernels/sm90_pairs.cuh's; with defer_e (lookahead 4 and 5) E is not here: pairs_of_rounds
  // runs it on side->deferred, and B waits for the previous pair's. On the main stream (the first
  // pair) the pivot launches count as phase 1, the lines as phase 2 (the short chain's C, lines
  // and pivot (v, v) together, too).
  void prepare_pair(int u, cudaStream_t s, Panels prev, Panels next, bool defer_e,
                    const SideStream* side = nullptr) const {
    const int v = u + 1, lines = v < tiles_ ? 2 : 1;
    const bool main = s == stream_;
    if (prev.columns != nullptr) {  // L (the short chain: and A)
      k::lookahead2_lines<kTile, kChainPer, F, kShortChain>
          <<<dim3(tiles_ - 2, 2 * lines), kChainThreads, kChainRing, s>>>(
              m_, pitch_, n_, u - 2, lines, prev.columns, prev.rows);
      APSP_CUDA_CHECK_LAUNCH();
    }
    auto pivot = [&](int q, int kt) {
      if (main) mark_phase(phases_, 1);
      k::lookahead2_pivot<kTile, kC, kChainPer, F>
          <<<1, kChainThreads, kPivot, s>>>(m_, pitch_, n_, q, kt);
      APSP_CUDA_CHECK_LAUNCH();
    };
    if constexpr (kShortChain) {
      auto step = [&](int q, int skip, int skipped, int kt, int diag, bool close_diag, Panels to) {
        if (main) mark_phase(phases_, 2);
        cross(s, u, q, skip, skipped, kt, diag, close_diag, to);
      };
      if (prev.columns == nullptr) pivot(u, -1);  // A (else in L)
      if (defer_e && side != nullptr)             // pair u - 2's E
        APSP_CUDA_CHECK(cudaStreamWaitEvent(s, side->deferred_done));
      step(u, u, 1, u, 0, false,
           defer_e ? next : Panels{});  // B (deferring E: column u for the panel)
      if (v >= tiles_) return;
      step(v, u, 2, u, 1, true, {});                   // C: the pivot (v, v) in it
      step(v, v, 1, v, 1, false, next);                // D, with (v, v)
      if (!defer_e) step(u, u, 2, v, 1, false, next);  // E, with (u, u)
    } else {
      auto line = [&](int q, int skip, int skipped, int kt, int diag,
                      int* to_panel) {  // row, then column
        if (const int others = tiles_ - skipped; others + diag > 0) {
          if (main) mark_phase(phases_, 2);
          k::lookahead2_line<kTile, kC, kPer, false, F><<<others + diag, kThreads, kProd, s>>>(
              m_, pitch_, n_, tiles_, q, skip, skipped, kt, to_panel, u);
          APSP_CUDA_CHECK_LAUNCH();
          if (others == 0) return;
          k::lookahead2_line<kTile, kC, kPer, true, F><<<others, kThreads, kProd, s>>>(
              m_, pitch_, n_, tiles_, q, skip, skipped, kt, to_panel, u);
          APSP_CUDA_CHECK_LAUNCH();
        }
      };
      pivot(u, -1);                  // A
      line(u, u, 1, u, 0, nullptr);  // B
      if (v >= tiles_) return;
      pivot(v, u);  // C
      line(v, u, 2, u, 0, nullptr);
      line(v, v, 1, v, 1, next.columns);  // D, with (v, v)
      line(u, u, 2, v, 1, next.columns);  // E, with (u, u)
    }
  }

  // One step of the short chain (kernels/sm90_pairs.cuh, lookahead2_cross) for the pair (g, g + 1),
  // on stream s: row and column q outside tiles [skip, skip + skipped), their round-kt update,
  // and with diag the tile (q, q) (closed too with close_diag); the tiles into `to`'s panels.
  void cross(cudaStream_t s, int g, int q, int skip, int skipped, int kt, int diag, bool close_diag,
             Panels to) const {
    if (const int others = tiles_ - skipped; others + diag > 0)
      launch_early(k::lookahead2_cross<kTile, kC, kChainPer, F>,
                   dim3(others + diag, others > 0 ? 2 : 1), kChainThreads, kPivot, s, m_, pitch_,
                   n_, tiles_, q, skip, skipped, kt, close_diag, to.columns, to.rows, g);
  }

  int* m_;
  int n_, tiles_, pitch_;  // pitch in words
  cudaStream_t stream_;
  PhaseTimer* phases_;
};

template <class F, int kTile, int kChunk, int kPer, int kLookahead>
void solve(int* words, int n, cudaStream_t stream, PhaseTimer* phases) {
  const Schedules<F, kTile, kChunk, kPer> schedules(words, n, stream, phases);
  if constexpr (kLookahead == 0)
    schedules.three_launches();
  else if constexpr (kLookahead == 1)
    schedules.side_stream_rounds();
  else if constexpr (kLookahead == 2)
    schedules.next_pivot_in_phase_3();
  else {
    static_assert(kLookahead == 3 || k::short_chain<kTile>(),
                  "E is deferred (lookahead 4 and 5) at tile 64 only");
    schedules.pairs_of_rounds(kLookahead == 4, kLookahead >= 4);
  }
  mark_phase(phases, 0);
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
    return {Param{"tile", to_vector(TileValues{}), "tile edge (round size, output tile per block)",
                  "tile"},
            Param{"chunk", to_vector(ChunkValues{}), "k elements per shared-memory stage", "tile"},
            Param{"per_thread", to_vector(PerThreadValues{}), "outputs per thread along an edge",
                  "tile"},
            Param{"lookahead", to_vector(LookaheadValues{}), lookahead_text(), "tile"}};
  }

  static std::string lookahead_text() {
    const std::vector<int> values = to_vector(LookaheadValues{});
    std::string text =
        "0: three launches a round; 1: phase 3 beside a side stream preparing the next round; 2: "
        "two "
        "launches a round, the next pivot inside phase 3 on an SM of its own; 3 (chunk 16 only): "
        "as 1 "
        "over pairs of rounds, phase 3 taking both in one pass";
    if (std::find(values.begin(), values.end(), 5) != values.end())
      text +=
          "; 5 (tile 64, chunk 16): as 3, one step of the side stream's chain (E) on a third "
          "stream";
    if (std::find(values.begin(), values.end(), 4) != values.end())
      text += "; 4 (tile 64, chunk 16, 4 x 4): as 5, phase 3 held to three blocks an SM";
    return text;
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
  struct Tier {
    int n_max;
    Config config;
  };
  static Variant variant(const std::string& name, const std::string& summary,
                         const Config& defaults, const std::vector<Tier>& tiers) {
    Variant v;
    v.name = name;
    v.summary = summary;
    v.space = space();
    v.defaults = defaults;
    v.constraints = constraints();
    v.heuristic = [=](int n, const DeviceInfo&) {
      for (const Tier& tier : tiers) {
        if (n <= tier.n_max) return tier.config;
      }
      return defaults;
    };
    v.check = check;
    v.run = [name](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
      run_instance(name, d, n, c, stream, phases);
    };
    return v;
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

  // The shared memory a schedule asks for to hold a launch to fewer blocks an SM (0: none).
  static int held_blocks_smem(int lookahead, int smem_per_sm) {
    if (lookahead == 2) return at_most_blocks_per_sm_smem(1, smem_per_sm);
    return lookahead == 4 ? at_most_blocks_per_sm_smem(3, smem_per_sm) : 0;
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
