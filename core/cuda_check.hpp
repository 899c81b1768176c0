// One error check for every CUDA runtime call and kernel launch (after nvbench's cuda_call.cuh):
// it clears the sticky error state where it can and throws with the call text and file:line.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace apsp {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

}  // namespace apsp

#define APSP_CUDA_CHECK(call)                                                 \
  do {                                                                        \
    const cudaError_t apsp_cuda_status_ = (call);                             \
    if (apsp_cuda_status_ != cudaSuccess) {                                   \
      ::apsp::throw_cuda_error(apsp_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                         \
  } while (false)

// After every kernel launch: launch-configuration errors surface here, not at the next sync.
#define APSP_CUDA_CHECK_LAUNCH() APSP_CUDA_CHECK(cudaGetLastError())
