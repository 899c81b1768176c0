// harness/batch/batch_solve.hpp: the paths of a solved batch, on the host's threads or a thread a
// source vertex on the GPU, both by the row routines of kernels/batch_paths.cuh (one code, so
// the same paths bit for bit). Where the caller asks for edge paths without the predecessors,
// the predecessors go to scratch, as the edge into each vertex always does: a row's on the
// host, the batch's on the GPU (every thread its own row of it).
#include <algorithm>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/parallel.hpp"
#include "harness/batch/batch_solve.hpp"
#include "kernels/batch_paths.cuh"
#include "variants/graph_batch_launch.hpp"

namespace apsp::harness {

namespace {

// Fills the padding (every entry no row writes) with -1 before the rows write theirs.
template <class Fill>
void fill_padding(const BatchOutputView& dist, int64_t elements, const BatchPathOutput& paths,
                  int max_dist, Fill fill) {
  if (dist.padded_n == 0) return;
  if (paths.pred) fill(paths.pred, elements * int64_t{sizeof(int16_t)});
  if (paths.edges) fill(paths.edges, elements * max_dist * int64_t{sizeof(int32_t)});
}

}  // namespace

void batch_paths_host(const GraphBatchView& b, const BatchOutputView& dist, int64_t elements,
                      const BatchPathOutput& paths, int max_dist, int threads) {
  if (b.graphs == 0) return;
  fill_padding(dist, elements, paths, max_dist,
               [](void* p, int64_t bytes) { std::fill_n(static_cast<char*>(p), bytes, -1); });
  const kernels::BatchGraphs graphs = kernel_graphs(b);
  const int chunks = static_cast<int>(std::min<int64_t>(b.graphs, 4096));
  with_element_type(dist.type, [&](auto zero) {
    const auto solved = kernel_out<decltype(zero)>(dist);
    parallel_for(chunks, threads, [&](int c) {
      std::vector<int16_t> pred(kMaxBatchGraphVertices);  // a row's, where not asked
      std::vector<int32_t> into(kMaxBatchGraphVertices);
      for (int64_t g = b.graphs * c / chunks; g < b.graphs * (c + 1) / chunks; ++g) {
        const int n = static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]);
        for (int i = 0; i < n; ++i) {
          const int64_t at = kernels::row_offset(solved, g, n, i);
          kernels::paths_of_row(graphs, solved, g, i,
                                {paths.pred ? paths.pred + at : pred.data(), into.data(),
                                 paths.edges ? paths.edges + at * max_dist : nullptr, max_dist});
        }
      }
    });
  });
}

void batch_paths_device(const GraphBatchView& b, int64_t vertices, const BatchOutputView& dist,
                        int64_t elements, const BatchPathOutput& paths, int max_dist,
                        cudaStream_t stream) {
  if (b.graphs == 0) return;
  fill_padding(dist, elements, paths, max_dist, [&](void* p, int64_t bytes) {
    APSP_CUDA_CHECK(cudaMemsetAsync(p, 0xff, bytes, stream));
  });
  DeviceBuffer<int16_t> pred_scratch(paths.pred ? 0 : elements);
  DeviceBuffer<int32_t> into(paths.edges ? elements : 0);
  const kernels::BatchPathsOut out{paths.pred ? paths.pred : pred_scratch.get(), into.get(),
                                   paths.edges, max_dist};
  constexpr int kThreads = 128;
  if (vertices > 0) {
    with_element_type(dist.type, [&](auto zero) {
      using T = decltype(zero);
      kernels::batch_paths<T>
          <<<checked_grid_x((vertices + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
              kernel_graphs(b), b.graphs, vertices, kernel_out<T>(dist), out);
      APSP_CUDA_CHECK_LAUNCH();
    });
  }
  // The scratch is freed on return.
  if (!paths.pred || paths.edges) APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace apsp::harness
