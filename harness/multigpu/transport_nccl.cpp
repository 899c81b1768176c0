// The NCCL transport (harness/multigpu/transport.hpp): one process, one communicator per GPU
// (ncclCommInitAll), every rank's ncclBroadcast in one group. Compiled with APSP_HAVE_NCCL = 1
// when CMake found NCCL (harness/multigpu/CMakeLists.txt); otherwise its factory says the build has none.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
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
    // Before NCCL initialises: no NVLink multicast (NVLS), which can put GPUs shared with other
    // users out of service. Always overwritten, whatever the environment says.
    setenv("NCCL_NVLS_ENABLE", "0", 1);
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

}  // namespace

std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>& devices) {
  return std::make_unique<NcclTransport>(devices);
}

bool nccl_available() { return true; }

#else

std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>&) {
  throw std::runtime_error(
      "NCCL transport: this build has no NCCL (CMake found no nccl.h or libnccl; set NCCL_ROOT)");
}

bool nccl_available() { return false; }

#endif

namespace {

// Rank r on GPU r.
std::unique_ptr<Transport> make_on_first_gpus(int ranks, int) {
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
