// Session::here(): the CUDA device of this machine, if any. Kept apart from the pipeline so
// that the pipeline's logic has no device code in it.
#include "harness/build_identity.hpp"
#include "harness/isolated_executor.hpp"
#include "harness/pipeline.hpp"
#include "variants/ceiling_probe.hpp"

namespace apsp::harness {

Session Session::here(const WorkerOptions& workers) {
  Session s;
  s.build = current_build();
  if (has_device()) s.device = query_device();
  const size_t l2 = s.device ? s.device->l2_bytes : 0;
  s.executors = [l2, workers](Target t) {
    return t == Target::kIsolated ? make_isolated_executor(workers) : make_executor(t, l2);
  };
  if (s.device) {
    const DeviceInfo dev = *s.device;
    s.ceiling = [dev](double budget_s, const std::string& precision) {
      return measure_minplus_ceiling(dev, budget_s, precision).updates_per_s;
    };
  }
  return s;
}

}  // namespace apsp::harness
