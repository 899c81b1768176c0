// Session::here(): the CUDA device of this machine, if any. Kept apart from the pipeline so
// that the pipeline's logic has no device code in it.
#include <cuda_runtime_api.h>

#include "harness/measure/ceiling.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/launch.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/userkernel/isolated_executor.hpp"

namespace apsp::harness {

Session Session::here(const WorkerOptions& workers, const std::string& transport) {
  Session s;
  s.build = current_build();
  s.gpus_present = device_count();
  s.transport = transport;
  if (const std::optional<LaunchWorld> w = launch_world()) s.processes = w->size;
  int current = 0;  // a launched process's GPU is its local rank's (apsp_bench sets it)
  if (s.gpus_present > 0 && cudaGetDevice(&current) != cudaSuccess) current = 0;
  if (s.gpus_present > 0) s.device = query_device(current);
  const size_t l2 = s.device ? s.device->l2_bytes : 0;
  s.executors = [l2, workers](Target t) {
    return t == Target::kIsolated ? make_isolated_executor(workers) : make_executor(t, l2);
  };
  if (s.device) {
    const DeviceInfo dev = *s.device;
    s.ceiling = [dev](double budget_s, const std::string& precision) {
      return measure_minplus_ceiling(dev, budget_s, precision).updates_per_s;
    };
    // Ranks 0..P-1 on GPUs 0..P-1 through NCCL, or every rank on this session's GPU.
    s.multi_gpu = [transport, ordinal = dev.ordinal](int gpus) {
      return make_multi_gpu_executor(gpus, transport, ordinal);
    };
  }
  return s;
}

}  // namespace apsp::harness
