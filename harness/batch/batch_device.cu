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

}  // namespace

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
  if (b.graphs == 0) return offsets;
  size_t scratch_bytes = 0;
  APSP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scratch_bytes, offsets.get() + 1,
                                                offsets.get() + 1, b.graphs, stream));
  DeviceBuffer<char> scratch(scratch_bytes);
  APSP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scratch.get(), scratch_bytes, offsets.get() + 1,
                                                offsets.get() + 1, b.graphs, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));  // the scratch is freed on return
  return offsets;
}

}  // namespace apsp::harness
