#include "harness/cli/launched.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "core/device_info.hpp"
#include "harness/multigpu/transport.hpp"

namespace apsp::harness {

std::optional<LaunchWorld> join_launched_world() {
  std::optional<LaunchWorld> world = launch_world();
  if (!world) return world;
  if (const int count = device_count(); count > 0)
    APSP_CUDA_CHECK(cudaSetDevice(world->local_rank % count));
  if (world->rank != 0 && !std::freopen("/dev/null", "w", stdout))
    throw std::runtime_error(fmt::format("process {}: cannot silence stdout", world->rank));
  return world;
}

std::string launched_gpus_problem(const std::optional<LaunchWorld>& world,
                                  const std::vector<int>& gpus, const std::string& transport) {
  if (!world || transport_shares_device(transport)) return "";
  for (int g : gpus)
    if (g != 1 && g != world->size)
      return fmt::format(
          "--gpus {} under {} with {} processes: one GPU a process, so each count is 1 or {}", g,
          world->launcher, world->size, world->size);
  return "";
}

}  // namespace apsp::harness
