// A program started by a launcher, one process per GPU (harness/multigpu/launch.hpp): it joins
// the launched world before any work. Every process runs the same plan; the multi-GPU runs are
// collective, each process its own rank, and only process 0 speaks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/multigpu/launch.hpp"

namespace apsp::harness {

// The world this process was launched into (nullopt: not under a launcher), having taken this
// process's GPU (its local rank, modulo the GPUs it sees) and, on every process but 0, sent
// stdout to /dev/null. Throws std::invalid_argument (one line) when the launcher's variables are
// malformed, std::runtime_error when stdout cannot be silenced.
std::optional<LaunchWorld> join_launched_world();

// "" unless, under a launcher, a --gpus count is neither 1 (each process alone on its GPU) nor
// the number of processes (one GPU a process); ranks that share one device may be any number.
std::string launched_gpus_problem(const std::optional<LaunchWorld>& world,
                                  const std::vector<int>& gpus, const std::string& transport);

}  // namespace apsp::harness
