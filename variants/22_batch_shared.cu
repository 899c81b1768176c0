// 22 batch_shared: many small graphs on the GPU, each matrix in shared memory, one launch a size
// band: graphs of up to `lanes` vertices go kLanes lanes a graph (a lane a column; several graphs
// a warp for molecules), larger ones up to kBlockMaxN a block a graph, and the rest (up to
// kMaxBatchGraphVertices) as batch_simple does them. Against batch_simple: no global-memory
// traffic inside a graph's k loop, and no idle block for a graph of a dozen vertices.
#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/dist_matrix.hpp"
#include "variants/graph_batch_launch.hpp"

namespace apsp {

namespace {

constexpr int kLaneGroupThreads = 256;  // <- threads a block of lane groups
constexpr int kBlockMaxN = 224;         // <- 224^2 ints = 196 KiB, within sm_90's 227 KiB a block
constexpr int kSimpleThreads = 256;

template <class T, int kLanes>
void launch_lane_groups(const BatchRun& r, cudaStream_t stream) {
  const int64_t blocks =
      (r.graphs.graphs + kLaneGroupThreads / kLanes - 1) / (kLaneGroupThreads / kLanes);
  const int smem = kLaneGroupThreads * kLanes * static_cast<int>(sizeof(int));
  kernels::batch_lane_groups<T, kLanes>
      <<<checked_grid_x(blocks), kLaneGroupThreads, smem, stream>>>(
          kernel_graphs(r.graphs), kernel_out<T>(r.out), r.graphs.graphs, -1);
  APSP_CUDA_CHECK_LAUNCH();
}

template <class T>
void launch_bands(const BatchRun& r, const Config& c, cudaStream_t stream) {
  const int lanes = c.at("lanes");
  switch (lanes) {
    case 8:
      launch_lane_groups<T, 8>(r, stream);
      break;
    case 16:
      launch_lane_groups<T, 16>(r, stream);
      break;
    default:
      launch_lane_groups<T, 32>(r, stream);
      break;
  }
  const unsigned grid = checked_grid_x(r.graphs.graphs);
  if (r.max_n > lanes) {
    const int top = std::min(r.max_n, kBlockMaxN);
    const int smem = top * top * static_cast<int>(sizeof(int));
    APSP_CUDA_CHECK(cudaFuncSetAttribute(kernels::batch_block<T>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    kernels::batch_block<T><<<grid, c.at("threads"), smem, stream>>>(
        kernel_graphs(r.graphs), kernel_out<T>(r.out), lanes, top);
    APSP_CUDA_CHECK_LAUNCH();
  }
  if (r.max_n > kBlockMaxN) {
    const auto inf = static_cast<T>(default_unreachable(r.out.type));
    kernels::batch_simple<T><<<grid, kSimpleThreads, 0, stream>>>(
        kernel_graphs(r.graphs), kernel_out<T>(r.out), inf, kBlockMaxN, kMaxBatchGraphVertices);
    APSP_CUDA_CHECK_LAUNCH();
  }
}

BatchVariant make_batch_shared() {
  BatchVariant v;
  v.name = "batch_shared";
  v.summary = "many small graphs in shared memory: lane groups for tiny graphs, a block for larger";
  v.space = {
      {"lanes",
       {8, 16, 32},
       "graphs of up to this many vertices go this many lanes a graph",
       "batch"},
      {"threads", {128, 256, 512}, "threads a block for graphs above `lanes` vertices", "batch"},
  };
  v.defaults = {{"lanes", 32}, {"threads", 256}};
  v.run = [](const BatchRun& r, const Config& c, cudaStream_t stream, int) {
    if (r.graphs.graphs == 0) return;
    with_element_type(r.out.type, [&](auto zero) { launch_bands<decltype(zero)>(r, c, stream); });
  };
  return v;
}

}  // namespace

APSP_REGISTER_BATCH_VARIANT(make_batch_shared)

}  // namespace apsp
