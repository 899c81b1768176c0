// Run-time compiled user kernels (Target::kIsolated) run in a worker process, the apsp_worker
// program: a kernel that faults kills its CUDA context, and with it everything else in that
// process, so it must not share one with the other runs. The parent's IsolatedExecutor speaks
// to one worker over a socket (one JSON line each way per command: load, measure, output) and
// shares the matrices with it through a memory file (input, then output). A measurement travels
// as its spec (harness/measure/measurement.hpp): the worker's own Sampler takes it on a
// DeviceExecutor, sends a progress line after each sample, and answers with the samples. A
// worker that faults, or says nothing within the timeout (it is killed), turns into an exception
// for that one run, which the pipeline reports FAILED, and the next command starts a fresh worker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "harness/measure/executor.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

// The memory file both sides map: the worker's fd 3, the input n x n matrix, then the output.
inline constexpr int kWorkerMatrixFd = 3;
inline size_t shared_matrices_bytes(int n) {
  return 2 * static_cast<size_t>(n) * n * sizeof(int32_t);
}

struct WorkerOptions {
  std::string program;     // "": default_worker_program()
  double timeout_s = 60;   // the longest the worker may take for a command or one sample in it
  CompileOptions compile;  // the worker compiles nothing new: it finds the parent's cache entries
};

// $APSP_WORKER, else apsp_worker beside the running program.
std::string default_worker_program();

// An executor for Target::kIsolated variants.
std::unique_ptr<Executor> make_isolated_executor(const WorkerOptions& options);

// The worker's side: serves one parent on fd 0/1 with the matrices in fd 3, until end of input.
// Returns the exit code.
int serve_worker();

}  // namespace apsp::harness
