// harness/batch/batch_solve.hpp: the kernels behind the batch's checks and ragged offsets on the
// GPU; the host side of the check, and its messages, are in device_check.cpp.
#include <cub/device/device_scan.cuh>

#include "core/cuda_check.hpp"
#include "harness/batch/batch_solve.hpp"
#include "kernels/batch_checks.cuh"
#include "variants/graph_batch_launch.hpp"

namespace apsp::harness {

namespace {

constexpr int kThreads = 256;

unsigned grid_for(int64_t items) { return checked_grid_x((items + kThreads - 1) / kThreads); }

__global__ void squared_sizes(const int64_t* vertex_ptr, int64_t graphs, int64_t* out) {
  const int64_t g = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (g == 0) out[0] = 0;
  if (g >= graphs) return;
  const int64_t n = vertex_ptr[g + 1] - vertex_ptr[g];
  out[g + 1] = n * n;
}

// Counts each edge in the graph its source lies in (clamped to the batch: a source outside every
// graph is then an edge that leaves its graph, which the checks name).
__global__ void count_edges_by_source(const int64_t* vertex_ptr, int64_t graphs, const int64_t* src,
                                      int64_t edges, int64_t* counts) {
  const int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (e >= edges) return;
  int64_t lo = 0, hi = graphs - 1;  // the last g with vertex_ptr[g] <= src[e]
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (vertex_ptr[mid] <= src[e]) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  atomicAdd(reinterpret_cast<unsigned long long*>(&counts[lo + 1]), 1ull);
}

// counts[1..n] becomes its inclusive prefix sum, in place (counts[0] stays 0).
void prefix_sum_in_place(int64_t* counts, int64_t n, cudaStream_t stream) {
  if (n == 0) return;
  size_t scratch_bytes = 0;
  APSP_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, scratch_bytes, counts + 1, counts + 1, n, stream));
  DeviceBuffer<char> scratch(scratch_bytes);
  APSP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.get(), scratch_bytes, counts + 1,
                                                counts + 1, n, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));  // the scratch is freed on return
}

}  // namespace

DeviceBuffer<int64_t> edge_ptr_from_sources_on_device(const GraphBatchView& b, int64_t edges,
                                                      cudaStream_t stream) {
  DeviceBuffer<int64_t> ptr(b.graphs + 1);
  APSP_CUDA_CHECK(cudaMemsetAsync(ptr.get(), 0, ptr.bytes(), stream));
  if (edges > 0 && b.graphs > 0) {
    count_edges_by_source<<<grid_for(edges), kThreads, 0, stream>>>(b.vertex_ptr, b.graphs, b.src,
                                                                    edges, ptr.get());
    APSP_CUDA_CHECK_LAUNCH();
  }
  prefix_sum_in_place(ptr.get(), b.graphs, stream);
  return ptr;
}

BatchCheckResult run_batch_checks(const GraphBatchView& b, int64_t edges, cudaStream_t s) {
  kernels::BatchCheckRecord record{kernels::kNoFault, kernels::kNoFault, 0, 0};
  DeviceBuffer<kernels::BatchCheckRecord> on_device(1);
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(on_device.get(), &record, sizeof record, cudaMemcpyHostToDevice, s));
  if (b.graphs > 0) {
    kernels::check_batch_graphs<<<grid_for(b.graphs), kThreads, 0, s>>>(
        kernel_graphs(b), b.graphs, kMaxBatchGraphVertices, on_device.get());
    APSP_CUDA_CHECK_LAUNCH();
  }
  if (edges > 0) {
    kernels::check_batch_edges<<<grid_for(edges), kThreads, 0, s>>>(kernel_graphs(b), b.graphs,
                                                                    edges, on_device.get());
    APSP_CUDA_CHECK_LAUNCH();
  }
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&record, on_device.get(), sizeof record, cudaMemcpyDeviceToHost, s));
  APSP_CUDA_CHECK(cudaStreamSynchronize(s));
  const auto position = [](unsigned long long p) {
    return p == kernels::kNoFault ? int64_t{-1} : static_cast<int64_t>(p);
  };
  return {position(record.bad_graph), position(record.bad_edge), record.max_n, record.max_weight};
}

DeviceBuffer<int64_t> ragged_offsets_on_device(const GraphBatchView& b, cudaStream_t stream) {
  DeviceBuffer<int64_t> offsets(b.graphs + 1);
  squared_sizes<<<grid_for(std::max<int64_t>(b.graphs, 1)), kThreads, 0, stream>>>(
      b.vertex_ptr, b.graphs, offsets.get());
  APSP_CUDA_CHECK_LAUNCH();
  prefix_sum_in_place(offsets.get(), b.graphs, stream);
  return offsets;
}

}  // namespace apsp::harness
