// harness/measure/max_finite.hpp; the kernel is in kernels/max_finite.cuh.
#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/dist_matrix.hpp"
#include "harness/measure/max_finite.hpp"
#include "kernels/max_finite.cuh"

namespace apsp::harness {

int64_t max_finite_rows(const int32_t* d, int rows, int n, int pitch, cudaStream_t stream) {
  namespace k = kernels::max_finite;
  if (rows <= 0 || n <= 0) return 0;
  DeviceBuffer<long long> most(1);
  APSP_CUDA_CHECK(cudaMemsetAsync(most.get(), 0, sizeof(long long), stream));
  const int across = std::min((n + k::kThreads - 1) / k::kThreads, 64);
  const dim3 grid(across, std::clamp(2048 / across, 1, rows));
  k::reduce<int32_t><<<grid, k::kThreads, 0, stream>>>(d, rows, n, pitch, kInf, most.get());
  APSP_CUDA_CHECK_LAUNCH();
  long long m = 0;
  APSP_CUDA_CHECK(cudaMemcpyAsync(&m, most.get(), sizeof m, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return m;
}

}  // namespace apsp::harness
