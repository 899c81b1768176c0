#include "python/src/bench.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/device_info.hpp"
#include "core/memory.hpp"
#include "core/results.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/plan/plan.hpp"

namespace apsp::python {

namespace {

// The plan apsp_bench makes of the same options (harness/plan/plan.hpp: select_runs), for one
// GPU.
harness::Plan plan_of(const nlohmann::json& o) {
  harness::Plan p;
  harness::BenchSelection s;
  s.configs = o.value("configs", std::vector<std::string>{});
  s.variants = o.value("variants", std::string());
  for (const int n : o.at("n").get<std::vector<int>>())
    s.sizes += (s.sizes.empty() ? "" : ",") + std::to_string(n);
  s.sizes_name = "n";
  p.graph.spec.seed = o.value("seed", p.graph.spec.seed);
  p.graph.spec.density = o.value("density", p.graph.spec.density);
  p.graph.spec.wmax = o.value("wmax", p.graph.spec.wmax);
  p.sampling.max_reps = o.value("reps", p.sampling.max_reps);
  p.sampling.min_reps = o.value("min_reps", std::min(p.sampling.min_reps, p.sampling.max_reps));
  p.sampling.min_time_s = o.value("min_time", p.sampling.min_time_s);
  p.sampling.flush_l2 = o.value("flush_l2", true);
  p.reference = o.value("verify", p.reference);
  p.ceiling_s = o.value("ceiling_time", p.ceiling_s);
  if (p.graph.spec.density < 0 || p.graph.spec.density > 1 || p.graph.spec.wmax < 1 ||
      p.sampling.min_reps < 1 || p.sampling.max_reps < p.sampling.min_reps ||
      p.sampling.min_time_s < 0 || p.ceiling_s < 0)
    throw std::invalid_argument(
        "density in [0, 1], wmax >= 1, 1 <= min_reps <= reps, min_time >= 0, ceiling_time >= 0");
  harness::select_runs(p, s);
  return p;
}

}  // namespace

std::string bench_json(const std::string& options) {
  const harness::Plan plan = plan_of(nlohmann::json::parse(options));
  if (!has_device()) throw std::runtime_error("no CUDA device: apsp_lab.bench needs a GPU");
  const harness::Session session = harness::Session::here();
  if (const std::string why =
          harness::memory_problem(plan, device_free_bytes(), available_memory().bytes);
      !why.empty())
    throw std::invalid_argument(why);
  const harness::Outcome out = harness::run_plan(plan, session, harness::Observer{});
  return to_json(out.results).dump();
}

std::string check_results_json(const std::string& text, const std::string& source) {
  try {
    return to_json(results_from_json(nlohmann::json::parse(text))).dump();
  } catch (const std::exception& e) {
    throw std::runtime_error(source + ": " + e.what());
  }
}

}  // namespace apsp::python
