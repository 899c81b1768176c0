#include "harness/measure/statistics.hpp"

#include "core/stats.hpp"

namespace apsp::harness {

namespace {

bool same_graph(const GraphDesc& a, const GraphDesc& b) {
  return a.kind == b.kind && a.seed == b.seed && a.density == b.density && a.wmax == b.wmax &&
         a.file == b.file;
}

const std::vector<double>* baseline_samples(const std::vector<RunResult>& runs,
                                            const std::string& baseline, const RunResult& run) {
  for (const RunResult& b : runs)
    if (b.variant == baseline && b.gpus == 1 && b.n == run.n && same_graph(b.graph, run.graph) &&
        !b.samples_ms.empty())
      return &b.samples_ms;
  return nullptr;
}

}  // namespace

void compute_statistics(Results& r, const std::string& baseline,
                        const std::vector<RunResult>& earlier, bool ranks_share_device) {
  for (RunResult& run : r.runs) {
    if (run.samples_ms.empty()) continue;
    const Summary s = summarize(run.samples_ms);
    run.median_ms = s.median;
    run.min_ms = s.min;
    run.stddev_ms = s.stddev;
    run.cv = s.cv;
    const double n = run.n;
    run.updates_per_s = n * n * n / (s.median / 1000.0);
    // Against the ceiling of the run's own precision (a 16-bit run's updates are twice as cheap),
    // of every GPU the run used: ranks that share one GPU used one.
    const double ceiling = r.context.ceiling_for(run.precision);
    const int used = ranks_share_device ? 1 : run.gpus;
    run.pct_of_ceiling = ceiling > 0 ? 100.0 * run.updates_per_s / (used * ceiling) : 0.0;
  }
  // Ranks that share one GPU run in no parallel: no efficiency.
  for (RunResult& run : r.runs) {
    if (run.samples_ms.empty() || run.gpus == 1 || ranks_share_device) continue;
    if (const RunResult* one = one_gpu_run(r, run))
      run.parallel_efficiency = one->median_ms / (run.gpus * run.median_ms);
  }
  for (RunResult& run : r.runs) {
    if (run.samples_ms.empty()) continue;
    const std::vector<double>* base = baseline_samples(r.runs, baseline, run);
    if (!base) base = baseline_samples(earlier, baseline, run);
    if (!base) continue;
    run.speedup_vs_naive = median(*base) / run.median_ms;
    run.speedup_ci95 = bootstrap_ratio_ci95(*base, run.samples_ms);
  }
}

const RunResult* one_gpu_run(const Results& r, const RunResult& run) {
  for (const RunResult& one : r.runs)
    if (one.gpus == 1 && one.name == run.name && one.n == run.n &&
        same_graph(one.graph, run.graph) && !one.samples_ms.empty())
      return &one;
  return nullptr;
}

}  // namespace apsp::harness
