#include "core/cuda_check.hpp"

#include <fmt/format.h>

namespace apsp {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  (void)cudaGetLastError();  // clear a non-sticky error so the caller can go on
  throw CudaError(code, fmt::format("{}:{}: {} failed: {} ({})", file, line, call,
                                    cudaGetErrorString(code), cudaGetErrorName(code)));
}

}  // namespace apsp
