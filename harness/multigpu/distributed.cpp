// The distributed engine's host side: the round loop (harness/multigpu/distributed.hpp says what it
// does), launching the kernels its variant declares (variants/multi_gpu.hpp).
#include "harness/multigpu/distributed.hpp"

#include <cuda_runtime_api.h>

#include <exception>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"

namespace apsp::harness {

std::string distributed_problem(const Variant& v, const Config& c) {
  if (!v.multi_gpu) return v.name + " has no multi-GPU engine (it runs on one GPU)";
  return v.multi_gpu->check(c);
}

DistributedConfig distributed_config(const Variant& v, const Config& c) {
  if (const std::string why = distributed_problem(v, c); !why.empty())
    throw std::invalid_argument(why);
  return v.multi_gpu->engine(c);
}

int distributed_tile(const Variant& v, const Config& c) {
  if (!v.multi_gpu)
    throw std::invalid_argument(v.name + " has no multi-GPU engine (it runs on one GPU)");
  return v.multi_gpu->tile(c);
}

// A rank's buffers, streams and events, on its device. Round kt's pivot-row panel arrives in
// panels[kt % 2], its pivot column transposed goes to columns[kt % 2] (read by the points whose
// phase 3 takes A from it).
struct DistributedSolver::Rank {
  int device;
  DeviceBuffer<int> block, panels[Partition::kPanelBuffers], columns[Partition::kPanelBuffers];
  cudaStream_t main = nullptr, side = nullptr;
  cudaEvent_t freed = nullptr, fork = nullptr, ready = nullptr;

  Rank(int dev, size_t block_elems, size_t panel_elems) : device(dev) {
    DeviceGuard guard(device);
    block = DeviceBuffer<int>(block_elems);
    for (DeviceBuffer<int>& p : panels) p = DeviceBuffer<int>(panel_elems);
    for (DeviceBuffer<int>& c : columns) c = DeviceBuffer<int>(panel_elems);
    main = make_priority_stream(false);
    side = make_priority_stream(true);  // its few blocks go ahead of the waiting phase-3 blocks
    freed = make_ordering_event();
    fork = make_ordering_event();
    ready = make_ordering_event();
  }
  ~Rank() {
    for (cudaEvent_t e : {freed, fork, ready})
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

  void note(int r, int kt, RoundMark m, cudaStream_t stream) const {
    if (timeline) timeline->mark(r, kt, m, stream);
  }

  // Where rank r reads round kt's panel: its own rows in place if it owns kt, else the buffer.
  int* panel_of(int r, int kt) const {
    const Partition& p = s.p_;
    Rank& R = *s.ranks_[r];
    if (p.owner(kt) != r) return R.panels[kt % Partition::kPanelBuffers].get();
    return R.block.get() + static_cast<size_t>(kt - p.first_tile(r)) * p.tile * p.pitch;
  }
  // Where rank r's pivot column of round kt goes transposed.
  int* column_of(int r, int kt) const {
    return s.ranks_[r]->columns[kt % Partition::kPanelBuffers].get();
  }

  // Phases 1 and 2 (row) of round kt on its owner, on its main or side stream; nothing where
  // the owner is another process's.
  void prepare(int kt, bool on_side) const {
    const int o = s.p_.owner(kt), lt = kt - s.p_.first_tile(o);
    if (!s.ranks_[o]) return;
    Rank& R = *s.ranks_[o];
    DeviceGuard guard(R.device);
    const cudaStream_t stream = on_side ? R.side : R.main;
    const RowBlock b = s.row_block(o);
    k.close_pivot(b, lt, kt, stream);
    k.pivot_row(b, lt, kt, stream);
    note(o, kt, RoundMark::kPanelMade, stream);
  }

  // Panel kt from its owner into every other rank's buffer kt % 2, on the main or side streams.
  void broadcast(int kt, bool on_side) const {
    const int P = s.p_.ranks;
    std::vector<void*> buffers(P);
    std::vector<cudaStream_t> streams(P);
    for (int r : s.local_) {
      buffers[r] = panel_of(r, kt);
      streams[r] = on_side ? s.ranks_[r]->side : s.ranks_[r]->main;
    }
    s.t_.broadcast(s.p_.owner(kt), buffers, s.p_.panel_bytes(), streams);
    if (!timeline) return;
    for (int r : s.local_) {
      DeviceGuard guard(s.ranks_[r]->device);
      note(r, kt, RoundMark::kPanelLanded, streams[r]);
    }
  }

  // Round kt on rank r: its pivot column (unless the look-ahead of round kt - 1 did it), then its
  // phase 3. Under look-ahead (`next`, the owner of round kt + 1, >= 0) the side stream takes what
  // round kt + 1 waits for, beside the rest of phase 3: on `next` row tile kt + 1 first, then
  // pivot kt + 1 and its row (the panel, sent by send_ahead); on every other rank, with the column
  // look-ahead, its tiles of column kt + 1.
  void update(int r, int kt, int next, bool column_done, bool column_ahead) const {
    Rank& R = *s.ranks_[r];
    const RowBlock b = s.row_block(r);
    const int* panel = panel_of(r, kt);
    int* const columns = column_of(r, kt);
    note(r, kt, RoundMark::kStarted, R.main);
    if (!column_done) k.pivot_column(b, kt, panel, columns, R.main);
    note(r, kt, RoundMark::kColumnDone, R.main);
    Phase3Tiles rest{0, b.row_tiles, 0, b.tiles};
    if (next >= 0) {
      APSP_CUDA_CHECK(cudaEventRecord(R.fork, R.main));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(R.side, R.fork));
      if (r == next) {
        k.phase3(b, {kt + 1 - b.first_tile, 1, 0, b.tiles}, kt, panel, columns, R.side);
        note(r, kt, RoundMark::kAheadDone, R.side);
        prepare(kt + 1, true);
        rest.skip_row = kt + 1;
      } else if (column_ahead) {
        k.phase3(b, column(b, kt + 1), kt, panel, columns, R.side);
      }
      if (column_ahead) rest.skip_col = kt + 1;
    }
    k.phase3(b, rest, kt, panel, columns, R.main);
    note(r, kt, RoundMark::kFinished, R.main);
  }

