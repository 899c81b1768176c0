// The communication the distributed engine (harness/multigpu/distributed.hpp) needs: one broadcast a
// round, stream-ordered, between P ranks. Two implementations:
//   nccl:           one process drives P GPUs, one communicator per rank (ncclCommInitAll), the
//                   ranks' ncclBroadcast calls in one group. NVLink multicast (NVLS) stays off:
//                   the factory sets NCCL_NVLS_ENABLE=0 before NCCL initialises, and nothing here
//                   calls cuMulticastCreate (a program using multicast can put GPUs shared with
//                   others out of service).
//   single-device:  P ranks as separate buffers on one GPU; a broadcast is a device-to-device
//                   copy per receiver, ordered after the root's stream by an event. It runs the
//                   whole distributed schedule on one GPU, for the tests.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace apsp::harness {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual int ranks() const = 0;
  // The CUDA device of rank r: its buffers and streams live there.
  virtual int device(int rank) const = 0;
  virtual std::string name() const = 0;  // "nccl", "single-device"
  // Copies `bytes` from buffers[root] into buffers[r] of every other rank r (like ncclBroadcast
  // in a group). Enqueued on streams[r] for each rank, root included, and ordered like any work
  // on them: a receiver's copy starts after what its stream held before, and what is enqueued
  // after the call on streams[r] sees the data; what is enqueued after it on streams[root] runs
  // after every receiver has read buffers[root], so it may change them. Every rank's buffer and
  // stream is on device(rank). Throws one line on error.
  virtual void broadcast(int root, const std::vector<void*>& buffers, size_t bytes,
                         const std::vector<cudaStream_t>& streams) = 0;
};

// `ranks` ranks on CUDA device `device`. Throws std::invalid_argument for ranks < 1.
std::unique_ptr<Transport> make_single_device_transport(int ranks, int device);

// One rank per entry of `devices` (CUDA device numbers; on one device a single entry), one
// process. Sets NCCL_NVLS_ENABLE=0 first. Throws std::runtime_error with one line when NCCL fails
// or the build has no NCCL (nccl_available()).
std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>& devices);

// The implementations' check of broadcast()'s arguments: std::invalid_argument (one line) unless
// root is a rank and there is one buffer and one stream per rank.
void check_broadcast_arguments(const Transport& t, int root, const std::vector<void*>& buffers,
                               const std::vector<cudaStream_t>& streams);

// Whether this build links NCCL (CMake found nccl.h and libnccl).
bool nccl_available();

}  // namespace apsp::harness
