// Where the processes of a launched run (launch.hpp) meet: process 0 listens on the world's
// host:port, the others connect to it (retrying while it starts), and small host-side messages go
// through process 0: NCCL's unique id, a fault key, the certificate's essential edges. TCP, no
// CUDA; a process that does not arrive within the timeout is a one-line error, not a hang.
#pragma once

#include <string>
#include <vector>

#include "harness/multigpu/launch.hpp"

namespace apsp::harness {

class Rendezvous {
 public:
  // Meets every process of w; throws std::runtime_error (one line) when the port cannot be
  // listened on or connected to, or a process is missing after `timeout_s` seconds (0: the
  // world's rendezvous_timeout_s).
  explicit Rendezvous(const LaunchWorld& w, double timeout_s = 0);
  ~Rendezvous();
  Rendezvous(const Rendezvous&) = delete;
  Rendezvous& operator=(const Rendezvous&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Every process's `mine`, in rank order, at every process.
  std::vector<std::string> allgather(const std::string& mine);
  // Process 0's `data` at every process (`data` is ignored elsewhere).
  std::string broadcast(const std::string& data);

 private:
  int rank_, size_;
  double timeout_s_;
  std::vector<int> peers_;  // process 0: a socket per other rank (index = rank); else [0]: to 0
};

}  // namespace apsp::harness
