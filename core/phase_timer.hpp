// Per-phase timing for apsp_bench --phases: a launcher marks the start of each phase on its
// stream; the time up to the next mark is charged to that phase, summed over rounds. Phase 0
// is everything outside phases 1-3 (sm90's pad and unpad, for one).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <vector>

namespace apsp {

class PhaseTimer {
 public:
  explicit PhaseTimer(cudaStream_t stream) : stream_(stream) {}
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

  // Records an event: work enqueued from here to the next mark counts to `phase` (0..3).
  void mark(int phase);
  // Waits for the stream and sums the time of each phase, in milliseconds; clears the marks.
  std::array<double, 4> totals_ms();

 private:
  cudaStream_t stream_;
  std::vector<cudaEvent_t> events_;  // kept for reuse across solves
  std::vector<int> phases_;
  size_t used_ = 0;
};

// For launchers: marks only when a timer is attached (apsp_bench --phases).
inline void mark_phase(PhaseTimer* t, int phase) {
  if (t) t->mark(phase);
}

}  // namespace apsp
