// The single-device transport (harness/multigpu/transport.hpp): P ranks as separate buffers on one GPU;
// and the alone transport, one rank of P by itself.
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/multigpu/transport.hpp"

namespace apsp::harness {

namespace {

// A broadcast is a copy per receiver on the receiver's stream, after the root's stream (event
// `sent_`); the root's stream then waits for every copy (events `read_`), so what follows on it
// may change the source, as after ncclBroadcast.
class SingleDeviceTransport final : public Transport {
 public:
  SingleDeviceTransport(int ranks, int device) : ranks_(ranks), device_(device) {
    if (ranks < 1)
      throw std::invalid_argument("single-device transport: at least one rank is needed, got " +
                                  std::to_string(ranks));
    DeviceGuard guard(device_);
    events_.reserve(ranks + 1);
    for (int i = 0; i <= ranks; ++i) {
      cudaEvent_t e = nullptr;
      APSP_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      events_.push_back(e);
    }
  }
  ~SingleDeviceTransport() override {
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
  }
  SingleDeviceTransport(const SingleDeviceTransport&) = delete;
  SingleDeviceTransport& operator=(const SingleDeviceTransport&) = delete;

  int ranks() const override { return ranks_; }
  int device(int) const override { return device_; }
  std::string name() const override { return "single-device"; }

  void broadcast(int root, const std::vector<void*>& buffers, size_t bytes,
                 const std::vector<cudaStream_t>& streams) override {
    check_broadcast_arguments(*this, root, buffers, streams);
    if (ranks_ == 1 || bytes == 0) return;
    DeviceGuard guard(device_);
    cudaEvent_t sent = events_[ranks_];
    APSP_CUDA_CHECK(cudaEventRecord(sent, streams[root]));
    for (int r = 0; r < ranks_; ++r) {
      if (r == root) continue;
      APSP_CUDA_CHECK(cudaStreamWaitEvent(streams[r], sent));
      APSP_CUDA_CHECK(
          cudaMemcpyAsync(buffers[r], buffers[root], bytes, cudaMemcpyDeviceToDevice, streams[r]));
      APSP_CUDA_CHECK(cudaEventRecord(events_[r], streams[r]));
      APSP_CUDA_CHECK(cudaStreamWaitEvent(streams[root], events_[r]));
    }
  }

 private:
  int ranks_, device_;
  // [r]: rank r's copy done; [ranks]: the root's stream reached the call
  std::vector<cudaEvent_t> events_;
};

class AloneTransport final : public Transport {
 public:
  AloneTransport(int ranks, int rank, int device) : ranks_(ranks), rank_(rank), device_(device) {
    if (rank < 0 || rank >= ranks)
      throw std::invalid_argument("alone transport: rank " + std::to_string(rank) + " of " +
                                  std::to_string(ranks));
  }
  int ranks() const override { return ranks_; }
  int device(int) const override { return device_; }
  std::string name() const override { return "alone"; }
  void broadcast(int root, const std::vector<void*>& buffers, size_t,
                 const std::vector<cudaStream_t>& streams) override {
    check_broadcast_arguments(*this, root, buffers, streams);
  }
  std::vector<int> local_ranks() const override { return {rank_}; }

 private:
  int ranks_, rank_, device_;
};

}  // namespace

std::unique_ptr<Transport> make_single_device_transport(int ranks, int device) {
  return std::make_unique<SingleDeviceTransport>(ranks, device);
}

std::unique_ptr<Transport> make_alone_transport(int ranks, int rank, int device) {
  return std::make_unique<AloneTransport>(ranks, rank, device);
}

namespace {

TransportKind single_device_kind() {
  return {"single-device",
          "every rank as separate buffers on one GPU: the distributed schedule checked on a "
          "machine with one GPU, "
          "its times no speedup",
          /*shares_device=*/true, make_single_device_transport};
}

}  // namespace

APSP_REGISTER_TRANSPORT(single_device_kind)

}  // namespace apsp::harness
