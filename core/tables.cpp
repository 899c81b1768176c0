#include "core/tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace apsp {

namespace {

std::string cell_for(const RunResult& run) {
  if (run.verified == "FAILED") return "FAILED";
  if (run.error) return "skipped";
  std::string s = fmt::format("{:.2f} ms", run.median_ms);
  if (run.speedup_vs_naive && run.variant != "naive")
    s += fmt::format(" ({:.1f}x)", *run.speedup_vs_naive);
  return s;
}

}  // namespace

Grid speedup_grid(const Results& r) {
  std::vector<std::string> names;
  std::set<int> sizes;
  auto column = [](const RunResult& x) { return x.label.value_or(x.name); };
  for (const RunResult& run : r.runs) {
    if (std::find(names.begin(), names.end(), column(run)) == names.end())
      names.push_back(column(run));
    sizes.insert(run.n);
  }
  Grid g;
  std::vector<std::string> header{"n"};
  for (const std::string& name : names) header.push_back(name);
  g.push_back(header);
  for (int n : sizes) {
    std::vector<std::string> row{std::to_string(n)};
    for (const std::string& name : names) {
      auto it = std::find_if(r.runs.begin(), r.runs.end(),
                             [&](const RunResult& x) { return x.n == n && column(x) == name; });
      row.push_back(it == r.runs.end() ? "-" : cell_for(*it));
    }
    g.push_back(row);
  }
  return g;
}

Grid detail_grid(const Results& r) {
  Grid g{{"run", "n", "median ms", "min ms", "cv", "G updates/s", "% ceiling", "speedup [95% CI]",
          "verified"}};
  // --cuda-graph runs get one more column: the replay of a captured solve.
  const bool graphs = std::any_of(r.runs.begin(), r.runs.end(),
                                  [](const RunResult& x) { return x.graph_median_ms.has_value(); });
  if (graphs) g[0].push_back("graph ms");
  const bool phases = std::any_of(r.runs.begin(), r.runs.end(),
                                  [](const RunResult& x) { return x.phases_ms.has_value(); });
  if (phases) g[0].insert(g[0].end(), {"phase 1 ms", "phase 2 ms", "phase 3 ms", "other ms"});
  // Multi-GPU runs (--gpus): the count, and the parallel efficiency over the one-GPU run.
  const bool gpus =
      std::any_of(r.runs.begin(), r.runs.end(), [](const RunResult& x) { return x.gpus > 1; });
  if (gpus) g[0].insert(g[0].end(), {"GPUs", "efficiency"});
  for (const RunResult& run : r.runs) {
    if (run.error || run.verified == "FAILED") {
      g.push_back({run.name, std::to_string(run.n), "-", "-", "-", "-", "-", "-",
                   run.verified == "FAILED" ? "FAILED: " + run.error.value_or("")
                                            : "skipped: " + *run.error});
      if (graphs) g.back().push_back("-");
      if (phases) g.back().insert(g.back().end(), 4, "-");
      if (gpus) g.back().insert(g.back().end(), {std::to_string(run.gpus), "-"});
      continue;
    }
    std::string speedup = "-";
    if (run.speedup_vs_naive) {
      speedup = fmt::format("{:.2f}", *run.speedup_vs_naive);
      if (run.speedup_ci95)
        speedup +=
            fmt::format(" [{:.2f}, {:.2f}]", run.speedup_ci95->first, run.speedup_ci95->second);
    }
    g.push_back({run.name, std::to_string(run.n), fmt::format("{:.3f}", run.median_ms),
                 fmt::format("{:.3f}", run.min_ms), fmt::format("{:.3f}", run.cv),
                 fmt::format("{:.1f}", run.updates_per_s / 1e9),
                 fmt::format("{:.1f}{}", run.pct_of_ceiling, precision_mark(run.precision)),
                 speedup, run.verified});
    if (graphs)
      g.back().push_back(run.graph_median_ms ? fmt::format("{:.3f}", *run.graph_median_ms) : "-");
    if (phases) {
      for (int p : {1, 2, 3, 0})
        g.back().push_back(run.phases_ms ? fmt::format("{:.3f}", (*run.phases_ms)[p]) : "-");
    }
    if (gpus) {
      g.back().push_back(std::to_string(run.gpus));
      g.back().push_back(
          run.parallel_efficiency ? fmt::format("{:.1f}%", 100 * *run.parallel_efficiency) : "-");
    }
  }
  return g;
}

std::string ceilings_line(const Context& c) {
  std::vector<std::string> parts;
  if (c.ceiling_updates_per_s > 0)
    parts.push_back(fmt::format("int32 {:.2f} T updates/s", c.ceiling_updates_per_s / 1e12));
  if (c.ceiling_u16_updates_per_s > 0)
    parts.push_back(fmt::format("packed 16-bit {:.2f} T updates/s (two per VIADDMNMX.U16x2)",
                                c.ceiling_u16_updates_per_s / 1e12));
  if (c.ceiling_i64_updates_per_s > 0)
    parts.push_back(fmt::format("int64 {:.2f} T updates/s", c.ceiling_i64_updates_per_s / 1e12));
  if (parts.empty()) return "";
  return fmt::format(
      "Measured min-plus ceilings: {}. A run's share of the ceiling is against its "
      "own precision's.",
      fmt::join(parts, ", "));
}

std::string precision_mark(const std::string& precision) {
  if (precision == kPrecisionU16x2) return " (u16)";
  return precision == kPrecisionInt64 ? " (i64)" : "";
}

std::string render_text(const Grid& g) {
  if (g.empty()) return "";
  std::vector<size_t> width(g[0].size(), 0);
  for (const auto& row : g)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string out;
  for (const auto& row : g) {
    for (size_t c = 0; c < row.size(); ++c) {
      out += c == 0 ? fmt::format("{:<{}}", row[c], width[c])
                    : fmt::format("  {:>{}}", row[c], width[c]);
    }
    out += '\n';
  }
  return out;
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|' || c == '\\') out += '\\';
    const auto u = static_cast<unsigned char>(c);
    out += u < 0x20 || u == 0x7f ? ' ' : c;
  }
  return out;
}

std::string render_markdown(const Grid& g) {
  if (g.empty()) return "";
  std::vector<bool> right(g[0].size(), true);
  right[0] = false;
  return render_markdown(g, right);
}

std::string render_markdown(const Grid& g, const std::vector<bool>& right) {
  if (g.empty()) return "";
  std::string out;
  auto line = [&](const std::vector<std::string>& row) {
    out += "|";
    for (const std::string& c : row) {
      out += ' ';
      out += markdown_cell(c);
      out += " |";
    }
    out += "\n";
  };
  line(g[0]);
  out += "|";
  for (size_t c = 0; c < g[0].size(); ++c) out += c < right.size() && right[c] ? "---:|" : ":---|";
  out += "\n";
  for (size_t r = 1; r < g.size(); ++r) line(g[r]);
  return out;
}

}  // namespace apsp
