#include "harness/measure/sampler.hpp"

#include <algorithm>
#include <cmath>

namespace apsp::harness {

int planned_reps(double warm_ms, const SampleOptions& o) {
  const double want = o.min_time_s * 1000.0 / std::max(warm_ms, 1e-3);
  return std::clamp(static_cast<int>(std::ceil(want)), o.min_reps, std::max(o.min_reps, o.max_reps));
}

std::vector<double> take_samples(Executor& ex, const Variant& v, const Config& c, int reps,
                                 const SampleOptions& o, Replay replay) {
  const std::string key = config_name(v.name, c);
  std::vector<double> samples;
  samples.reserve(reps);
  for (int r = 0; r < reps; ++r) {
    samples.push_back(replay == Replay::kStream ? ex.sample(v, c, o.flush_l2)
                                                : ex.sample_graph(key, v, c, o.flush_l2));
  }
  return samples;
}

}  // namespace apsp::harness
