// The next hops after the solve (harness/solve/paths.hpp), where the distances are: on the
// device that solved, or on the host.
#include <fmt/format.h>

#include <memory>

#include "core/console.hpp"
#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/memory.hpp"
#include "harness/solve/solve_steps.hpp"

namespace apsp::harness {

std::vector<int32_t> NextHops::column_of(int n, int t) const {
  if (!matrix) return column;
  std::vector<int32_t> c(n);
  for (int k = 0; k < n; ++k) c[k] = matrix[static_cast<size_t>(k) * n + t];
  return c;
}

void check_host_matrices(int n, int count, const std::string& what, uint64_t extra_bytes) {
  const uint64_t need = count * matrix_bytes(n) + extra_bytes;
  const MemoryLimit left = available_memory();
  if (need > left.bytes)
    throw std::runtime_error(
        fmt::format("V = {}: {} need {} ({} bytes), more than the {} available ({})", n, what,
                    human_bytes(need), need, human_bytes(left.bytes), left.source));
}

// All of them into host memory, or one column.
void next_hops_on_device(const int32_t* d, cudaStream_t stream, NextHops& hops, SolveTiming& t) {
  const auto t0 = Clock::now();
  const int n = hops.edges.n;
  DeviceBuffer<int32_t> next(static_cast<size_t>(n) * n);
  next_hops_device(d, next.get(), hops.edges, stream);
  if (hops.want_matrix) {
    check_host_matrices(n, 1, "the next hops");
    const Doing doing(fmt::format("allocating the {0} x {0} next-hop matrix", n), matrix_bytes(n));
    hops.matrix = std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(n) * n);
    APSP_CUDA_CHECK(
        cudaMemcpy(hops.matrix.get(), next.get(), matrix_bytes(n), cudaMemcpyDeviceToHost));
  } else {
    hops.column.resize(n);
    const size_t row = static_cast<size_t>(n) * sizeof(int32_t);
    APSP_CUDA_CHECK(cudaMemcpy2D(hops.column.data(), sizeof(int32_t),
                                 next.get() + *hops.want_column, row, sizeof(int32_t), n,
                                 cudaMemcpyDeviceToHost));
  }
  t.add("next hops (GPU)", ms_since(t0));
}

// The whole matrix: the rounds read other rows.
template <class T>
void next_hops_on_host(BasicMatrixView<T> d, NextHops& hops, int threads, SolveTiming& t) {
  const auto t0 = Clock::now();
  const Doing doing(fmt::format("allocating the {0} x {0} next-hop matrix", d.n),
                    matrix_bytes(d.n));
  hops.matrix = std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(d.n) * d.n);
  next_hops_host(d, hops.edges, hops.matrix.get(), threads);
  t.add("next hops (CPU)", ms_since(t0));
}
template void next_hops_on_host(MatrixView, NextHops&, int, SolveTiming&);
template void next_hops_on_host(MatrixView64, NextHops&, int, SolveTiming&);

}  // namespace apsp::harness
