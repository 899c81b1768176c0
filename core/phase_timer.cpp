#include "core/phase_timer.hpp"

#include "core/cuda_check.hpp"

namespace apsp {

PhaseTimer::~PhaseTimer() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

void PhaseTimer::mark(int phase) {
  if (used_ == events_.size()) {
    cudaEvent_t e;
    APSP_CUDA_CHECK(cudaEventCreate(&e));
    events_.push_back(e);
  }
  APSP_CUDA_CHECK(cudaEventRecord(events_[used_], stream_));
  phases_.resize(used_ + 1);
  phases_[used_] = phase;
  ++used_;
}

std::array<double, 4> PhaseTimer::totals_ms() {
  std::array<double, 4> total{};
  mark(0);  // the end of the last phase
  APSP_CUDA_CHECK(cudaEventSynchronize(events_[used_ - 1]));
  for (size_t i = 0; i + 1 < used_; ++i) {
    float ms = 0;
    APSP_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
    total[phases_[i]] += ms;
  }
  used_ = 0;
  return total;
}

}  // namespace apsp
