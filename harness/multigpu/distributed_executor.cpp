// The distributed engine behind the Executor interface (harness/multigpu/distributed.hpp says what each
// call does).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/rank_certificate.hpp"

namespace apsp::harness {

namespace {

// Free memory a pristine copy must leave on its device (the driver, other allocations).
constexpr uint64_t kPristineMargin = uint64_t{256} << 20;

uint64_t free_bytes(int device) {
  DeviceGuard guard(device);
  size_t free = 0, total = 0;
  APSP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return free;
}

// A sample's clock across the ranks: the start recorded on the first local rank, which every
// other local rank's main stream waits for; the stop recorded there after every local rank's main
// stream is done. The start first waits for every local rank's stream, so that no rank's restore
// or flush is timed. Under a launcher (one process per GPU) the processes meet before the start
// (a host barrier, so that none times its wait for another), and every process takes the slowest
// process's time: their samplers then see the same samples and decide alike.
class RanksClock final : public SampleClock {
 public:
  // `solver`: the executor's, as it is at each sample.
  RanksClock(Transport& t, const std::unique_ptr<DistributedSolver>& solver)
      : t_(t), solver_(solver), local_(t.local_ranks()) {
    DeviceGuard guard(t_.device(local_.front()));
    start_ = std::make_unique<CudaEvent>();
    stop_ = std::make_unique<CudaEvent>();
    for (int r : local_) {
      DeviceGuard on_rank(t_.device(r));
      done_[r] = std::make_unique<CudaEvent>();
    }
  }

  void start() override {
    solver_->synchronize();
    if (t_.processes() > 1) t_.allgather("");
    const int first = local_.front();
    {
      DeviceGuard guard(t_.device(first));
      start_->record(solver_->stream(first));
    }
    for (int r : local_) {
      if (r == first) continue;
      DeviceGuard guard(t_.device(r));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(solver_->stream(r), start_->get()));
    }
  }

  void stop() override {
    const int first = local_.front();
    for (int r : local_) {
      if (r == first) continue;
      {
        DeviceGuard guard(t_.device(r));
        done_.at(r)->record(solver_->stream(r));
      }
      DeviceGuard guard(t_.device(first));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(solver_->stream(first), done_.at(r)->get()));
    }
    DeviceGuard guard(t_.device(first));
    stop_->record(solver_->stream(first));
  }

  double elapsed_ms() override {
    double ms = 0;
    {
      DeviceGuard guard(t_.device(local_.front()));
      ms = apsp::elapsed_ms(*start_, *stop_);
    }
    return max_across(t_, ms);
  }

 private:
  Transport& t_;
  const std::unique_ptr<DistributedSolver>& solver_;
  const std::vector<int> local_;
  std::unique_ptr<CudaEvent> start_, stop_;         // on the first local rank's device
  std::map<int, std::unique_ptr<CudaEvent>> done_;  // per local rank, on its device
};

class DistributedExecutor final : public LocalExecutor {
 public:
  DistributedExecutor(std::unique_ptr<Transport> t, int pairs_from_row_tiles)
      : t_(std::move(t)), pairs_from_row_tiles_(pairs_from_row_tiles) {
    if (!t_) throw std::invalid_argument("distributed executor: no transport");
    local_ = t_->local_ranks();
    clock_ = std::make_unique<RanksClock>(*t_, solver_);
  }
  ~DistributedExecutor() override {
    // Buffers of one device at a time, each freed on its own device.
    solver_.reset();
    pristine_.clear();
    scrub_.clear();
  }

  void load(const DistMatrix& input) override {
    solver_.reset();  // a new input: the layout is rebuilt (and re-uploaded) at the next sample
    pristine_.clear();
    input_ = input;
  }

  void reserve(const Variant& v, const Config& c) override {
    dc_ = config_of(v, c);
    layout(dc_.tile());
  }

