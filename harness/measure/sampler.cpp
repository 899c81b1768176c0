#include "harness/measure/sampler.hpp"

#include <algorithm>
#include <cmath>

#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"

namespace apsp::harness {

int planned_reps(double warm_ms, const SampleOptions& o) {
  const double want = o.min_time_s * 1000.0 / std::max(warm_ms, 1e-3);
  return std::clamp(static_cast<int>(std::ceil(want)), o.min_reps,
                    std::max(o.min_reps, o.max_reps));
}

Measurement LocalExecutor::measure(const Variant& v, const Config& c, const MeasureSpec& spec) {
  return Sampler(*this, v, c).take(spec);
}

Sampler::Sampler(LocalExecutor& ex, const Variant& v, const Config& c) : ex_(ex), v_(v), c_(c) {}

Sampler::~Sampler() {
  if (!graph_) return;
  cudaStreamSynchronize(ex_.stream());  // a replay may still run when a sample threw
  cudaGraphExecDestroy(graph_);
}

Measurement Sampler::take(const MeasureSpec& spec, const OnSample& on_sample) {
  ex_.reserve(v_, c_);
  Measurement m;
  const bool one_stream = ex_.stream() != nullptr;
  if (spec.mode == Mode::kPhases) {
    if (one_stream) m.phases_ms = phases(spec.flush_l2);
    return m;
  }
  const bool graphs = spec.mode == Mode::kCudaGraph && one_stream;
  if (graphs && !graph_) capture();
  m.samples_ms.reserve(spec.reps);
  for (int r = 0; r < spec.reps; ++r) {
    m.samples_ms.push_back(graphs ? replay(spec.flush_l2) : plain(spec.flush_l2));
    if (on_sample) on_sample(m.samples_ms.back());
  }
  return m;
}

// Restores the input; optionally evicts every line of it from L2. Neither is timed.
void Sampler::prepare(bool flush_l2) {
  ex_.restore();
  if (flush_l2) ex_.flush_l2();
}

double Sampler::plain(bool flush_l2) {
  prepare(flush_l2);
  SampleClock& clock = ex_.clock();
  clock.start();
  ex_.run(v_, c_, nullptr);
  clock.stop();
  const double ms = clock.elapsed_ms();
  ex_.after_solve(v_, c_);
  return ms;
}

double Sampler::replay(bool flush_l2) {
  prepare(flush_l2);
  SampleClock& clock = ex_.clock();
  clock.start();
  APSP_CUDA_CHECK(cudaGraphLaunch(graph_, ex_.stream()));
  clock.stop();
  return clock.elapsed_ms();
}

std::array<double, 4> Sampler::phases(bool flush_l2) {
  PhaseTimer timer(ex_.stream());
  prepare(flush_l2);
  timer.mark(0);
  ex_.run(v_, c_, &timer);
  return timer.totals_ms();
}

// One solve captured from the executor's stream (nothing runs), instantiated once per Sampler.
void Sampler::capture() {
  cudaStream_t stream = ex_.stream();
  cudaGraph_t graph;
  APSP_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    ex_.run(v_, c_, nullptr);
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);
    throw;
  }
  APSP_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  // Each kernel node at the priority of the stream it was captured from, not the replay
  // stream's: sm90's side stream keeps its place ahead of the ordinary tiles (H200, n = 2500:
  // 1.460 ms a replay, against 1.664-1.674 without; docs/perf-notes.md).
  cudaGraphExec_t exec = nullptr;
  const cudaError_t err =
      cudaGraphInstantiate(&exec, graph, cudaGraphInstantiateFlagUseNodePriority);
  cudaGraphDestroy(graph);
  APSP_CUDA_CHECK(err);
  graph_ = exec;
}

void StreamClock::start() { start_.record(stream_); }
void StreamClock::stop() { stop_.record(stream_); }
double StreamClock::elapsed_ms() { return apsp::elapsed_ms(start_, stop_); }

void HostClock::start() { start_ = std::chrono::steady_clock::now(); }
void HostClock::stop() { stop_ = std::chrono::steady_clock::now(); }
double HostClock::elapsed_ms() {
  return std::chrono::duration<double, std::milli>(stop_ - start_).count();
}

std::vector<double> take_samples(Executor& ex, const Variant& v, const Config& c, int reps,
                                 const SampleOptions& o, Mode mode) {
  return ex.measure(v, c, {mode, reps, o.flush_l2}).samples_ms;
}

std::array<double, 4> take_phases(Executor& ex, const Variant& v, const Config& c) {
  return ex.measure(v, c, {Mode::kPhases, 1, false}).phases_ms;
}

}  // namespace apsp::harness
