// The distributed engine's host side: the compiled instances and the round loop
// (harness/multigpu/distributed.hpp says what it does; kernels/distributed.cuh holds the kernels).
#include <cuda_runtime_api.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/multigpu/distributed.hpp"
#include "kernels/distributed.cuh"

namespace apsp::harness {

namespace {

// One compiled (tile, chunk, per_thread): its kernels and launch sizes.
struct Instance {
  int tile, chunk, per_thread;
  void (*close)(int*, int, int, int);
  void (*row)(int*, int, int, int, int);
  void (*column)(int*, int, int, int, int, const int*);
  void (*phase3)(int*, int, int, int, int, int, int, const int*);
  int threads1, threads2, threads3, smem1, smem2, smem3;

  // Dynamic shared memory above the default 48 KB needs the attribute, on each device.
  void allow_smem() const {
    APSP_CUDA_CHECK(cudaFuncSetAttribute(close, cudaFuncAttributeMaxDynamicSharedMemorySize, smem1));
    APSP_CUDA_CHECK(cudaFuncSetAttribute(row, cudaFuncAttributeMaxDynamicSharedMemorySize, smem2));
    APSP_CUDA_CHECK(cudaFuncSetAttribute(column, cudaFuncAttributeMaxDynamicSharedMemorySize, smem2));
    APSP_CUDA_CHECK(cudaFuncSetAttribute(phase3, cudaFuncAttributeMaxDynamicSharedMemorySize, smem3));
  }
};

template <int kTile, int kChunk, int kPer>
Instance make_instance() {
  namespace s = kernels::sm90;
  namespace d = kernels::distributed;
  static_assert(s::product_fits<kTile, kChunk, kPer>(), "sm90's rule: at most 256 threads, whole 16-byte loads");
  return {kTile,
          kChunk,
          kPer,
          d::close_pivot_tile<kTile>,
          d::pivot_row<kTile>,
          d::pivot_column<kTile>,
          d::phase3<kTile, kChunk, kPer>,
          s::kPhase1Edge * s::kPhase1Edge,
          d::Phase2<kTile>::kThreads,
          s::product_threads<kTile, kPer>(),
          s::pivot_smem<kTile>(),
          d::Phase2<kTile>::kSmem,
          s::product_smem<kTile, kChunk>()};
}

// sm90's compiled (tile, chunk, per_thread) points (variants/05_sm90.cu: ProductFits, NoSpills;
// the phase 3 kernel here is sm90's lookahead-0 phase3, which compiles at 64/32/8 too).
const std::vector<Instance>& instances() {
  static const std::vector<Instance> all = {make_instance<64, 8, 8>(),  make_instance<64, 16, 4>(),
                                            make_instance<64, 16, 8>(), make_instance<64, 32, 4>(),
                                            make_instance<64, 32, 8>(), make_instance<128, 8, 8>()};
  return all;
}

const Instance* find_instance(const DistributedConfig& c) {
  for (const Instance& i : instances())
    if (i.tile == c.tile && i.chunk == c.chunk && i.per_thread == c.per_thread) return &i;
  return nullptr;
}

}  // namespace

DistributedConfig distributed_config(const Config& c) {
  DistributedConfig d;
  auto get = [&](const char* name, int& value) {
    if (auto it = c.find(name); it != c.end()) value = it->second;
  };
  get("tile", d.tile);
  get("chunk", d.chunk);
  get("per_thread", d.per_thread);
  if (auto it = c.find("lookahead"); it != c.end()) d.lookahead = it->second != 0;
  // sm90's panel config (tile 128, chunk 16: kernels/sm90.cuh, ordinary_from_panel) runs every
  // product but its ordinary tiles at chunk 8; the engine has no panel and runs them all so.
  namespace s = kernels::sm90;
  if (d.tile == 128 && d.chunk == s::kRingChunk && d.per_thread == 8)
    d.chunk = s::product_chunk<128, s::kRingChunk, 8>();
  return d;
}

std::string distributed_check(const DistributedConfig& c) {
  if (find_instance(c)) return "";
  std::string have;
  for (const Instance& i : instances())
    have += (have.empty() ? "" : ", ") + std::to_string(i.tile) + "/" + std::to_string(i.chunk) + "/" +
            std::to_string(i.per_thread);
  return "the distributed engine has no kernels for tile " + std::to_string(c.tile) + ", chunk " +
         std::to_string(c.chunk) + ", per_thread " + std::to_string(c.per_thread) + " (tile/chunk/per_thread: " +
         have + ")";
}

// A rank's buffers, streams and events, on its device.
struct DistributedSolver::Rank {
  int device;
  DeviceBuffer<int> block, panels[Partition::kPanelBuffers];
  cudaStream_t main = nullptr, side = nullptr;
  cudaEvent_t freed = nullptr, fork = nullptr, ready = nullptr;

