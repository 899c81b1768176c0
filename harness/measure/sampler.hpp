// The one sampling routine: every timed solve of the bench, the tuner, verification and the
// isolated worker is a Sampler's (sampler.cpp is the one place a sample is taken). A sample:
// the pristine input restored (not timed), L2 flushed if asked (not timed), then the whole solve
// timed on the executor's clock (CUDA events on its stream; the host's clock for host variants),
// with nothing waited for between the clock's start and stop. Verification's solve is the
// warm-up (module load, pool allocation); its time plans how many samples fill the time asked
// for (planned_reps, the stopping rule).
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <vector>

#include "core/device_buffer.hpp"
#include "harness/measure/executor.hpp"

namespace apsp::harness {

struct SampleOptions {
  int min_reps = 3;       // samples at least ...
  int max_reps = 10;      // ... and at most
  double min_time_s = 1;  // more samples (up to max_reps) until they add up to this
  bool flush_l2 = true;   // flush L2 before each sample (not timed)
};

// How many samples to take after a warm-up solve that took `warm_ms`.
int planned_reps(double warm_ms, const SampleOptions& options);

// Takes measurements of one (variant, config) on a LocalExecutor: reserves it at each take, then
// per sample calls its hooks as LocalExecutor says. A CUDA graph (Mode::kCudaGraph) is captured
// from one solve on the executor's stream, after reserve(), once per Sampler: it holds the work
// buffer's address, which a reserve() for another variant may change.
class Sampler {
 public:
  // Called after each sample with its time (the isolated worker reports progress with it).
  using OnSample = std::function<void(double ms)>;

  Sampler(LocalExecutor& ex, const Variant& v, const Config& c);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  Measurement take(const MeasureSpec& spec, const OnSample& on_sample = {});

 private:
  double plain(bool flush_l2);
  double replay(bool flush_l2);
  std::array<double, 4> phases(bool flush_l2);
  void prepare(bool flush_l2);
  void capture();

  LocalExecutor& ex_;
  const Variant& v_;
  const Config c_;
  cudaGraphExec_t graph_ = nullptr;
};

// The clocks of the one-stream executors.
class StreamClock final : public SampleClock {  // CUDA events on `stream`
 public:
  explicit StreamClock(cudaStream_t stream) : stream_(stream) {}
  void start() override;
  void stop() override;
  double elapsed_ms() override;

 private:
  cudaStream_t stream_;
  CudaEvent start_, stop_;
};

class HostClock final : public SampleClock {  // steady_clock
 public:
  void start() override;
  void stop() override;
  double elapsed_ms() override;

 private:
  std::chrono::steady_clock::time_point start_, stop_;
};

// `reps` samples of (v, c) on `ex` (Mode::kStream or kCudaGraph), each from the pristine input,
// L2 flushed before each as `options` asks.
std::vector<double> take_samples(Executor& ex, const Variant& v, const Config& c, int reps,
                                 const SampleOptions& options, Mode mode = Mode::kStream);

// One solve of (v, c) on `ex` from the input, each phase's time summed over rounds: [0] outside
// phases 1-3, [1..3] (apsp_bench --phases; L2 not flushed). Zeros where a solve is not one
// stream's.
std::array<double, 4> take_phases(Executor& ex, const Variant& v, const Config& c);

}  // namespace apsp::harness
