#include "harness/cli/user_kernels.hpp"

#include <fmt/format.h>

#include "core/console.hpp"
#include "harness/cli/program.hpp"

namespace apsp::harness {

UserKernels compile_user_kernels(const std::vector<std::string>& files,
                                 const std::vector<Param>& params, WorkerOptions& workers,
                                 const std::optional<DeviceInfo>& device) {
  workers.compile.arch = device ? arch_of(*device) : "sm_90";
  try {
    UserKernels kernels = register_user_kernels(files, params, Target::kIsolated, workers.compile);
    for (const auto& k : kernels.kernels) fmt::print("{}\n", describe_compile(*k));
    return kernels;
  } catch (const CompileError& e) {
    throw ProgramExit(kExitRefused, e.what(), e.log);
  }
}

}  // namespace apsp::harness
