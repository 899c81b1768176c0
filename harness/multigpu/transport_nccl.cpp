// The NCCL transport (harness/multigpu/transport.hpp): one process, one communicator per GPU
// (ncclCommInitAll), every rank's ncclBroadcast in one group; or, under a launcher
// (launch.hpp), one process per GPU, each with its own rank of one communicator
// (ncclCommInitRank, the unique id handed out by the rendezvous, rendezvous.hpp). Compiled with APSP_HAVE_NCCL = 1
// when CMake found NCCL (harness/multigpu/CMakeLists.txt); otherwise its factory says the build has none.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "harness/multigpu/launch.hpp"
#include "harness/multigpu/rendezvous.hpp"
#include "harness/multigpu/transport.hpp"

#if APSP_HAVE_NCCL
#include <nccl.h>
#endif

namespace apsp::harness {

#if APSP_HAVE_NCCL

namespace {

void nccl_check(ncclResult_t result, const char* call) {
  if (result != ncclSuccess && result != ncclInProgress)
    throw std::runtime_error(std::string("NCCL: ") + call +
                             " failed: " + ncclGetErrorString(result));
}
#define APSP_NCCL_CHECK(call) nccl_check((call), #call)

// Before NCCL initialises: no NVLink multicast (NVLS), which can put GPUs shared with other users
// out of service. Always overwritten, whatever the environment says, and checked: a process that
// could not set it must not start NCCL.
void switch_off_nvlink_multicast() {
  if (setenv("NCCL_NVLS_ENABLE", "0", 1) != 0)
    throw std::runtime_error(std::string("NCCL transport: cannot set NCCL_NVLS_ENABLE=0: ") +
                             std::strerror(errno));
}

class NcclTransport final : public Transport {
 public:
  explicit NcclTransport(const std::vector<int>& devices) : devices_(devices) {
    int count = 0;
    APSP_CUDA_CHECK(cudaGetDeviceCount(&count));
    if (devices.empty()) throw std::invalid_argument("NCCL transport: no devices given");
    std::set<int> seen;
    for (int d : devices) {
      if (d < 0 || d >= count)
        throw std::invalid_argument("NCCL transport: device " + std::to_string(d) + " asked, " +
                                    std::to_string(count) + " present");
      if (!seen.insert(d).second)
        throw std::invalid_argument("NCCL transport: device " + std::to_string(d) +
                                    " given twice (one rank per GPU)");
    }
    switch_off_nvlink_multicast();
    comms_.resize(devices.size());
    APSP_NCCL_CHECK(
        ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data()));
  }
  ~NcclTransport() override {
    for (ncclComm_t c : comms_)
      if (c) ncclCommDestroy(c);  // no throw from a destructor
  }
  NcclTransport(const NcclTransport&) = delete;
  NcclTransport& operator=(const NcclTransport&) = delete;

  int ranks() const override { return static_cast<int>(devices_.size()); }
  int device(int rank) const override { return devices_.at(rank); }
  std::string name() const override { return "nccl"; }

  void broadcast(int root, const std::vector<void*>& buffers, size_t bytes,
                 const std::vector<cudaStream_t>& streams) override {
    check_broadcast_arguments(*this, root, buffers, streams);
    if (bytes == 0) return;
    APSP_NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < ranks(); ++r) {
      // The root sends in place (recvbuff = sendbuff); a receiver's sendbuff is not read.
      const ncclResult_t result =
          ncclBroadcast(buffers[root], buffers[r], bytes, ncclInt8, root, comms_[r], streams[r]);
      if (result != ncclSuccess) {
        ncclGroupEnd();
        nccl_check(result, "ncclBroadcast");
      }
    }
    APSP_NCCL_CHECK(ncclGroupEnd());
  }

 private:
  std::vector<int> devices_;
  std::vector<ncclComm_t> comms_;
};

