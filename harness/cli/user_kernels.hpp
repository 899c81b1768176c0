// The --kernel files of apsp_bench and the tuner, compiled before anything runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "harness/userkernel/isolated_executor.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

// Each file compiled for `device` (none: sm_90) into `workers.compile.arch`, over `params` (the
// tuner's --param macros; none: the file's own values), registered as a variant that runs in the
// isolated workers, and described on stdout. A file that does not compile is a refusal:
// ProgramExit (2) with the compiler's log.
UserKernels compile_user_kernels(const std::vector<std::string>& files,
                                 const std::vector<Param>& params, WorkerOptions& workers,
                                 const std::optional<DeviceInfo>& device);

}  // namespace apsp::harness
