// The solve over several GPUs (harness/multigpu/distributed.hpp), the one place the solver
// drives the distributed engine.
#include <fmt/format.h>

#include "core/console.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/solve/solve_steps.hpp"

namespace apsp::harness {

// The matrix built on the host, laid out into the ranks' row blocks, solved, and gathered back.
DistMatrix solve_on_gpus(const EdgeList& graph, const NamedConfig& chosen, int gpus,
                         bool ranks_on_one_gpu, SolveTiming& t) {
  auto t0 = Clock::now();
  const std::unique_ptr<Executor> engine = make_multi_gpu_executor(gpus, ranks_on_one_gpu);
  t.add(fmt::format("start {} ranks", gpus), ms_since(t0));
  t0 = Clock::now();
  {
    const Doing doing(fmt::format("building the {0} x {0} distance matrix", graph.num_vertices),
                      matrix_bytes(graph.num_vertices));
    engine->load(DistMatrix::from_edges(graph));
  }
  t.add("build matrix", ms_since(t0));
  t.add(fmt::format("solve ({} GPUs)", gpus),
        engine->sample(*chosen.variant, chosen.config, false));
  t0 = Clock::now();
  DistMatrix d = engine->output();
  t.add("gather", ms_since(t0));
  return d;
}

}  // namespace apsp::harness
