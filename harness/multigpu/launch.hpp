// One process per GPU, as cluster launchers start programs: who this process is, read from the
// environment the launcher sets, and where its processes meet. No CUDA here.
//   torchrun:  RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT (torchrun's own store holds
//              MASTER_PORT, so the processes meet on MASTER_PORT + 1);
//   Open MPI:  OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_RANK;
//   Slurm:     SLURM_PROCID, SLURM_STEP_NUM_TASKS, SLURM_LOCALID (a step started by srun; a
//              batch script itself is one process).
// Under Open MPI and Slurm the meeting point is MASTER_ADDR (the host of rank 0) and
// MASTER_PORT, which the job script exports (docs/multi-gpu.md). APSP_RENDEZVOUS=host:port
// overrides the meeting point under any launcher, and APSP_RENDEZVOUS_TIMEOUT (seconds, 300 by
// default) bounds the wait for every process to arrive there.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace apsp::harness {

struct LaunchWorld {
  std::string launcher;  // "torchrun", "Open MPI", "Slurm"
  int rank = 0, size = 1, local_rank = 0;
  std::string host;  // where process 0 listens (rendezvous.hpp)
  int port = 0;
  double rendezvous_timeout_s = 300;  // how long the processes wait for each other there
};

using GetEnv = std::function<const char*(const char*)>;
// The world this process was launched into, when a launcher's variables say there is more than
// one process; nullopt otherwise (one process: --gpus N drives N GPUs itself). Throws
// std::invalid_argument (one line naming the variable) when they are malformed or the meeting
// point is missing.
std::optional<LaunchWorld> launch_world(const GetEnv& env);
std::optional<LaunchWorld> launch_world();  // from this process's environment

// "" when `gpus` GPUs are one a process of w; else the one line that says what --gpus must be.
std::string gpus_per_process_problem(const LaunchWorld& w, int gpus);

}  // namespace apsp::harness
