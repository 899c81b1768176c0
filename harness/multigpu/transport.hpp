// The communication the distributed engine (harness/multigpu/distributed.hpp) needs: one broadcast a
// round, stream-ordered, between P ranks. Transports register themselves by name, each in its own
// file (a new one is that file and its APSP_REGISTER_TRANSPORT line):
//   nccl:           one process drives P GPUs, one communicator per rank (ncclCommInitAll), the
//                   ranks' ncclBroadcast calls in one group; under a launcher (launch.hpp), one
//                   process per GPU, each its rank (ncclCommInitRank). NVLink multicast (NVLS) stays off:
//                   the factory sets NCCL_NVLS_ENABLE=0 before NCCL initialises, and nothing here
//                   calls cuMulticastCreate (a program using multicast can put GPUs shared with
//                   others out of service). transport_nccl.cpp.
//   single-device:  P ranks as separate buffers on one GPU; a broadcast is a device-to-device
//                   copy per receiver, ordered after the root's stream by an event. It runs the
//                   whole distributed schedule on one GPU, for the tests.
//                   transport_single_device.cpp.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
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
  // Under a launcher (one process per GPU) only this process's entries are read.
  virtual void broadcast(int root, const std::vector<void*>& buffers, size_t bytes,
                         const std::vector<cudaStream_t>& streams) = 0;

  // The ranks this process drives, in order: every rank, or under a launcher its own. device(r)
  // and every buffer and stream of the calls here are of these ranks only.
  virtual std::vector<int> local_ranks() const;
  bool is_local(int rank) const;
  // This process among the run's (0 prints and writes), and how many there are.
  virtual int process() const { return 0; }
  virtual int processes() const { return 1; }
  // Every process's `mine`, in process order, at every process: the host-side exchange of small
  // things (a fault, a count, the certificate's essential edges). One process: {mine}.
  virtual std::vector<std::string> allgather(const std::string& mine) { return {mine}; }
  // `bytes` from src on rank `from` to dst on rank `to`, two ranks of different processes, on the
  // stream of the local one (both call it). The ranks of one process read each other's memory
  // directly instead; std::logic_error here.
  virtual void send(int from, int to, const void* src, void* dst, size_t bytes,
                    cudaStream_t stream);
};

// The lowest of every process's `mine` (their allgather); the largest for max_across.
uint64_t min_across(Transport& t, uint64_t mine);
int64_t max_across(Transport& t, int64_t mine);
double max_across(Transport& t, double mine);

// A transport as registered: its name, what it is, and how to make one.
struct TransportKind {
  std::string name;            // what --transport takes: "nccl"
  std::string help;            // one line for --help
  bool shares_device = false;  // every rank on one device: a run's times are no speedup
  // `ranks` ranks: on devices 0 .. ranks - 1, or, where the ranks share a device, all on `device`.
  std::function<std::unique_ptr<Transport>(int ranks, int device)> make;
};

// The registered transports, by name.
const std::vector<TransportKind>& transports();
// nullptr when no transport has that name.
const TransportKind* find_transport(const std::string& name);
// The registered names, in order, joined by ", " ("nccl, single-device").
std::string transport_names();
// Throws std::invalid_argument (one line, with the names) for a name not registered.
std::unique_ptr<Transport> make_transport(const std::string& name, int ranks, int device = 0);
// Whether the ranks of the transport registered as `name` share one device; false for a name not
// registered ("" where a run had no transport).
bool transport_shares_device(const std::string& name);
// What a multi-GPU run uses unless told otherwise.
inline constexpr char kDefaultTransport[] = "nccl";

// Registers a transport at static-initialisation time (see APSP_REGISTER_TRANSPORT).
struct TransportRegistrar {
  explicit TransportRegistrar(TransportKind (*kind)());
};
#define APSP_REGISTER_TRANSPORT_CAT2(a, b) a##b
#define APSP_REGISTER_TRANSPORT_CAT(a, b) APSP_REGISTER_TRANSPORT_CAT2(a, b)
// In a transport's file, at namespace scope: APSP_REGISTER_TRANSPORT(make_kind), make_kind
// returning its TransportKind.
#define APSP_REGISTER_TRANSPORT(kind)                                                              \
  namespace {                                                                                      \
  const ::apsp::harness::TransportRegistrar APSP_REGISTER_TRANSPORT_CAT(apsp_transport_registrar_, \
                                                                        __LINE__){kind};           \
  }

// `ranks` ranks on CUDA device `device`. Throws std::invalid_argument for ranks < 1.
std::unique_ptr<Transport> make_single_device_transport(int ranks, int device);

// Rank `rank` of `ranks`, alone on `device`: the other ranks are absent, so a broadcast neither
// sends nor receives and the rank reads whatever its panel buffers hold. One GPU's share of a
// P-GPU solve over a free link (round_timeline --alone); its distances are no solve's, so it is
// not registered. std::invalid_argument unless 0 <= rank < ranks.
std::unique_ptr<Transport> make_alone_transport(int ranks, int rank, int device);

// One rank per entry of `devices` (CUDA device numbers; on one device a single entry), one
// process. Sets NCCL_NVLS_ENABLE=0 first. Throws std::runtime_error with one line when NCCL fails
// or the build has no NCCL (nccl_available()).
std::unique_ptr<Transport> make_nccl_transport(const std::vector<int>& devices);

struct LaunchWorld;  // launch.hpp
// This process's rank of the launched world w (one process per GPU, ncclCommInitRank), met
// through w's rendezvous. The same errors as make_nccl_transport.
std::unique_ptr<Transport> make_nccl_rank_transport(const LaunchWorld& w);

// The implementations' check of broadcast()'s arguments: std::invalid_argument (one line) unless
// root is a rank and there is one buffer and one stream per rank.
void check_broadcast_arguments(const Transport& t, int root, const std::vector<void*>& buffers,
                               const std::vector<cudaStream_t>& streams);

// Whether this build links NCCL (CMake found nccl.h and libnccl).
bool nccl_available();

}  // namespace apsp::harness
