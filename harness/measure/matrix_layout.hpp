// Moving an n x n matrix into and out of the layout a variant solves in (Variant::pitch): rows
// `pitch` apart in a pitch x pitch buffer, the entries outside the matrix set to kPadding. The
// copies that happen anyway (the bench's restore, apsp's upload and download) do the layout's
// work, so a padded variant pads nothing inside its timed solve and needs no second matrix.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/dist_matrix.hpp"

namespace apsp::harness {

// The padding, written a byte at a time (cudaMemset2D): 0x3F3F3F3F. Twice it is at least kInf,
// so a path through a padded vertex never beats a real one, and it fits int32 with any
// distance added, so min(c, a + b) cannot overflow on it.
inline constexpr unsigned char kPaddingByte = 0x3F;
inline constexpr int32_t kPadding = 0x3F3F3F3F;
static_assert(2 * int64_t{kPadding} >= kInf && int64_t{kPadding} + kInf <= INT32_MAX);

// dst (device, rows `pitch` apart, pitch x pitch ints) <- src (n x n, rows n apart), kind
// cudaMemcpyHostToDevice or DeviceToDevice; the padding too when pitch > n. Async on `stream`.
void put_matrix(int32_t* dst, int pitch, const int32_t* src, int n, cudaMemcpyKind kind,
                cudaStream_t stream);

// dst (n x n) <- the matrix in src (rows `pitch` apart). Async on `stream`.
void get_matrix(int32_t* dst, const int32_t* src, int pitch, int n, cudaMemcpyKind kind,
                cudaStream_t stream);

// The same for a band of rows (a rank's row block, harness/multigpu/distributed.hpp): dst holds
// `padded_rows` rows `pitch` apart; its first `rows` rows get src's rows (n entries each, rows
// `src_stride` apart, n when 0) and padding past column n; the rows after them are padding.
void put_rows(int32_t* dst, int pitch, int padded_rows, const int32_t* src, int n, int rows,
              cudaMemcpyKind kind, cudaStream_t stream, size_t src_stride = 0);
// dst (rows x n, rows n apart) <- the first `rows` rows of src (rows `pitch` apart), n entries each.
void get_rows(int32_t* dst, const int32_t* src, int pitch, int n, int rows, cudaMemcpyKind kind,
              cudaStream_t stream);

}  // namespace apsp::harness
