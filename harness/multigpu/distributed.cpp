// The distributed engine's host side: the round loop (harness/multigpu/distributed.hpp says what it
// does), launching the kernels its variant declares (variants/multi_gpu.hpp).
#include "harness/multigpu/distributed.hpp"

#include <cuda_runtime_api.h>

#include <exception>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"

namespace apsp::harness {

std::string device_memory_problem(const Transport& t, const Partition& p) {
  std::map<int, uint64_t> need;
  for (int r : t.local_ranks()) need[t.device(r)] += p.bytes_per_rank(r);
  for (const auto& [d, bytes] : need) {
    DeviceGuard guard(d);
    size_t free = 0, total = 0;
    APSP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    if (bytes > free)
      return "the distributed solve of n = " + std::to_string(p.n) + " over " +
             std::to_string(p.ranks) + " ranks needs " + std::to_string(bytes) +
             " bytes on device " + std::to_string(d) + ", " + std::to_string(free) + " are free";
  }
  return "";
}

std::string distributed_problem(const Variant& v, const Config& c) {
  if (!v.multi_gpu) return v.name + " has no multi-GPU engine (it runs on one GPU)";
  return v.multi_gpu->check(c);
}

DistributedConfig distributed_config(const Variant& v, const Config& c) {
  if (const std::string why = distributed_problem(v, c); !why.empty())
    throw std::invalid_argument(why);
  return v.multi_gpu->engine(c);
}

bool runs_pairs(const DistributedConfig& c, const Partition& p) {
  return c.pairs && p.tile_count(0) >= c.pairs_from_row_tiles;  // rank 0 owns the most tiles
}

int distributed_tile(const Variant& v, const Config& c) {
  if (!v.multi_gpu) throw std::invalid_argument(distributed_problem(v, c));
  return v.multi_gpu->tile(c);
}

// A rank's buffers, streams and events, on its device. Step g's pivot-row panels arrive in
// panels[g.buffer] (its first round's rows first, its second's a panel further on), its pivot
// columns transposed go to columns[g.buffer] likewise.
struct DistributedSolver::Rank {
  int device;
  DeviceBuffer<int> block, panels[Partition::kPanelBuffers], columns[Partition::kPanelBuffers];
  cudaStream_t main = nullptr, side = nullptr;
  cudaEvent_t fork = nullptr, ready = nullptr;