  // Every local rank's block from its pristine copy (or the host), on the rank's stream.
  void restore() override {
    const Partition& p = solver_->partition();
    for (int r : local_) {
      DeviceGuard guard(t_->device(r));
      if (pristine_[r].size() > 0) {
        APSP_CUDA_CHECK(cudaMemcpyAsync(solver_->block(r), pristine_[r].get(), p.block_bytes(r),
                                        cudaMemcpyDeviceToDevice, solver_->stream(r)));
      } else if (p.block_bytes(r) > 0) {
        put_block(r, solver_->block(r));
      }
    }
  }

  // Each device's L2, once, on the stream of its first rank.
  void flush_l2() override {
    std::map<int, bool> flushed;
    for (int r : local_) {
      const int d = t_->device(r);
      DeviceBuffer<char>& scrub = scrub_.at(d);
      if (flushed[d] || scrub.size() == 0) continue;
      DeviceGuard guard(d);
      APSP_CUDA_CHECK(
          cudaMemsetAsync(scrub.get(), ++flushes_ & 0xff, scrub.size(), solver_->stream(r)));
      flushed[d] = true;
    }
  }

  // The engine's config was read by reserve(): nothing is worked out between the clock's start
  // and the launches.
  void run(const Variant&, const Config&, PhaseTimer*) override { solver_->solve(dc_); }

  SampleClock& clock() override { return *clock_; }

  void after_solve(const Variant&, const Config&) override {
    const Partition& p = solver_->partition();
    memory_.solve_bytes = p.max_bytes_per_rank();
    memory_.peak_bytes = 0;
    for (int r : local_) {
      const uint64_t held =
          p.bytes_per_rank(r) + pristine_[r].bytes() + scrub_.at(t_->device(r)).bytes();
      memory_.peak_bytes = std::max(memory_.peak_bytes, held);
    }
  }

  // The blocks gathered into a host DistMatrix; under a launcher every process gets the whole
  // matrix (each rank's block broadcast in turn), so that each checks it as one process does.
  DistMatrix output() override {
    if (!solver_) throw std::logic_error("distributed executor: output() before any sample()");
    const Partition& p = solver_->partition();
    DistMatrix out(p.n);
    if (t_->processes() > 1) {
      gather_everywhere(out);
      return out;
    }
    for (int r = 0; r < p.ranks; ++r) {
      if (p.real_rows(r) == 0) continue;
      DeviceGuard guard(t_->device(r));
      get_rows(out.row(p.first_row(r)), solver_->block(r), p.pitch, p.n, p.real_rows(r),
               cudaMemcpyDeviceToHost, solver_->stream(r));
    }
    synchronize();
    return out;
  }

  // Each rank certifies its own rows where they are (rank_certificate.hpp): no gather.
  std::string certify(const InEdges& g) override {
    if (!solver_) throw std::logic_error("distributed executor: certify() before any sample()");
    return certify_ranks(*solver_, g);
  }

  DeviceMemory device_memory() const override { return memory_; }

 private:
  DistributedConfig config_of(const Variant& v, const Config& c) const {
    DistributedConfig dc = distributed_config(v, c);
    dc.pairs_from_row_tiles = pairs_from_row_tiles_;
    return dc;
  }