  // Column tile c of rank r's rows but the owner of round c's row tile c, for phase 3.
  Phase3Tiles column(const RowBlock& b, int c) const { return {0, b.row_tiles, c, 1, c, -1}; }

  // Panel kt + 1 from `next` on the side streams, each receiver's after its round kt - 1 (event
  // freed); with the column look-ahead each rank then finishes column kt + 1 on its side stream
  // (next's tiles of it, round kt's, and every rank's pivot column kt + 1 from the panel); every
  // main stream then waits for it (event ready).
  void send_ahead(int kt, int next, bool column_ahead) const {
    for (int r : s.local_) {
      if (r == next) continue;
      Rank& R = *s.ranks_[r];
      DeviceGuard guard(R.device);
      APSP_CUDA_CHECK(cudaStreamWaitEvent(R.side, R.freed));
    }
    broadcast(kt + 1, true);
    for (int r : s.local_) {
      Rank& R = *s.ranks_[r];
      DeviceGuard guard(R.device);
      if (column_ahead && !s.p_.idle(r)) {
        const RowBlock b = s.row_block(r);
        if (r == next)
          k.phase3(b, column(b, kt + 1), kt, panel_of(r, kt), column_of(r, kt), R.side);
        k.pivot_column(b, kt + 1, panel_of(r, kt + 1), column_of(r, kt + 1), R.side);
      }
      APSP_CUDA_CHECK(cudaEventRecord(R.ready, R.side));
    }
  }
};

void DistributedSolver::solve(const DistributedConfig& c, RoundTimeline* timeline) {
  if (!c.kernels) throw std::invalid_argument("distributed solve: a config without kernels");
  if (c.tile() != p_.tile)
    throw std::invalid_argument("distributed solve at tile " + std::to_string(c.tile()) +
                                " of a partition at tile " + std::to_string(p_.tile));
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
  const int tiles = p_.tiles;
  const std::vector<Round> rounds = schedule_rounds(p_, c.lookahead);
  loop.prepare(0, false);
  loop.broadcast(0, false);
  bool column_done = false;  // round kt's pivot column, by the look-ahead of round kt - 1
  for (const Round& round : rounds) {
    const int kt = round.kt;
    const bool ahead = kt + 1 < tiles && rounds[kt + 1].prepared_in == kt;
    const int next = ahead ? rounds[kt + 1].owner : -1;
    const bool column_ahead = ahead && c.column_ahead;
    for (int r : local_) {
      Rank& R = *ranks_[r];
      DeviceGuard guard(R.device);
      if (round.prepared_in >= 0)
        APSP_CUDA_CHECK(cudaStreamWaitEvent(R.main, R.ready));  // panel kt landed
      // Round kt - 1, the last to read buffer (kt + 1) % 2, is all before this point.
      if (ahead) APSP_CUDA_CHECK(cudaEventRecord(R.freed, R.main));
      if (!p_.idle(r)) loop.update(r, kt, next, column_done, column_ahead);
    }
    if (ahead) {
      loop.send_ahead(kt, next, column_ahead);
    } else if (kt + 1 < tiles) {
      loop.prepare(kt + 1, false);
      loop.broadcast(kt + 1, false);
    }
    column_done = column_ahead;
  }
}

}  // namespace apsp::harness
