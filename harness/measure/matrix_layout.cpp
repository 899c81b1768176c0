#include "harness/measure/matrix_layout.hpp"

#include "core/cuda_check.hpp"

namespace apsp::harness {

void put_rows(int32_t* dst, int pitch, int padded_rows, const int32_t* src, int n, int rows,
              cudaMemcpyKind kind, cudaStream_t stream, size_t src_stride) {
  const size_t row = static_cast<size_t>(n) * sizeof(int32_t),
               wide = static_cast<size_t>(pitch) * sizeof(int32_t),
               from = (src_stride == 0 ? static_cast<size_t>(n) : src_stride) * sizeof(int32_t);
  // The columns past n of the first rows, then the rows after them.
  if (pitch > n && rows > 0)
    APSP_CUDA_CHECK(cudaMemset2DAsync(dst + n, wide, kPaddingByte, wide - row, rows, stream));
  if (padded_rows > rows)
    APSP_CUDA_CHECK(cudaMemsetAsync(dst + static_cast<size_t>(rows) * pitch, kPaddingByte,
                                    wide * static_cast<size_t>(padded_rows - rows), stream));
  if (rows == 0) return;
  if (pitch == n && from == row) {
    APSP_CUDA_CHECK(cudaMemcpyAsync(dst, src, row * rows, kind, stream));
  } else {
    APSP_CUDA_CHECK(cudaMemcpy2DAsync(dst, wide, src, from, row, rows, kind, stream));
  }
}

void get_rows(int32_t* dst, const int32_t* src, int pitch, int n, int rows, cudaMemcpyKind kind,
              cudaStream_t stream) {
  if (rows == 0) return;
  const size_t row = static_cast<size_t>(n) * sizeof(int32_t);
  if (pitch == n) {
    APSP_CUDA_CHECK(cudaMemcpyAsync(dst, src, row * rows, kind, stream));
  } else {
    APSP_CUDA_CHECK(cudaMemcpy2DAsync(dst, row, src, static_cast<size_t>(pitch) * sizeof(int32_t),
                                      row, rows, kind, stream));
  }
}

void put_matrix(int32_t* dst, int pitch, const int32_t* src, int n, cudaMemcpyKind kind,
                cudaStream_t stream) {
  put_rows(dst, pitch, pitch, src, n, n, kind, stream);
}

void get_matrix(int32_t* dst, const int32_t* src, int pitch, int n, cudaMemcpyKind kind,
                cudaStream_t stream) {
  get_rows(dst, src, pitch, n, n, kind, stream);
}

}  // namespace apsp::harness