  // The partition at `tile`, its blocks and panels, the pristine copies that fit, the L2 flush
  // buffers: made when the tile changes or a new input came.
  void layout(int tile) {
    if (input_.n() == 0) throw std::logic_error("distributed executor: sample() before load()");
    if (solver_ && solver_->partition().tile == tile) return;
    solver_.reset();
    pristine_.clear();
    const Partition p = partition_rows(input_.n(), tile, t_->ranks());
    for (int r : local_) {
      const int d = t_->device(r);
      if (scrub_.count(d)) continue;
      DeviceGuard guard(d);
      int l2 = 0;
      APSP_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, d));
      scrub_.emplace(d, DeviceBuffer<char>(2 * static_cast<size_t>(l2)));
    }
    // Checked before allocating: what the ranks on each device need, against its free memory.
    if (const std::string why = device_memory_problem(*t_, p); !why.empty())
      throw std::runtime_error(why);
    solver_ = std::make_unique<DistributedSolver>(*t_, p);
    // A pristine copy per local rank where it fits beside the solve; otherwise restores read the
    // host.
    pristine_.resize(p.ranks);
    for (int r : local_) {
      const int d = t_->device(r);
      DeviceGuard guard(d);
      if (p.block_bytes(r) > 0 && free_bytes(d) > p.block_bytes(r) + kPristineMargin) {
        pristine_[r] = DeviceBuffer<int>(p.block_bytes(r) / sizeof(int));
        put_block(r, pristine_[r].get());
      }
    }
    synchronize();
  }

  // Rank r's rows of the input, laid out (padding included) into dst, on the rank's stream.
  void put_block(int r, int* dst) {
    const Partition& p = solver_->partition();
    const int32_t* src = p.real_rows(r) > 0 ? input_.row(p.first_row(r)) : input_.data();
    put_rows(dst, p.pitch, p.padded_rows(r), src, p.n, p.real_rows(r), cudaMemcpyHostToDevice,
             solver_->stream(r));
  }

  void synchronize() { solver_->synchronize(); }

  // Under a launcher (one local rank): each rank's block broadcast in turn from its process into
  // every other's staging buffer, and read down into `out` everywhere.
  void gather_everywhere(DistMatrix& out) {
    const Partition& p = solver_->partition();
    const int mine = local_.front();
    DeviceGuard guard(t_->device(mine));
    uint64_t largest = 0;
    for (int r = 0; r < p.ranks; ++r) largest = std::max(largest, p.block_bytes(r));
    DeviceBuffer<int> staging(largest / sizeof(int));
    std::vector<void*> buffers(p.ranks, nullptr);
    std::vector<cudaStream_t> streams(p.ranks, nullptr);
    streams[mine] = solver_->stream(mine);
    for (int r = 0; r < p.ranks; ++r) {
      if (p.real_rows(r) == 0) continue;
      int* from = r == mine ? solver_->block(r) : staging.get();
      buffers[mine] = from;
      t_->broadcast(r, buffers, p.block_bytes(r), streams);
      get_rows(out.row(p.first_row(r)), from, p.pitch, p.n, p.real_rows(r), cudaMemcpyDeviceToHost,
               streams[mine]);
      APSP_CUDA_CHECK(cudaStreamSynchronize(streams[mine]));  // staging is the next rank's
    }
  }

  std::unique_ptr<Transport> t_;
  int pairs_from_row_tiles_;
  std::vector<int> local_;  // the ranks this process drives (Transport::local_ranks)
  DistMatrix input_;
  std::unique_ptr<DistributedSolver> solver_;
  std::vector<DeviceBuffer<int>> pristine_;  // per rank; empty where it did not fit or not local
  std::map<int, DeviceBuffer<char>> scrub_;  // per device: twice its L2
  DistributedConfig dc_;                     // of the latest reserve()
  std::unique_ptr<RanksClock> clock_;
  int flushes_ = 0;
  DeviceMemory memory_;
};

}  // namespace

std::unique_ptr<Executor> make_distributed_executor(std::unique_ptr<Transport> t,
                                                    int pairs_from_row_tiles) {
  return std::make_unique<DistributedExecutor>(std::move(t), pairs_from_row_tiles);
}

std::unique_ptr<Executor> make_multi_gpu_executor(int gpus, const std::string& transport,
                                                  int device) {
  // Under a launcher the NCCL transport is this process's rank of the launched world (one GPU a
  // process, gpus its size): every process makes the same calls, each on its own rank.
  return make_distributed_executor(make_transport(transport, gpus, device));
}

}  // namespace apsp::harness