  Rank(int dev, size_t block_elems, size_t panel_elems) : device(dev) {
    DeviceGuard guard(device);
    block = DeviceBuffer<int>(block_elems);
    for (DeviceBuffer<int>& p : panels)
      p = DeviceBuffer<int>(Partition::kPanelRounds * panel_elems);
    for (DeviceBuffer<int>& c : columns)
      c = DeviceBuffer<int>(Partition::kPanelRounds * panel_elems);
    main = make_priority_stream(false);
    side = make_priority_stream(true);  // its few blocks go ahead of the waiting phase-3 blocks
    fork = make_ordering_event();
    ready = make_ordering_event();
  }
  ~Rank() {
    for (cudaEvent_t e : {fork, ready})
      if (e) cudaEventDestroy(e);
    for (cudaStream_t s : {main, side})
      if (s) cudaStreamDestroy(s);
  }
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;
};

DistributedSolver::DistributedSolver(Transport& transport, const Partition& p)
    : t_(transport), p_(p) {
  if (t_.ranks() != p_.ranks)
    throw std::invalid_argument("distributed solver: a partition over " + std::to_string(p_.ranks) +
                                " ranks for a transport of " + std::to_string(t_.ranks()));
  const size_t panel = static_cast<size_t>(p_.tile) * p_.pitch;
  local_ = t_.local_ranks();
  ranks_.resize(p_.ranks);  // null for the ranks of other processes
  for (int r : local_)
    ranks_[r] = std::make_unique<Rank>(t_.device(r),
                                       static_cast<size_t>(p_.padded_rows(r)) * p_.pitch, panel);
}

DistributedSolver::~DistributedSolver() = default;

void on_local_ranks(const DistributedSolver& solver, const std::function<void(int rank)>& f) {
  const Partition& p = solver.partition();
  std::vector<int> busy;
  for (int r : solver.local_ranks())
    if (p.real_rows(r) > 0) busy.push_back(r);
  std::vector<std::exception_ptr> failed(busy.size());
  const auto one = [&](size_t i) {
    try {
      DeviceGuard guard(solver.transport().device(busy[i]));
      f(busy[i]);
    } catch (...) {
      failed[i] = std::current_exception();
    }
  };
  if (busy.size() == 1) {
    one(0);
  } else {
    std::vector<std::thread> threads;
    for (size_t i = 0; i < busy.size(); ++i) threads.emplace_back(one, i);
    for (std::thread& t : threads) t.join();
  }
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

int* DistributedSolver::block(int r) const { return local(r).block.get(); }
cudaStream_t DistributedSolver::stream(int r) const { return local(r).main; }

void DistributedSolver::synchronize() const {
  for (int r : local_) {
    DeviceGuard guard(local(r).device);
    APSP_CUDA_CHECK(cudaStreamSynchronize(local(r).main));
  }
}

DistributedSolver::Rank& DistributedSolver::local(int r) const {
  if (r < 0 || r >= p_.ranks || !ranks_[r])
    throw std::logic_error("distributed solver: rank " + std::to_string(r) +
                           " is not in this process");
  return *ranks_[r];
}

RowBlock DistributedSolver::row_block(int r) const {
  return {block(r), p_.pitch, p_.n, p_.first_tile(r), p_.tile_count(r), p_.tiles};
}

// One solve's launches and broadcasts, on the ranks' streams (the schedule: distributed.hpp).
struct DistributedSolver::Loop {
  const DistributedSolver& s;
  const DistributedKernels& k;
  RoundTimeline* timeline;

  void note(int r, int step, RoundMark m, cudaStream_t stream) const {
    if (timeline) timeline->mark(r, step, m, stream);
  }
  size_t panel_elems() const { return static_cast<size_t>(s.p_.tile) * s.p_.pitch; }
  // Where rank r finds the row panel of round g.first + q, and puts its pivot column transposed.
  int* row_panel(int r, const Step& g, int q = 0) const {
    return s.ranks_[r]->panels[g.buffer].get() + q * panel_elems();
  }
  int* column_panel(int r, const Step& g, int q = 0) const {
    return s.ranks_[r]->columns[g.buffer].get() + q * panel_elems();
  }
  cudaStream_t stream(int r, bool on_side) const {
    return on_side ? s.ranks_[r]->side : s.ranks_[r]->main;
  }
  bool working(int r) const { return !s.p_.idle(r); }

  // The owner of round g.first + q closes its pivot, updates its row and copies it into its own
  // panel buffer; nothing where the owner is another process's.
  void make_panel(const Step& g, int q, bool on_side) const {
    const int kt = g.first + q, o = s.p_.owner(kt), lt = kt - s.p_.first_tile(o);
    if (!s.ranks_[o]) return;
    DeviceGuard guard(s.ranks_[o]->device);
    const cudaStream_t st = stream(o, on_side);
    const RowBlock b = s.row_block(o);
    k.close_pivot(b, lt, kt, st);
    k.pivot_row(b, lt, kt, st);
    APSP_CUDA_CHECK(cudaMemcpyAsync(row_panel(o, g, q), b.d + lt * panel_elems(),
                                    s.p_.panel_bytes(), cudaMemcpyDeviceToDevice, st));
    if (q == g.rounds - 1) note(o, g.index, RoundMark::kPanelMade, st);
  }

  // The panel of round g.first + q from its owner's buffer into every other rank's.
  void broadcast(const Step& g, int q, bool on_side) const {
    const int P = s.p_.ranks;
    std::vector<void*> buffers(P);
    std::vector<cudaStream_t> streams(P);
    for (int r : s.local_) buffers[r] = row_panel(r, g, q), streams[r] = stream(r, on_side);
    s.t_.broadcast(s.p_.owner(g.first + q), buffers, s.p_.panel_bytes(), streams);
    if (!timeline || q != g.rounds - 1) return;
    for (int r : s.local_) {
      DeviceGuard guard(s.ranks_[r]->device);
      note(r, g.index, RoundMark::kPanelLanded, streams[r]);
    }
  }

  // Rank r's pivot column of round g.first + q, from its panel, into its column panel.
  void pivot_column(int r, const Step& g, int q, cudaStream_t st) const {
    k.pivot_column(s.row_block(r), g.first + q, row_panel(r, g, q), column_panel(r, g, q), st);
  }

  // Step g's panels and pivot columns, on every local rank, once g's lines have every earlier
  // round: round g.first's panel, sent, and every rank's pivot column of it; for a pair, then on
  // the owner of round s = g.first + 1 its row tile s with round g.first and its panel, sent, and
  // on every rank its column tiles s with round g.first and its pivot column s. On the side
  // streams under look-ahead (then each rank's `ready` follows), else on the main streams.
  void prepare(const Step& g, bool on_side) const {
    make_panel(g, 0, on_side);
    broadcast(g, 0, on_side);
    for_working([&](int r, cudaStream_t st) { pivot_column(r, g, 0, st); }, on_side);
    if (g.rounds == 2) {
      const int second = g.first + 1, o = s.p_.owner(second);
      // Off row tile `second` (the owner's row update has it) and off round g.first's lines.
      const auto column_second = [&](int r, cudaStream_t st) {
        const RowBlock b = s.row_block(r);
        k.phase3(b, {{.rows = b.row_tiles, .first_col = second, .cols = 1, .skip_row = second}},
                 g.first, row_panel(r, g), column_panel(r, g), st);
      };
      for_working(
          [&](int r, cudaStream_t st) {
            const RowBlock b = s.row_block(r);
            if (r == o)
              k.phase3(b, {{.first_row = second - b.first_tile, .rows = 1, .cols = b.tiles}},
                       g.first, row_panel(r, g), column_panel(r, g), st);
            else
              column_second(r, st);  // before the wait for the owner's panel
          },
          on_side);
      make_panel(g, 1, on_side);
      broadcast(g, 1, on_side);
      for_working(
          [&](int r, cudaStream_t st) {
            if (r == o) column_second(r, st);
            pivot_column(r, g, 1, st);
          },
          on_side);
    }
    if (!on_side) return;
    for (int r : s.local_) {
      DeviceGuard guard(s.ranks_[r]->device);
      APSP_CUDA_CHECK(cudaEventRecord(s.ranks_[r]->ready, s.ranks_[r]->side));
    }
  }

  // f(r, stream) for every local rank that holds rows, its device current.
  template <class F>
  void for_working(F&& f, bool on_side) const {
    for (int r : s.local_) {
      if (!working(r)) continue;
      DeviceGuard guard(s.ranks_[r]->device);
      f(r, stream(r, on_side));
    }
  }

  // Step g's phase 3 on `tiles` of rank r: the pair's pass, or one round's.
  void phase3(int r, const Step& g, const Phase3Launch& tiles, cudaStream_t st) const {
    const RowBlock b = s.row_block(r);
    if (g.rounds == 2)
      k.pair_phase3(b, tiles, g.first, row_panel(r, g), column_panel(r, g), st);
    else
      k.phase3(b, tiles, g.first, row_panel(r, g), column_panel(r, g), st);
  }

  // Under look-ahead, on rank r's side stream: step g's phase 3 on the lines of the next step, in
  // one launch: the rows of it that r owns (off g's final line; first, as the next pivot needs
  // them first) and its column tiles (off g's final line and the next step's rows), so that the
  // next step's panels can be made during g's phase 3.
  void next_lines(int r, const Step& g, const Step& next, cudaStream_t st) const {
    const RowBlock b = s.row_block(r);
    const int span = next.last() - g.last() + 1;
    const Phase3Tiles columns{.rows = b.row_tiles,
                              .first_col = next.first,
                              .cols = next.rounds,
                              .skip_row = g.last(),
                              .skip_rows = span};
    const int lo = std::max(next.first, b.first_tile);
    const int hi = std::min(next.last() + 1, b.first_tile + b.row_tiles);
    if (lo >= hi) return phase3(r, g, {columns}, st);
    const Phase3Tiles rows{
        .first_row = lo - b.first_tile, .rows = hi - lo, .cols = b.tiles, .skip_col = g.last()};
    phase3(r, g, {rows, columns}, st);
    note(r, g.index, RoundMark::kAheadDone, st);
  }

  // Step g's phase 3 on rank r's main stream: every tile but g's final line (round g.first's for
  // one round, the second round's for a pair) and, under look-ahead, the next step's lines.
  void rest(int r, const Step& g, const Step* next) const {
    const RowBlock b = s.row_block(r);
    const int span = (next ? next->last() : g.last()) - g.last() + 1;
    Rank& R = *s.ranks_[r];
    phase3(r, g,
           {{.rows = b.row_tiles,
             .cols = b.tiles,
             .skip_row = g.last(),
             .skip_col = g.last(),
             .skip_rows = span,
             .skip_cols = span}},
           R.main);
    note(r, g.index, RoundMark::kFinished, R.main);
  }
};

void DistributedSolver::solve(const DistributedConfig& c, RoundTimeline* timeline) {
  if (!c.kernels) throw std::invalid_argument("distributed solve: a config without kernels");
  if (c.tile() != p_.tile)
    throw std::invalid_argument("distributed solve at tile " + std::to_string(c.tile()) +
                                " of a partition at tile " + std::to_string(p_.tile));
  if (c.pairs && !c.kernels->pair_phase3)
    throw std::invalid_argument("distributed solve: pairs of rounds at " + c.kernels->name +
                                ", which has no pair pass");
  const Loop loop{*this, *c.kernels, timeline};
  std::set<int> devices;
  for (int r : local_) devices.insert(ranks_[r]->device);
  for (int d : devices) {
    DeviceGuard guard(d);
    loop.k.prepare_device();
  }
  if (timeline)
    for (int r : local_) {
      DeviceGuard guard(ranks_[r]->device);
      timeline->start(r, ranks_[r]->main);
    }
  const std::vector<Step> steps = schedule_steps(p_, c.lookahead, runs_pairs(c, p_));
  loop.prepare(steps.front(), false);
  for (const Step& g : steps) {
    const bool more = g.index + 1 < static_cast<int>(steps.size());
    const Step* ahead =
        more && steps[g.index + 1].prepared_in == g.index ? &steps[g.index + 1] : nullptr;
    for (int r : local_) {
      Rank& R = *ranks_[r];
      DeviceGuard guard(R.device);
      if (g.prepared_in >= 0) APSP_CUDA_CHECK(cudaStreamWaitEvent(R.main, R.ready));
      if (loop.working(r)) loop.note(r, g.index, RoundMark::kStarted, R.main);
      // Step g - 1's phase 3, the last to read the next step's buffers and to write its lines,
      // is all before this point.
      if (!ahead) continue;
      APSP_CUDA_CHECK(cudaEventRecord(R.fork, R.main));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(R.side, R.fork));
      if (loop.working(r)) loop.next_lines(r, g, *ahead, R.side);
    }
    if (ahead) loop.prepare(*ahead, true);
    for (int r : local_) {
      DeviceGuard guard(ranks_[r]->device);
      if (loop.working(r)) loop.rest(r, g, ahead);
    }
    if (more && !ahead) loop.prepare(steps[g.index + 1], false);
  }
}

}  // namespace apsp::harness
