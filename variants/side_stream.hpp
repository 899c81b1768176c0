// The look-ahead schedules' second stream (variants/sm90_family.hpp), host code only, so that
// tests can reach it without the kernels.
#pragma once

#include <cuda_runtime_api.h>

#include <deque>
#include <utility>

#include "core/cuda_check.hpp"

namespace apsp::sm90_family {

// The look-ahead schedule's second stream, at the highest priority so that its few blocks are
// dispatched ahead of the waiting ordinary tiles, and the events that fork and join it. One per
// main stream (and host thread), made on the first solve on that stream and kept (a CUDA graph
// capture records through it as well). Not one per thread: a side stream made before the main
// stream it serves ran lookahead 1 at n = 2500 6% slower on the H200 (1.60 against 1.51 ms),
// which every tuner or bench process that ran a look-ahead config at a smaller n met, since each
// n gets an executor with a new stream (docs/perf-notes.md, step 18). A stream is kept for the
// program's life: a main stream's handle, once destroyed, may come back for a new one, which then
// shares the old side stream, correctly.
struct SideStream {
  cudaStream_t stream = nullptr;
  cudaEvent_t fork = nullptr, join = nullptr;
};
inline const SideStream& side_stream(cudaStream_t main) {
  thread_local std::deque<std::pair<cudaStream_t, SideStream>> sides;  // a deque: references stay valid
  for (const auto& [owner, side] : sides)
    if (owner == main) return side;
  SideStream s;
  int least = 0, greatest = 0;
  APSP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  APSP_CUDA_CHECK(cudaStreamCreateWithPriority(&s.stream, cudaStreamNonBlocking, greatest));
  APSP_CUDA_CHECK(cudaEventCreateWithFlags(&s.fork, cudaEventDisableTiming));
  APSP_CUDA_CHECK(cudaEventCreateWithFlags(&s.join, cudaEventDisableTiming));
  sides.emplace_back(main, s);
  return sides.back().second;
}

}  // namespace apsp::sm90_family
