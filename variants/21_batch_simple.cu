// 21 batch_simple: many small graphs on the GPU, a block a graph, the plain k loop over the
// graph's own block of the output, in the output's element type. The plainest GPU solve of a
// batch: the kind's GPU reference, which batch_shared is checked against beside the CPU.
#include "core/cuda_check.hpp"
#include "core/dist_matrix.hpp"
#include "variants/graph_batch_launch.hpp"

namespace apsp {

static_assert(kernels::kInf == kInf, "device and host must agree on 'unreachable'");

namespace {

constexpr int kThreads = 256;  // <- threads a block; a graph's steps are a grid-stride loop

void run_simple(const BatchRun& r, cudaStream_t stream) {
  if (r.graphs.graphs == 0) return;
  with_element_type(r.out.type, [&](auto zero) {
    using T = decltype(zero);
    const auto inf = static_cast<T>(default_unreachable(r.out.type));
    kernels::batch_simple<T><<<checked_grid_x(r.graphs.graphs), kThreads, 0, stream>>>(
        kernel_graphs(r.graphs), kernel_out<T>(r.out), inf, -1, kMaxBatchGraphVertices);
    APSP_CUDA_CHECK_LAUNCH();
  });
}

BatchVariant make_batch_simple() {
  BatchVariant v;
  v.name = "batch_simple";
  v.summary = "many small graphs, a block a graph, the plain k loop in the output; GPU reference";
  v.run = [](const BatchRun& r, const Config&, cudaStream_t stream, int) { run_simple(r, stream); };
  return v;
}

}  // namespace

APSP_REGISTER_BATCH_VARIANT(make_batch_simple)

}  // namespace apsp
