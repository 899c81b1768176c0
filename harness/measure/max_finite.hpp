// The largest entry below kInf of rows of a result in device memory: the exactness proof's number
// (core/precision.hpp), found where the rows are (one GPU's matrix, or each rank's block).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace apsp::harness {

// max(0, every d[i][j] < kInf, i < rows, j < n), d's rows `pitch` apart in device memory on the
// current device; enqueued on `stream` and waited for.
int64_t max_finite_rows(const int32_t* d, int rows, int n, int pitch, cudaStream_t stream);

}  // namespace apsp::harness
