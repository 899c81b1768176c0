#include "harness/matrix_layout.hpp"

#include "core/cuda_check.hpp"

namespace apsp::harness {

void put_matrix(int32_t* dst, int pitch, const int32_t* src, int n, cudaMemcpyKind kind, cudaStream_t stream) {
  const size_t row = static_cast<size_t>(n) * sizeof(int32_t), wide = static_cast<size_t>(pitch) * sizeof(int32_t);
  if (pitch > n) {
    // The columns past n of the first n rows, then the rows past n.
    APSP_CUDA_CHECK(cudaMemset2DAsync(dst + n, wide, kPaddingByte, wide - row, n, stream));
    APSP_CUDA_CHECK(cudaMemsetAsync(dst + static_cast<size_t>(n) * pitch, kPaddingByte,
                                    wide * static_cast<size_t>(pitch - n), stream));
  }
  if (pitch == n) {
    APSP_CUDA_CHECK(cudaMemcpyAsync(dst, src, row * n, kind, stream));
  } else {
    APSP_CUDA_CHECK(cudaMemcpy2DAsync(dst, wide, src, row, row, n, kind, stream));
  }
}

void get_matrix(int32_t* dst, const int32_t* src, int pitch, int n, cudaMemcpyKind kind, cudaStream_t stream) {
  const size_t row = static_cast<size_t>(n) * sizeof(int32_t);
  if (pitch == n) {
    APSP_CUDA_CHECK(cudaMemcpyAsync(dst, src, row * n, kind, stream));
  } else {
    APSP_CUDA_CHECK(cudaMemcpy2DAsync(dst, row, src, static_cast<size_t>(pitch) * sizeof(int32_t), row, n, kind, stream));
  }
}

}  // namespace apsp::harness
