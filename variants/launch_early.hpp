// Kernel launches the tiled schedules share (sm90's, blocked_i64's): a launch with programmatic
// stream serialization, a plain one through the same typed entry point, and the dynamic shared
// memory a kernel may ask for. Host code; the kernels are passed as pointers.
#pragma once

#include <cuda_runtime.h>

#include "core/cuda_check.hpp"

namespace apsp {

// Launches with programmatic stream serialization: the kernel's blocks may be launched while
// the previous kernel in the stream still runs, and wait for it on the device
// (kernels::sm90::wait_for_previous). Saves the launch latency of the three-launch rounds, of
// look-ahead 2's and of the short chain's steps.
template <class... Params, class... Args>
void launch_early(void (*kernel)(Params...), dim3 grid, int threads, int smem, cudaStream_t stream,
                  Args... args) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  APSP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...));
}

// A plain launch (what <<<grid, block, smem, stream>>> enqueues), checked.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, int smem, cudaStream_t stream,
            Args... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  APSP_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...));
}

// Lets `kernel` ask for `bytes` of dynamic shared memory. The host stub's address names the kernel
// (what cuda_runtime.h's template overload passes, which a host compiler's view of it lacks).
template <class Kernel>
void allow_smem(Kernel* kernel, int bytes) {
  APSP_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

}  // namespace apsp
