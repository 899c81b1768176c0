#include "variants/sm90_schedules.hpp"

#include <algorithm>
#include <utility>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "variants/launch_early.hpp"

namespace apsp::sm90_family {

int at_most_blocks_per_sm_smem(int blocks, int smem_per_sm) { return smem_per_sm / (blocks + 1); }

int at_most_blocks_per_sm_smem(int blocks) {
  static const int per_sm = [] {
    int dev = 0, bytes = 0;
    APSP_CUDA_CHECK(cudaGetDevice(&dev));
    APSP_CUDA_CHECK(
        cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    return bytes;
  }();
  return at_most_blocks_per_sm_smem(blocks, per_sm);
}

namespace {

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
void destroy(const SideStream& side) {
  for (cudaStream_t s : {side.stream, side.deferred})
    if (s) APSP_CUDA_CHECK(cudaStreamDestroy(s));
  for (cudaEvent_t e : {side.fork, side.join, side.deferred_done})
    if (e) APSP_CUDA_CHECK(cudaEventDestroy(e));
}
const SideStream& new_side_stream(bool with_deferred = false) {
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

// One solve of one point (run_schedule): each schedule is a member; they share the geometry, the
// shared-memory sizes and the three-launch round's launches.
class Schedules {
 public:
  Schedules(const ScheduleKernels& k, int* words, int n, cudaStream_t stream, PhaseTimer* phases)
      : k_(k),
        m_(words),
        n_(n),
        tiles_(round_up(n, k.tile) / k.tile),
        pitch_(tiles_ * k.tile / k.per_word),
        stream_(stream),
        phases_(phases) {
    allow_smem(k_.phase1, k_.phase1_smem);
    allow_smem(k_.phase2, k_.phase2_smem);
    allow_smem(k_.phase3, k_.product_smem);
  }

  // lookahead 0: phases 1, 2 and 3 of each round, one launch each.
  void three_launches() const {
    for (int kt = 0; kt < tiles_; ++kt) {
      phases_1_2(kt);
      phase_3(kt);
    }
  }

  void side_stream_rounds() const;
  void next_pivot_in_phase_3() const;
  void pairs_of_rounds(bool pass_held_to_three, bool defer_e) const;

 private:
  // A pair's panel (its columns, transposed) and, where E is deferred, its row panel: where the
  // pass and L read A and B (kernels/sm90_pairs.cuh).
  struct Panels {
    int* columns = nullptr;
    int* rows = nullptr;
  };

  // The padded matrix's rows (and columns), in elements: a panel has a word for each.
  int rows() const { return tiles_ * k_.tile; }

  void phase_2(int kt) const {
    mark_phase(phases_, 2);
    launch_early(k_.phase2, dim3(tiles_, 2), k_.phase2_threads, k_.phase2_smem, stream_, m_, pitch_,
                 n_, kt);
  }
  void phases_1_2(int kt) const {
    mark_phase(phases_, 1);
    launch_early(k_.phase1, dim3(1), k_.phase1_threads, k_.phase1_smem, stream_, m_, pitch_, kt);
    phase_2(kt);
  }
  void phase_3(int kt) const {
    mark_phase(phases_, 3);
    launch_early(k_.phase3, dim3(tiles_, tiles_), k_.threads, k_.product_smem, stream_, m_, pitch_,
                 n_, kt);
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

  void prepare_pair(int u, cudaStream_t s, Panels prev, Panels next, bool defer_e,
                    const SideStream* side = nullptr) const;
  void prepare_short_chain(int u, cudaStream_t s, Panels next, bool first, bool defer_e,
                           const SideStream* side) const;
  void prepare_long_chain(int u, cudaStream_t s, Panels next) const;
  void pair_pivot(cudaStream_t s, int q, int kt) const;
  void cross(cudaStream_t s, int g, int q, int skip, int skipped, int kt, int diag, bool close_diag,
             Panels to) const;

  const ScheduleKernels& k_;
  int* m_;
  int n_, tiles_, pitch_;  // pitch in words
  cudaStream_t stream_;
  PhaseTimer* phases_;
};

// lookahead 1: round 0's phases 1 and 2 as plain launches; then each round's phase 3 forks:
// the side stream prepares round r + 1 (pivot, row and column r + 1, edges) while the main
// stream updates the ordinary tiles (kernels/sm90.cuh). The last round has nothing to prepare.
void Schedules::side_stream_rounds() const {
  const ScheduleKernels::SideRounds& s = k_.side;
  allow_smem(s.pivot, k_.pivot_smem);
  // Where the ordinary tiles read A from a panel (kernels/sm90.cuh): two of them, round r's
  // column r in panel r % 2; round 0's transposed after phases 1 and 2, round r + 1's written
  // by the side stream's line and edge tiles as they finish, while round r's ordinary tiles
  // read the other.
  allow_smem(s.line, k_.product_smem);
  allow_smem(s.edges, k_.product_smem);
  allow_smem(s.ordinary, s.ordinary_smem);
  const size_t panel_elems = static_cast<size_t>(k_.tile) * rows();
  int* panels = nullptr;
  if (s.panel) APSP_CUDA_CHECK(cudaMallocAsync(&panels, 2 * panel_elems * sizeof(int), stream_));
  phases_1_2(0);
  if (s.panel)
    launch(s.transpose, dim3(k_.tile / 32, rows() / 32), dim3(32, 8), 0, stream_, m_, pitch_, 0,
           panels);
  const SideStream& side = new_side_stream();
  const int others = tiles_ - 2;
  for (int r = 0; r + 1 < tiles_; ++r) {
    fork(side);
    launch(s.pivot, dim3(1), dim3(k_.threads), k_.pivot_smem, side.stream, m_, pitch_, n_, r);
    int* const next_panel = s.panel ? panels + ((r + 1) & 1) * panel_elems : nullptr;
    if (others > 0)
      launch(s.line, dim3(2 * others), dim3(k_.threads), k_.product_smem, side.stream, m_, pitch_,
             n_, tiles_, r, next_panel);
    launch(s.edges, dim3(2), dim3(k_.threads), k_.product_smem, side.stream, m_, pitch_, n_, r,
           next_panel);
    mark_phase(phases_, 3);
    if (others > 0) {
      const int* panel = s.panel ? panels + (r & 1) * panel_elems : nullptr;
      launch(s.ordinary, dim3(others * others), dim3(k_.threads), s.ordinary_smem, stream_, m_,
             pitch_, n_, tiles_, r, panel);
    }
    join(side);
  }
  if (s.panel) APSP_CUDA_CHECK(cudaFreeAsync(panels, stream_));
  if (tiles_ > 1) phase_3(tiles_ - 1);
}

// lookahead 2: round r's phase 3 with round r + 1's pivot in its block 0, alone on its SM (the
// launch's shared memory admits one block per SM; kernels/sm90.cuh), then round r + 1's
// phase 2.
void Schedules::next_pivot_in_phase_3() const {
  const int smem = std::max(k_.pivot_smem, at_most_blocks_per_sm_smem(1));
  allow_smem(k_.next_pivot, smem);
  phases_1_2(0);
  for (int r = 0; r + 1 < tiles_; ++r) {
    mark_phase(phases_, 3);
    launch_early(k_.next_pivot, dim3((tiles_ - 1) * (tiles_ - 1)), k_.threads, smem, stream_, m_,
                 pitch_, n_, tiles_, r);
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
void Schedules::pairs_of_rounds(bool pass_held_to_three, bool defer_e) const {
  const ScheduleKernels::Pairs& p = k_.pairs;
  if (tiles_ == 1) {
    phases_1_2(0);
    return;
  }
  allow_smem(p.pivot, k_.pivot_smem);
  const int pass_smem =
      pass_held_to_three ? std::max(p.ring_smem, at_most_blocks_per_sm_smem(3)) : p.ring_smem;
  allow_smem(p.pass, pass_smem);
  allow_smem(p.lines, p.chain_ring_smem);
  if (p.short_chain) {
    allow_smem(p.cross, k_.pivot_smem);
  } else {
    allow_smem(p.row_line, k_.product_smem);
    allow_smem(p.column_line, k_.product_smem);
  }
  // Two of each, pair p's in the p % 2nd: the panels (2 tile rows of rows() words each) and,
  // where E is deferred, the row panels (2 tile rows of pitch_ words) after them.
  const size_t panel_elems = 2ull * k_.tile * rows(),
               row_panel_elems = defer_e ? 2ull * k_.tile * pitch_ : 0;
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
    if (p.short_chain && defer_e) {  // E of this pair, before the next pair's B or the join
      APSP_CUDA_CHECK(cudaStreamWaitEvent(side.deferred, side.fork));
      cross(side.deferred, r, r, r, 2, r + 1, 1, false, {});
      APSP_CUDA_CHECK(cudaEventRecord(side.deferred_done, side.deferred));
    }
    if (r + 2 < tiles_)
      prepare_pair(r + 2, side.stream, panel, panels_of(pair + 1), defer_e, &side);
    else if (defer_e)
      APSP_CUDA_CHECK(cudaStreamWaitEvent(side.stream, side.deferred_done));
    mark_phase(phases_, 3);
    const int others = tiles_ - std::min(4, tiles_ - r);  // off rows and columns r .. r + 3
    if (others > 0)
      launch(p.pass, dim3(others, others), dim3(k_.threads), pass_smem, stream_, m_, pitch_, n_, r,
             panel.columns, panel.rows);
    join(side);
  }
  APSP_CUDA_CHECK(cudaFreeAsync(panels, stream_));
  if (tiles_ % 2 == 1) phase_3(tiles_ - 1);
}

// The lines of pair (u, u + 1), on stream s, into `next`, after the pair (u - 2, u - 1) whose
// panels are `prev` (none: u = 0, no pair before). The steps L and A-E are
// kernels/sm90_pairs.cuh's; with defer_e (lookahead 4 and 5) E is not here: pairs_of_rounds
// runs it on side->deferred, and B waits for the previous pair's. On the main stream (the first
// pair) the pivot launches count as phase 1, the lines as phase 2 (the short chain's C, lines
// and pivot (v, v) together, too).
void Schedules::prepare_pair(int u, cudaStream_t s, Panels prev, Panels next, bool defer_e,
                             const SideStream* side) const {
  const ScheduleKernels::Pairs& p = k_.pairs;
  const int lines = u + 1 < tiles_ ? 2 : 1;
  if (prev.columns != nullptr) {  // L (the short chain: and A)
    launch(p.lines, dim3(tiles_ - 2, 2 * lines), dim3(p.chain_threads), p.chain_ring_smem, s, m_,
           pitch_, n_, u - 2, lines, prev.columns, prev.rows);
  }
  if (p.short_chain)
    prepare_short_chain(u, s, next, prev.columns == nullptr, defer_e, side);
  else
    prepare_long_chain(u, s, next);
}

// A pivot's update and closure: tile (q, q) at round kt (-1: closed only), on stream s.
void Schedules::pair_pivot(cudaStream_t s, int q, int kt) const {
  if (s == stream_) mark_phase(phases_, 1);
  launch(k_.pairs.pivot, dim3(1), dim3(k_.pairs.chain_threads), k_.pivot_smem, s, m_, pitch_, n_, q,
         kt);
}

// The short chain's B, C, D and E (A where no L closed the pivot: the first pair).
void Schedules::prepare_short_chain(int u, cudaStream_t s, Panels next, bool first, bool defer_e,
                                    const SideStream* side) const {
  const int v = u + 1;
  auto step = [&](int q, int skip, int skipped, int kt, int diag, bool close_diag, Panels to) {
    if (s == stream_) mark_phase(phases_, 2);
    cross(s, u, q, skip, skipped, kt, diag, close_diag, to);
  };
  if (first) pair_pivot(s, u, -1);  // A (else in L)
  if (defer_e && side != nullptr)   // pair u - 2's E
    APSP_CUDA_CHECK(cudaStreamWaitEvent(s, side->deferred_done));
  step(u, u, 1, u, 0, false, defer_e ? next : Panels{});  // B (deferring E: column u for the panel)
  if (v >= tiles_) return;
  step(v, u, 2, u, 1, true, {});                   // C: the pivot (v, v) in it
  step(v, v, 1, v, 1, false, next);                // D, with (v, v)
  if (!defer_e) step(u, u, 2, v, 1, false, next);  // E, with (u, u)
}

// The long chain's A-E: pivots, then each line a row launch and a column launch.
void Schedules::prepare_long_chain(int u, cudaStream_t s, Panels next) const {
  const ScheduleKernels::Pairs& p = k_.pairs;
  const int v = u + 1;
  auto line = [&](int q, int skip, int skipped, int kt, int diag,
                  int* to_panel) {  // row, then column
    if (const int others = tiles_ - skipped; others + diag > 0) {
      if (s == stream_) mark_phase(phases_, 2);
      launch(p.row_line, dim3(others + diag), dim3(k_.threads), k_.product_smem, s, m_, pitch_, n_,
             tiles_, q, skip, skipped, kt, to_panel, u);
      if (others == 0) return;
      launch(p.column_line, dim3(others), dim3(k_.threads), k_.product_smem, s, m_, pitch_, n_,
             tiles_, q, skip, skipped, kt, to_panel, u);
    }
  };
  pair_pivot(s, u, -1);          // A
  line(u, u, 1, u, 0, nullptr);  // B
  if (v >= tiles_) return;
  pair_pivot(s, v, u);  // C
  line(v, u, 2, u, 0, nullptr);
  line(v, v, 1, v, 1, next.columns);  // D, with (v, v)
  line(u, u, 2, v, 1, next.columns);  // E, with (u, u)
}

// One step of the short chain (kernels/sm90_pairs.cuh, lookahead2_cross) for the pair (g, g + 1),
// on stream s: row and column q outside tiles [skip, skip + skipped), their round-kt update,
// and with diag the tile (q, q) (closed too with close_diag); the tiles into `to`'s panels.
void Schedules::cross(cudaStream_t s, int g, int q, int skip, int skipped, int kt, int diag,
                      bool close_diag, Panels to) const {
  const ScheduleKernels::Pairs& p = k_.pairs;
  if (const int others = tiles_ - skipped; others + diag > 0)
    launch_early(p.cross, dim3(others + diag, others > 0 ? 2 : 1), p.chain_threads, k_.pivot_smem,
                 s, m_, pitch_, n_, tiles_, q, skip, skipped, kt, close_diag, to.columns, to.rows,
                 g);
}

}  // namespace

void run_schedule(const ScheduleKernels& k, int lookahead, int* words, int n, cudaStream_t stream,
                  PhaseTimer* phases) {
  const Schedules schedules(k, words, n, stream, phases);
  if (lookahead == 0)
    schedules.three_launches();
  else if (lookahead == 1)
    schedules.side_stream_rounds();
  else if (lookahead == 2)
    schedules.next_pivot_in_phase_3();
  else
    schedules.pairs_of_rounds(lookahead == 4, lookahead >= 4);
  mark_phase(phases, 0);
}

}  // namespace apsp::sm90_family