  Rank(int dev, size_t block_elems, size_t panel_elems) : device(dev) {
    DeviceGuard guard(device);
    block = DeviceBuffer<int>(block_elems);
    for (DeviceBuffer<int>& p : panels) p = DeviceBuffer<int>(panel_elems);
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

DistributedSolver::DistributedSolver(Transport& transport, const Partition& p) : t_(transport), p_(p) {
  if (t_.ranks() != p_.ranks)
    throw std::invalid_argument("distributed solver: a partition over " + std::to_string(p_.ranks) +
                                " ranks for a transport of " + std::to_string(t_.ranks()));
  const size_t panel = static_cast<size_t>(p_.tile) * p_.pitch;
  for (int r = 0; r < p_.ranks; ++r)
    ranks_.push_back(std::make_unique<Rank>(t_.device(r), static_cast<size_t>(p_.padded_rows(r)) * p_.pitch, panel));
}

DistributedSolver::~DistributedSolver() = default;

int* DistributedSolver::block(int r) const { return ranks_.at(r)->block.get(); }
cudaStream_t DistributedSolver::stream(int r) const { return ranks_.at(r)->main; }

void DistributedSolver::solve(const DistributedConfig& c) {
  if (const std::string why = distributed_check(c); !why.empty()) throw std::invalid_argument(why);
  if (c.tile != p_.tile)
    throw std::invalid_argument("distributed solve at tile " + std::to_string(c.tile) + " of a partition at tile " +
                                std::to_string(p_.tile));
  const Instance& k = *find_instance(c);
  std::set<int> devices;
  for (const auto& rank : ranks_) devices.insert(rank->device);
  for (int d : devices) {
    DeviceGuard guard(d);
    k.allow_smem();
  }
  const int P = p_.ranks, n = p_.n, pitch = p_.pitch, tiles = p_.tiles;
  const std::vector<Round> rounds = schedule_rounds(p_, c.lookahead);

  // Where rank r reads round kt's panel: its own rows in place if it owns kt, else the buffer.
  auto panel_of = [&](int r, int kt) -> int* {
    Rank& R = *ranks_[r];
    if (p_.owner(kt) != r) return R.panels[kt % Partition::kPanelBuffers].get();
    return R.block.get() + static_cast<size_t>(kt - p_.first_tile(r)) * p_.tile * pitch;
  };
  // Phases 1 and 2 (row) of round kt on its owner, on its main or side stream.
  auto prepare = [&](int kt, bool on_side) {
    const int o = p_.owner(kt), lt = kt - p_.first_tile(o);
    Rank& R = *ranks_[o];
    DeviceGuard guard(R.device);
    const cudaStream_t s = on_side ? R.side : R.main;
    k.close<<<1, k.threads1, k.smem1, s>>>(R.block.get(), pitch, lt, kt);
    APSP_CUDA_CHECK_LAUNCH();
    k.row<<<tiles, k.threads2, k.smem2, s>>>(R.block.get(), pitch, n, lt, kt);
    APSP_CUDA_CHECK_LAUNCH();
  };
  // Panel kt from its owner into every other rank's buffer kt % 2, on the main or side streams.
  auto broadcast = [&](int kt, bool on_side) {
    std::vector<void*> buffers(P);
    std::vector<cudaStream_t> streams(P);
    for (int r = 0; r < P; ++r) {
      buffers[r] = panel_of(r, kt);
      streams[r] = on_side ? ranks_[r]->side : ranks_[r]->main;
    }
    t_.broadcast(p_.owner(kt), buffers, p_.panel_bytes(), streams);
  };

  prepare(0, false);
  broadcast(0, false);
  for (const Round& round : rounds) {
    const int kt = round.kt;
    const bool ahead = kt + 1 < tiles && rounds[kt + 1].prepared_in == kt;
    const int next = ahead ? rounds[kt + 1].owner : -1;
    for (int r = 0; r < P; ++r) {
      Rank& R = *ranks_[r];
      DeviceGuard guard(R.device);
      if (round.prepared_in >= 0) APSP_CUDA_CHECK(cudaStreamWaitEvent(R.main, R.ready));  // panel kt landed
      // Round kt - 1, the last to read buffer (kt + 1) % 2, is all before this point.
      if (ahead) APSP_CUDA_CHECK(cudaEventRecord(R.freed, R.main));
      if (p_.idle(r)) continue;
      const int first = p_.first_tile(r);
      const int* panel = panel_of(r, kt);
      k.column<<<p_.tile_count(r), k.threads2, k.smem2, R.main>>>(R.block.get(), pitch, n, first, kt, panel);
      APSP_CUDA_CHECK_LAUNCH();
      int skip = -1;
      if (r == next) {
        // Row tile kt + 1 (round kt), then pivot kt + 1 and its row, beside the rest of phase 3.
        const int lt = kt + 1 - first;
        APSP_CUDA_CHECK(cudaEventRecord(R.fork, R.main));
        APSP_CUDA_CHECK(cudaStreamWaitEvent(R.side, R.fork));
        k.phase3<<<dim3(tiles, 1), k.threads3, k.smem3, R.side>>>(R.block.get(), pitch, n, first, lt, kt, -1, panel);
        APSP_CUDA_CHECK_LAUNCH();
        prepare(kt + 1, true);
        skip = kt + 1;
      }
      k.phase3<<<dim3(tiles, p_.tile_count(r)), k.threads3, k.smem3, R.main>>>(R.block.get(), pitch, n, first, 0, kt,
                                                                                skip, panel);
      APSP_CUDA_CHECK_LAUNCH();
    }
    if (ahead) {
      for (int r = 0; r < P; ++r) {
        if (r == next) continue;
        Rank& R = *ranks_[r];
        DeviceGuard guard(R.device);
        APSP_CUDA_CHECK(cudaStreamWaitEvent(R.side, R.freed));
      }
      broadcast(kt + 1, true);
      for (int r = 0; r < P; ++r) {
        Rank& R = *ranks_[r];
        DeviceGuard guard(R.device);
        APSP_CUDA_CHECK(cudaEventRecord(R.ready, R.side));
      }
    } else if (kt + 1 < tiles) {
      prepare(kt + 1, false);
      broadcast(kt + 1, false);
    }
  }
}

}  // namespace apsp::harness