// One rank of a launched world: this process's GPU (the local rank, modulo the GPUs it sees),
// its communicator, and the rendezvous for the host-side exchanges.
class NcclRankTransport final : public Transport {
 public:
  explicit NcclRankTransport(const LaunchWorld& w) : world_(w), meet_(w) {
    int count = 0;
    APSP_CUDA_CHECK(cudaGetDeviceCount(&count));
    if (count < 1)
      throw std::runtime_error("NCCL transport: process " + std::to_string(w.rank) +
                               " sees no GPU");
    device_ = w.local_rank % count;
    APSP_CUDA_CHECK(cudaSetDevice(device_));
    switch_off_nvlink_multicast();
    ncclUniqueId id{};
    std::string bytes(sizeof id, '\0');
    if (w.rank == 0) {
      APSP_NCCL_CHECK(ncclGetUniqueId(&id));
      std::memcpy(bytes.data(), &id, sizeof id);
    }
    bytes = meet_.broadcast(bytes);
    if (bytes.size() != sizeof id) throw std::runtime_error("NCCL transport: a bad unique id");
    std::memcpy(&id, bytes.data(), sizeof id);
    APSP_NCCL_CHECK(ncclCommInitRank(&comm_, w.size, id, w.rank));
  }
  ~NcclRankTransport() override {
    if (comm_) ncclCommDestroy(comm_);
  }
  NcclRankTransport(const NcclRankTransport&) = delete;
  NcclRankTransport& operator=(const NcclRankTransport&) = delete;

  int ranks() const override { return world_.size; }
  int device(int rank) const override {
    if (rank != world_.rank)
      throw std::logic_error("NCCL transport: rank " + std::to_string(rank) +
                             " is another process's");
    return device_;
  }
  std::string name() const override { return "nccl"; }
  std::vector<int> local_ranks() const override { return {world_.rank}; }
  int process() const override { return world_.rank; }
  int processes() const override { return world_.size; }
  std::vector<std::string> allgather(const std::string& mine) override {
    return meet_.allgather(mine);
  }

  void broadcast(int root, const std::vector<void*>& buffers, size_t bytes,
                 const std::vector<cudaStream_t>& streams) override {
    check_broadcast_arguments(*this, root, buffers, streams);
    if (bytes == 0) return;
    void* mine = buffers[world_.rank];
    APSP_NCCL_CHECK(ncclBroadcast(mine, mine, bytes, ncclInt8, root, comm_, streams[world_.rank]));
  }

  void send(int from, int to, const void* src, void* dst, size_t bytes,
            cudaStream_t stream) override {
    if (from == world_.rank)
      APSP_NCCL_CHECK(ncclSend(src, bytes, ncclInt8, to, comm_, stream));
    else if (to == world_.rank)
      APSP_NCCL_CHECK(ncclRecv(dst, bytes, ncclInt8, from, comm_, stream));
  }

 private:
  LaunchWorld world_;
  Rendezvous meet_;
  int device_ = 0;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>& devices) {
  return std::make_unique<NcclTransport>(devices);
}

std::unique_ptr<Transport> make_nccl_rank_transport(const LaunchWorld& w) {
  return std::make_unique<NcclRankTransport>(w);
}

bool nccl_available() { return true; }

#else

std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>&) {
  throw std::runtime_error(
      "NCCL transport: this build has no NCCL (CMake found no nccl.h or libnccl; set NCCL_ROOT)");
}

std::unique_ptr<Transport> make_nccl_rank_transport(const LaunchWorld&) {
  return make_nccl_transport({});
}

bool nccl_available() { return false; }

#endif

namespace {

// Rank r on GPU r; under a launcher, this process's rank of the launched world, which must be
// `ranks` processes.
std::unique_ptr<Transport> make_on_first_gpus(int ranks, int) {
  if (const std::optional<LaunchWorld> w = launch_world()) {
    if (const std::string why = gpus_per_process_problem(*w, ranks); !why.empty())
      throw std::invalid_argument(why);
    return make_nccl_rank_transport(*w);
  }
  std::vector<int> devices(std::max(ranks, 0));
  std::iota(devices.begin(), devices.end(), 0);
  return make_nccl_transport(devices);
}

TransportKind nccl_kind() {
  return {"nccl",
          "one process drives GPUs 0 .. P-1, one NCCL communicator each, the pivot panels "
          "broadcast over NCCL",
          /*shares_device=*/false, make_on_first_gpus};
}

}  // namespace

APSP_REGISTER_TRANSPORT(nccl_kind)

}  // namespace apsp::harness
