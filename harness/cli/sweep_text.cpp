#include "harness/cli/sweep_text.hpp"

#include <fmt/format.h>

#include <type_traits>

#include "core/tables.hpp"
#include "harness/measure/statistics.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/multi_gpu_model.hpp"
#include "harness/multigpu/transport.hpp"
#include "variants/batch_variant.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

namespace {

// A run over ranks sharing one GPU beside the same config solved whole there.
std::string shared_device_line(const Results& r, const RunResult& run) {
  const RunResult* one = one_gpu_run(r, run);
  if (!one) return "";
  return fmt::format(
      "{} at n = {} over {} ranks on one GPU: {:.3f} ms, {:+.1f}% against {:.3f} ms solved "
      "whole\n",
      run.name, run.n, run.gpus, run.median_ms, 100 * (run.median_ms / one->median_ms - 1),
      one->median_ms);
}

// A run on several GPUs beside the model from this sweep's one-GPU rate.
std::string model_line(const RunResult& run) {
  if (!run.parallel_efficiency) return "";
  const double one_gpu_ms = run.gpus * run.median_ms * *run.parallel_efficiency;
  LinkModel link = h200_nvlink_model();
  link.rate_updates_per_s = static_cast<double>(run.n) * run.n * run.n / (one_gpu_ms / 1000);
  const Variant* v = find_variant(run.variant);
  if (!v) return "";
  const Prediction p = predict(run.n, run.gpus, distributed_tile(*v, run.config), link);
  return fmt::format(
      "{} at n = {} on {} GPUs: measured {:.3f} s ({:.1f}% parallel efficiency); model from this "
      "run's "
      "one-GPU rate: {:.3f} s ({:.1f}%)\n",
      run.name, run.n, run.gpus, run.median_ms / 1000, 100 * *run.parallel_efficiency, p.total_s,
      100 * p.efficiency);
}

// A variant of either kind: its parameters, constraints and declared default. A single-graph
// variant's default may be overridden per n by a policy; a batched one's is what runs.
template <class V>
std::string variant_text(const V& v) {
  std::string text = fmt::format("{:<13} {}\n", v.name, v.summary);
  for (const Param& p : v.space) {
    text += fmt::format("{:<13}   {} in {{{}}} (declared default {}, search group '{}'): {}\n", "",
                        p.name, fmt::join(p.values, ","), v.defaults.at(p.name), p.group, p.help);
  }
  for (const Constraint& c : v.constraints)
    text += fmt::format("{:<13}   constraint: {}\n", "", c.rule);
  const bool per_n = std::is_same_v<V, Variant> && !v.space.empty();
  return text +
         fmt::format("{:<13}   declared default: {}{}\n", "", config_name(v.name, v.defaults),
                     per_n ? " (a policy or heuristic may pick another per n: see --dry-run)" : "");
}

}  // namespace

std::string session_line(const Session& session) {
  if (!session.device)
    return fmt::format("device: none, host variants only; build {} (kernels {})",
                       session.build.commit, session.build.kernels);
  const DeviceInfo& dev = *session.device;
  return fmt::format(
      "device: {} (cc {}, {} SMs, {} MHz), driver {}, runtime {}; build {} (kernels {})", dev.name,
      dev.cc(), dev.sms, dev.clock_mhz, dev.driver, dev.runtime, session.build.commit,
      session.build.kernels);
}

std::string finished_line(const RunResult& r) {
  std::string line = fmt::format("n = {}: {}{}: ", r.n, r.name,
                                 r.gpus > 1 ? fmt::format(" on {} GPUs", r.gpus) : "");
  if (r.verified == "FAILED") return line + "FAILED: " + r.error.value_or("");
  if (r.error || r.samples_ms.empty()) return line + "skipped: " + r.error.value_or("");
  line += fmt::format("{:.3f} ms (median of {})", r.median_ms, r.samples_ms.size());
  if (r.speedup_vs_naive) {
    line += fmt::format(", {:.2f}x naive", *r.speedup_vs_naive);
    if (r.speedup_ci95)
      line += fmt::format(" [{:.2f}, {:.2f}]", r.speedup_ci95->first, r.speedup_ci95->second);
  }
  return line + ", verified " + r.verified;
}

std::string sweep_markdown(const Results& results) {
  const nlohmann::json& dev = results.context.device;
  const std::string name = dev.value("name", "?");
  std::string md = fmt::format(
      "# apsp_bench on {}\n\n{} (cc {}, {} SMs), driver {}, runtime {}, git {}, {}\n\n", name, name,
      dev.value("cc", "?"), dev.value("sms", 0), dev.value("driver", "?"),
      dev.value("runtime", "?"), results.context.build.value("git", "?"), results.context.date);
  if (const std::string line = ceilings_line(results.context); !line.empty()) md += line + "\n\n";
  md += "## Time and speedup over naive\n\n" + render_markdown(speedup_grid(results));
  return md + "\n## Every run\n\n" + render_markdown(detail_grid(results));
}

std::string measured_and_model(const Results& r) {
  std::string lines;
  for (const RunResult& run : r.runs) {
    if (run.gpus == 1 || run.samples_ms.empty()) continue;
    lines +=
        transport_shares_device(r.context.transport) ? shared_device_line(r, run) : model_line(run);
  }
  return lines;
}

std::string variants_list() {
  std::string text;
  for (const Variant& v : registry()) text += variant_text(v);
  for (const Variant& v : runtime_variants()) text += variant_text(v);
  text += "\nbatched variants (--graphs B: many small graphs a call):\n";
  for (const BatchVariant& v : batch_registry()) text += variant_text(v);
  return text;
}

}  // namespace apsp::harness
