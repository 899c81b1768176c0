// The solve over several GPUs (harness/multigpu/multi_gpu_solve.hpp), the one place the solver
// drives the distributed engine.
#include <fmt/format.h>

#include "harness/solve/solve_steps.hpp"

namespace apsp::harness {

std::unique_ptr<MultiGpuSolve> solve_on_gpus(const SolveInput& graph, const NamedConfig& chosen,
                                             std::unique_ptr<Transport> transport, SolveTiming& t) {
  auto t0 = Clock::now();
  const int gpus = transport->ranks();
  auto ranks = std::make_unique<MultiGpuSolve>(std::move(transport), *chosen.variant, chosen.config,
                                               graph.n());
  t.add(fmt::format("allocate {} ranks", gpus), ms_since(t0));
  t0 = Clock::now();
  ranks->build([&graph](int32_t* block, int pitch, int first_row, int rows, cudaStream_t stream) {
    graph.build_rows_on_device(block, pitch, first_row, rows, stream);
  });
  t.add("build matrix (GPUs)", ms_since(t0));
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
