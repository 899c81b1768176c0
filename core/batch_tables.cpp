#include "core/batch_tables.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace apsp {

bool has_batch_runs(const Results& r) {
  return std::any_of(r.runs.begin(), r.runs.end(),
                     [](const RunResult& run) { return run.batch.has_value(); });
}

namespace {

// "1000 x n = 128" or "100000 molecules (n <= 51)".
std::string batch_cell(const RunResult& run) {
  const BatchDesc& b = *run.batch;
  if (b.sizes == "molecules") return fmt::format("{} molecules", b.graphs);
  return fmt::format("{} x n = {}", b.graphs, run.n);
}

// A share, marked when its ceiling is the one the batch takes longer at; "-" when the ceiling
// was not measured.
std::string share(double pct, double ceiling, bool bound) {
  if (ceiling <= 0) return "-";
  return fmt::format("{:.1f}{}", pct, bound ? " *" : "");
}

}  // namespace

Grid batch_grid(const Results& r) {
  Grid g{{"run", "batch", "max n", "type", "median ms", "graphs/s", "G updates/s", "% min-plus",
          "GB/s", "% HBM", "verified"}};
  for (const RunResult& run : r.runs) {
    if (!run.batch) continue;
    const BatchDesc& b = *run.batch;
    if (run.error || run.verified == "FAILED" || run.samples_ms.empty()) {
      g.push_back({run.name, batch_cell(run), std::to_string(run.n), b.dist_type, "-", "-", "-",
                   "-", "-", "-",
                   (run.verified == "FAILED" ? "FAILED: " : "skipped: ") + run.error.value_or("")});
      continue;
    }
    g.push_back({run.name, batch_cell(run), std::to_string(run.n), b.dist_type,
                 fmt::format("{:.3f}", run.median_ms), fmt::format("{:.4g}", b.graphs_per_s),
                 fmt::format("{:.1f}", run.updates_per_s / 1e9),
                 share(run.pct_of_ceiling, r.context.ceiling_updates_per_s, b.bound == "compute"),
                 fmt::format("{:.1f}", b.bytes / (run.median_ms / 1000.0) / 1e9),
                 share(b.pct_of_hbm, r.context.hbm_bytes_per_s, b.bound == "memory"),
                 run.verified});
  }
  return g;
}

std::string batch_ceilings_line(const Context& c) {
  if (c.ceiling_updates_per_s <= 0 && c.hbm_bytes_per_s <= 0) return "";
  return fmt::format(
      "Measured: int32 min-plus {:.2f} T updates/s, device memory {:.2f} TB/s (a device-to-device "
      "copy, bytes read plus written); * marks the bound: the ceiling the batch takes longer at\n",
      c.ceiling_updates_per_s / 1e12, c.hbm_bytes_per_s / 1e12);
}

}  // namespace apsp
