// The device side of harness/solve/paths.hpp: the kernels are in kernels/paths.cuh.

#include <algorithm>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/solve/paths.hpp"
#include "kernels/paths.cuh"

namespace apsp::harness {

namespace k = kernels::paths;

namespace {
constexpr int kThreads = 256;
constexpr int kMaxGridY = 65535;

dim3 grid_over(int n, int rows) {
  return dim3(static_cast<unsigned>((n + kThreads - 1) / kThreads),
              static_cast<unsigned>(std::clamp(rows, 1, kMaxGridY)));
}
}  // namespace

uint64_t next_hops_device_bytes(const OutEdges& g) { return g.bytes() + 64; }

uint64_t predecessors_device_bytes(int n, size_t edges) {
  // Two matrices; the edges grouped twice (all, zero weight), a start index a vertex each.
  return 2 * matrix_bytes(n) + 2 * edges * 2 * sizeof(int32_t) + 2 * (n + 1) * sizeof(int64_t) + 64;
}

void predecessors_device(const int32_t* d, const EdgeList& g, int32_t* pred) {
  const int n = g.num_vertices;
  if (n == 0) return;
  const CudaStream stream;
  const size_t cells = static_cast<size_t>(n) * n;
  DeviceBuffer<int32_t> flipped(cells), next(cells);
  const dim3 tiles((n + k::kTransposeTile - 1) / k::kTransposeTile,
                   (n + k::kTransposeTile - 1) / k::kTransposeTile);
  const dim3 threads(k::kTransposeTile, k::kTransposeRows);
  k::transpose<<<tiles, threads, 0, stream.get()>>>(d, flipped.get(), n);
  APSP_CUDA_CHECK_LAUNCH();
  next_hops_device(flipped.get(), next.get(), OutEdges::of_reversed(g), stream.get());
  k::transpose<<<tiles, threads, 0, stream.get()>>>(next.get(), flipped.get(), n);
  APSP_CUDA_CHECK_LAUNCH();
  APSP_CUDA_CHECK(cudaMemcpyAsync(pred, flipped.get(), cells * sizeof(int32_t),
                                  cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
}

void next_hops_device(const int32_t* d, int32_t* next, const OutEdges& g, cudaStream_t stream) {
  const int n = g.n;
  if (n == 0) return;
  const DeviceBuffer<long long> start = to_device<long long>(g.all.start),
                                zero_start = to_device<long long>(g.zero.start);
  const DeviceBuffer<int> to = to_device<int>(g.all.other), weight = to_device<int>(g.all.weight),
                          zero_to = to_device<int>(g.zero.other),
                          rows = to_device<int>(g.zero_sources);
  DeviceBuffer<int> changed(1);
  DeviceBuffer<unsigned long long> first(1);
  k::first_round<<<grid_over(n, n), kThreads, 0, stream>>>(d, n, start.get(), to.get(),
                                                           weight.get(), next);
  APSP_CUDA_CHECK_LAUNCH();
  const int row_count = static_cast<int>(g.zero_sources.size());
  // As many rounds as the longest chain of zero-weight hops, plus the one that chooses nothing.
  for (int any = row_count > 0; any;) {
    APSP_CUDA_CHECK(cudaMemsetAsync(changed.get(), 0, sizeof(int), stream));
    k::zero_round<<<grid_over(n, row_count), kThreads, 0, stream>>>(
        d, n, rows.get(), row_count, zero_start.get(), zero_to.get(), next, changed.get());
    APSP_CUDA_CHECK_LAUNCH();
    APSP_CUDA_CHECK(
        cudaMemcpyAsync(&any, changed.get(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (!any) break;
    k::settle<<<grid_over(n, row_count), kThreads, 0, stream>>>(n, rows.get(), row_count, next);
    APSP_CUDA_CHECK_LAUNCH();
  }
  const unsigned long long none = ~0ull;
  APSP_CUDA_CHECK(cudaMemcpyAsync(first.get(), &none, sizeof none, cudaMemcpyHostToDevice, stream));
  k::find_open<<<grid_over(n, n), kThreads, 0, stream>>>(d, n, next, first.get());
  APSP_CUDA_CHECK_LAUNCH();
  unsigned long long open = none;
  APSP_CUDA_CHECK(cudaMemcpyAsync(&open, first.get(), sizeof open, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (open == none) return;
  const int i = static_cast<int>(open / n), j = static_cast<int>(open % n);
  int32_t dij = 0;
  APSP_CUDA_CHECK(cudaMemcpy(&dij, d + open, sizeof dij, cudaMemcpyDeviceToHost));
  throw std::runtime_error(open_entry_fault(i, j, dij));
}

}  // namespace apsp::harness
