// 20 batch_cpu: many small graphs on the CPU, each by the plain Floyd-Warshall loop, graphs
// spread over the threads (core/graph_batch.hpp: solve_batch_host). The reference every batched
// GPU variant is checked against, and the solve of a batch held in host memory.
#include "variants/batch_variant.hpp"

namespace apsp {

namespace {

BatchVariant make_batch_cpu() {
  BatchVariant v;
  v.name = "batch_cpu";
  v.summary = "many small graphs on the CPU, the plain loop a graph; the batched reference";
  v.target = Target::kHost;
  v.run = [](const BatchRun& r, const Config&, cudaStream_t, int threads) {
    solve_batch_host(r.graphs, r.out, threads);
  };
  return v;
}

}  // namespace

APSP_REGISTER_BATCH_VARIANT(make_batch_cpu)

}  // namespace apsp
