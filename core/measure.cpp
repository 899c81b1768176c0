#include "core/measure.hpp"

#include <algorithm>
#include <cmath>

namespace apsp {

Timer::Timer(const int* pristine, int* work, int n, size_t l2_bytes, cudaStream_t stream)
    : pristine_(pristine), work_(work), n_(n), stream_(stream), scrub_(2 * l2_bytes) {}

Timer::~Timer() {
  if (graph_) cudaGraphExecDestroy(graph_);
}

void Timer::restore() {
  APSP_CUDA_CHECK(cudaMemcpyAsync(work_, pristine_, static_cast<size_t>(n_) * n_ * sizeof(int),
                                  cudaMemcpyDeviceToDevice, stream_));
}

void Timer::flush() {
  if (scrub_.size() == 0) return;
  // A different byte each time, so no layer can skip the write as unchanged.
  APSP_CUDA_CHECK(cudaMemsetAsync(scrub_.get(), ++flushes_ & 0xff, scrub_.size(), stream_));
}

double Timer::sample(const SolveFn& solve, bool flush_l2) {
  restore();
  if (flush_l2) flush();
  start_.record(stream_);
  solve(work_, n_, stream_);
  stop_.record(stream_);
  return elapsed_ms(start_, stop_);
}

double Timer::sample_graph(const std::string& key, const SolveFn& solve, bool flush_l2) {
  if (!graph_ || graph_key_ != key) {
    if (graph_) APSP_CUDA_CHECK(cudaGraphExecDestroy(graph_));
    graph_ = nullptr;
    cudaGraph_t graph;
    APSP_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
      solve(work_, n_, stream_);
    } catch (...) {
      cudaStreamEndCapture(stream_, &graph);
      throw;
    }
    APSP_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
    APSP_CUDA_CHECK(cudaGraphInstantiate(&graph_, graph, 0));
    APSP_CUDA_CHECK(cudaGraphDestroy(graph));
    graph_key_ = key;
  }
  restore();
  if (flush_l2) flush();
  start_.record(stream_);
  APSP_CUDA_CHECK(cudaGraphLaunch(graph_, stream_));
  stop_.record(stream_);
  return elapsed_ms(start_, stop_);
}

int planned_reps(double warm_ms, const MeasureOptions& o) {
  const double want = o.min_time_s * 1000.0 / std::max(warm_ms, 1e-3);
  return std::clamp(static_cast<int>(std::ceil(want)), o.min_reps, std::max(o.min_reps, o.max_reps));
}

std::vector<double> measure(Timer& timer, const SolveFn& solve, const MeasureOptions& o) {
  double warm_ms = 0;
  for (int w = 0; w < std::max(1, o.warmup); ++w) warm_ms = timer.sample(solve, o.flush_l2);
  const int reps = planned_reps(warm_ms, o);
  std::vector<double> samples;
  samples.reserve(reps);
  for (int r = 0; r < reps; ++r) samples.push_back(timer.sample(solve, o.flush_l2));
  return samples;
}

}  // namespace apsp
