// The distributed engine behind the Executor interface (harness/multigpu/distributed.hpp says what each
// call does).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/measure/matrix_layout.hpp"

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

class DistributedExecutor final : public Executor {
 public:
  explicit DistributedExecutor(std::unique_ptr<Transport> t) : t_(std::move(t)) {
    if (!t_) throw std::invalid_argument("distributed executor: no transport");
    DeviceGuard guard(t_->device(0));
    start_ = std::make_unique<CudaEvent>();
    stop_ = std::make_unique<CudaEvent>();
    for (int r = 0; r < t_->ranks(); ++r) {
      DeviceGuard on_rank(t_->device(r));
      done_.push_back(std::make_unique<CudaEvent>());
    }
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

  double sample(const Variant& v, const Config& c, bool flush_l2) override {
    const DistributedConfig dc = config_of(v, c);
    layout(dc.tile());
    restore(flush_l2);
    const Partition& p = solver_->partition();
    const int ranks = p.ranks;
    {
      DeviceGuard guard(t_->device(0));
      start_->record(solver_->stream(0));
    }
    for (int r = 1; r < ranks; ++r) {
      DeviceGuard guard(t_->device(r));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(solver_->stream(r), start_->get()));
    }
    solver_->solve(dc);
    for (int r = 1; r < ranks; ++r) {
      {
        DeviceGuard guard(t_->device(r));
        done_[r]->record(solver_->stream(r));
      }
      DeviceGuard guard(t_->device(0));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(solver_->stream(0), done_[r]->get()));
    }
    DeviceGuard guard(t_->device(0));
    stop_->record(solver_->stream(0));
    const double ms = elapsed_ms(*start_, *stop_);
    memory_.solve_bytes = p.max_bytes_per_rank();
    memory_.peak_bytes = 0;
    for (int r = 0; r < ranks; ++r) {
      const uint64_t held = p.bytes_per_rank(r) + pristine_[r].bytes() + scrub_.at(t_->device(r)).bytes();
      memory_.peak_bytes = std::max(memory_.peak_bytes, held);
    }
    return ms;
  }

  DistMatrix output() override {
    if (!solver_) throw std::logic_error("distributed executor: output() before any sample()");
    const Partition& p = solver_->partition();
    DistMatrix out(p.n);
    for (int r = 0; r < p.ranks; ++r) {
      if (p.real_rows(r) == 0) continue;
      DeviceGuard guard(t_->device(r));
      get_rows(out.row(p.first_row(r)), solver_->block(r), p.pitch, p.n, p.real_rows(r), cudaMemcpyDeviceToHost,
               solver_->stream(r));
    }
    synchronize();
    return out;
  }

  std::string certify(const InEdges& g) override {
    const DistMatrix out = output();
    return certify_host(out.view(), g);
  }

  double sample_graph(const std::string&, const Variant& v, const Config& c, bool flush_l2) override {
    return sample(v, c, flush_l2);
  }

  std::array<double, 4> phases(const Variant&, const Config&) override { return {0, 0, 0, 0}; }

  DeviceMemory device_memory() const override { return memory_; }

 private:
  DistributedConfig config_of(const Variant& v, const Config& c) const { return distributed_config(v, c); }

  // The partition at `tile`, its blocks and panels, the pristine copies that fit, the L2 flush
  // buffers: made when the tile changes or a new input came.
  void layout(int tile) {
    if (input_.n() == 0) throw std::logic_error("distributed executor: sample() before load()");
    if (solver_ && solver_->partition().tile == tile) return;
    solver_.reset();
    pristine_.clear();
    const Partition p = partition_rows(input_.n(), tile, t_->ranks());
    for (int r = 0; r < p.ranks; ++r) {
      const int d = t_->device(r);
      if (scrub_.count(d)) continue;
      DeviceGuard guard(d);
      int l2 = 0;
      APSP_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, d));
      scrub_.emplace(d, DeviceBuffer<char>(2 * static_cast<size_t>(l2)));
    }
    // Checked before allocating: what the ranks on each device need, against its free memory.
    std::map<int, uint64_t> need;
    for (int r = 0; r < p.ranks; ++r) need[t_->device(r)] += p.bytes_per_rank(r);
    for (const auto& [d, bytes] : need) {
      const uint64_t free = free_bytes(d);
      if (bytes > free)
        throw std::runtime_error("distributed solve of n = " + std::to_string(p.n) + " over " +
                                 std::to_string(p.ranks) + " ranks needs " + std::to_string(bytes) +
                                 " bytes on device " + std::to_string(d) + " (" +
                                 std::to_string(p.max_bytes_per_rank()) + " per rank at most), " +
                                 std::to_string(free) + " free");
    }
    solver_ = std::make_unique<DistributedSolver>(*t_, p);
    // A pristine copy per rank where it fits beside the solve; otherwise restores read the host.
    for (int r = 0; r < p.ranks; ++r) {
      const int d = t_->device(r);
      DeviceGuard guard(d);
      if (p.block_bytes(r) > 0 && free_bytes(d) > p.block_bytes(r) + kPristineMargin) {
        pristine_.emplace_back(p.block_bytes(r) / sizeof(int));
        put_block(r, pristine_.back().get());
      } else {
        pristine_.emplace_back();
      }
    }
    synchronize();
  }

  // Rank r's rows of the input, laid out (padding included) into dst, on the rank's stream.
  void put_block(int r, int* dst) {
    const Partition& p = solver_->partition();
    const int32_t* src = p.real_rows(r) > 0 ? input_.row(p.first_row(r)) : input_.data();
    put_rows(dst, p.pitch, p.padded_rows(r), src, p.n, p.real_rows(r), cudaMemcpyHostToDevice, solver_->stream(r));
  }

  // Every rank's block from its pristine copy (or the host), and the L2 flushes, then waits.
  void restore(bool flush_l2) {
    const Partition& p = solver_->partition();
    std::map<int, bool> flushed;
    for (int r = 0; r < p.ranks; ++r) {
      const int d = t_->device(r);
      DeviceGuard guard(d);
      if (pristine_[r].size() > 0) {
        APSP_CUDA_CHECK(cudaMemcpyAsync(solver_->block(r), pristine_[r].get(), p.block_bytes(r),
                                        cudaMemcpyDeviceToDevice, solver_->stream(r)));
      } else if (p.block_bytes(r) > 0) {
        put_block(r, solver_->block(r));
      }
      DeviceBuffer<char>& scrub = scrub_.at(d);
      if (flush_l2 && !flushed[d] && scrub.size() > 0) {
        APSP_CUDA_CHECK(cudaMemsetAsync(scrub.get(), ++flushes_ & 0xff, scrub.size(), solver_->stream(r)));
        flushed[d] = true;
      }
    }
    synchronize();
  }

  void synchronize() {
    for (int r = 0; r < t_->ranks(); ++r) {
      DeviceGuard guard(t_->device(r));
      APSP_CUDA_CHECK(cudaStreamSynchronize(solver_->stream(r)));
    }
  }

  std::unique_ptr<Transport> t_;
  DistMatrix input_;
  std::unique_ptr<DistributedSolver> solver_;
  std::vector<DeviceBuffer<int>> pristine_;    // per rank; empty where it did not fit
  std::map<int, DeviceBuffer<char>> scrub_;    // per device: twice its L2
  std::unique_ptr<CudaEvent> start_, stop_;    // on rank 0's device
  std::vector<std::unique_ptr<CudaEvent>> done_;  // per rank, on its device
  int flushes_ = 0;
  DeviceMemory memory_;
};

}  // namespace

std::unique_ptr<Executor> make_distributed_executor(std::unique_ptr<Transport> t) {
  return std::make_unique<DistributedExecutor>(std::move(t));
}

std::unique_ptr<Executor> make_multi_gpu_executor(int gpus, const std::string& transport, int device) {
  return make_distributed_executor(make_transport(transport, gpus, device));
}

}  // namespace apsp::harness
