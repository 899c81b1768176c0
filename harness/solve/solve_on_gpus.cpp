// The solve over several GPUs (harness/multigpu/multi_gpu_solve.hpp), the one place the solver
// drives the distributed engine.
#include <fmt/format.h>

#include "core/console.hpp"
#include "harness/solve/solve_steps.hpp"

namespace apsp::harness {

// The matrix is built on the host and laid out into the ranks' row blocks; the host copy is
// freed before the solve, and the distances stay on the devices.
std::unique_ptr<MultiGpuSolve> solve_on_gpus(const SolveInput& graph, const NamedConfig& chosen,
                                             int gpus, const std::string& transport,
                                             SolveTiming& t) {
  auto t0 = Clock::now();
  std::optional<DistMatrix> input;
  {
    const Doing doing(fmt::format("building the {0} x {0} distance matrix", graph.n()),
                      matrix_bytes(graph.n()));
    input = graph.host_adjacency();
  }
  t.add("build matrix", ms_since(t0));
  t0 = Clock::now();
  auto ranks =
      std::make_unique<MultiGpuSolve>(transport, gpus, *chosen.variant, chosen.config, *input);
  input.reset();
  t.add(fmt::format("start {} ranks", gpus), ms_since(t0));
  t0 = Clock::now();
  ranks->run();
  t.add(fmt::format("solve ({} GPUs)", gpus), ms_since(t0));
  return ranks;
}

DistMatrix gather(MultiGpuSolve& ranks, SolveTiming& t) {
  const auto t0 = Clock::now();
  const int n = ranks.n();
  DistMatrix d(n);
  for (int first = 0; first < n; first += ranks.band_rows()) {
    const int count = std::min(ranks.band_rows(), n - first);
    std::copy_n(ranks.band(first, count), static_cast<size_t>(count) * n, d.row(first));
  }
  t.add("gather", ms_since(t0));
  return d;
}

}  // namespace apsp::harness
