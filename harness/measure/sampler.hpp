// The one sampling routine: every timed sample the bench and the tuner take goes through
// take_samples(). Verification's solve is the warm-up (module load, pool allocation); its time
// plans how many samples fill the time asked for.
#pragma once

#include <vector>

#include "harness/measure/executor.hpp"

namespace apsp::harness {

struct SampleOptions {
  int min_reps = 3;         // samples at least ...
  int max_reps = 10;        // ... and at most
  double min_time_s = 1;    // more samples (up to max_reps) until they add up to this
  bool flush_l2 = true;     // flush L2 before each sample (not timed)
};

// How many samples to take after a warm-up solve that took `warm_ms`.
int planned_reps(double warm_ms, const SampleOptions& options);

// How a sample runs the solve: its launches on the stream, or the replay of a CUDA graph
// captured from one solve (apsp_bench --cuda-graph; the host runs it plainly).
enum class Replay { kStream, kCudaGraph };

// `reps` samples of (v, c), each from the pristine input.
std::vector<double> take_samples(Executor& ex, const Variant& v, const Config& c, int reps,
                                 const SampleOptions& options, Replay replay = Replay::kStream);

}  // namespace apsp::harness
