#include "reports/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/stats.hpp"

namespace apsp::report {

namespace {

std::string label(const RunResult& r) { return r.label.value_or(r.name); }
bool usable(const RunResult& r) {
  return !r.error && r.verified != "FAILED" && !r.samples_ms.empty();
}

std::vector<std::string> labels(const Results& r, bool with_naive) {
  std::vector<std::string> out;
  for (const RunResult& run : r.runs) {
    if (!with_naive && run.variant == "naive") continue;
    if (std::find(out.begin(), out.end(), label(run)) == out.end()) out.push_back(label(run));
  }
  return out;
}
std::set<int> sizes(const Results& r) {
  std::set<int> out;
  for (const RunResult& run : r.runs) out.insert(run.n);
  return out;
}
const RunResult* find(const Results& r, const std::string& lab, int n) {
  for (const RunResult& run : r.runs)
    if (run.n == n && label(run) == lab) return &run;
  return nullptr;
}
const RunResult* naive_at(const Results& r, int n) {
  for (const RunResult& run : r.runs)
    if (run.n == n && run.variant == "naive" && usable(run)) return &run;
  return nullptr;
}
std::string ms(double v) { return fmt::format("{:.2f}", v); }

// A run-label x n matrix, `cell` filling each present run.
template <class F>
Grid matrix(const Input& in, F cell) {
  const auto ns = sizes(in.results);
  Grid g{{"run"}};
  for (int n : ns) g[0].push_back(fmt::format("n = {}", n));
  for (const std::string& lab : labels(in.results, false)) {
    std::vector<std::string> row{lab};
    for (int n : ns) {
      const RunResult* r = find(in.results, lab, n);
      row.push_back(!r            ? "-"
                    : !usable(*r) ? (r->verified == "FAILED" ? "FAILED" : "skipped")
                                  : cell(*r));
    }
    g.push_back(row);
  }
  return g;
}

}  // namespace

Input load(const std::string& path) {
  Input in;
  in.path = path;
  in.results = load_results(path);
  in.has_baseline =
      std::any_of(in.results.runs.begin(), in.results.runs.end(),
                  [](const RunResult& r) { return r.variant == "naive" && usable(r); });
  return in;
}

std::string incomplete_note(const Input& in) {
  if (in.results.complete) return "";
  const size_t runs = in.results.runs.size();
  return fmt::format("{}: incomplete: the sweep was stopped after {} run{}", in.path, runs,
                     runs == 1 ? "" : "s");
}

Grid course_table(const Input& in) {
  const auto labs = labels(in.results, false);
  Grid g{{"n", "naive ms"}};
  for (const std::string& lab : labs) {
    g[0].push_back(lab + " ms");
    g[0].push_back("speedup");
  }
  for (int n : sizes(in.results)) {
    const RunResult* naive = naive_at(in.results, n);
    std::vector<std::string> row{std::to_string(n), naive ? ms(naive->median_ms) : "no baseline"};
    for (const std::string& lab : labs) {
      const RunResult* r = find(in.results, lab, n);
      if (!r) {
        row.insert(row.end(), {"-", "-"});
      } else if (!usable(*r)) {
        row.insert(row.end(), {r->verified == "FAILED" ? "FAILED" : "skipped", "-"});
      } else {
        row.push_back(ms(r->median_ms));
        row.push_back(naive ? fmt::format("{:.1f}x", naive->median_ms / r->median_ms)
                            : "no baseline");
      }
    }
    g.push_back(row);
  }
  return g;
}

Grid speedup_matrix(const Input& in) {
  return matrix(in, [&](const RunResult& r) {
    const RunResult* naive = naive_at(in.results, r.n);
    if (!naive) return std::string("no baseline");
    const auto ci = bootstrap_ratio_ci95(naive->samples_ms, r.samples_ms);
    return fmt::format("{:.1f}x [{:.1f}, {:.1f}]", naive->median_ms / r.median_ms, ci.first,
                       ci.second);
  });
}

// Each run against the ceiling of its own precision (16-bit and 64-bit runs marked).
Grid ceiling_matrix(const Input& in) {
  return matrix(in, [&](const RunResult& r) {
    if (in.results.context.ceiling_for(r.precision) > 0)
      return fmt::format("{:.1f}%{}", r.pct_of_ceiling, precision_mark(r.precision));
    if (r.precision == kPrecisionU16x2) return std::string("no 16-bit ceiling");
    return std::string(r.precision == kPrecisionInt64 ? "no 64-bit ceiling" : "no ceiling");
  });
}

Grid phase_table(const Input& in) {
  Grid g{{"run", "n", "phase 1 ms", "phase 2 ms", "phase 3 ms", "other ms"}};
  for (const RunResult& r : in.results.runs) {
    if (!r.phases_ms) continue;
    const auto& p = *r.phases_ms;
    g.push_back({label(r), std::to_string(r.n), fmt::format("{:.3f}", p[1]),
                 fmt::format("{:.3f}", p[2]), fmt::format("{:.3f}", p[3]),
                 fmt::format("{:.3f}", p[0])});
  }
  return g.size() > 1 ? g : Grid{};
}

// Entries are ranked only against entries of the same device, graph spec and build: timings of
// another graph or another kernel build are not comparable.
Grid leaderboard(const TuningDb& db, int top) {
  using Key = std::tuple<std::string, std::string, std::string, std::string, int>;
  std::map<Key, std::vector<const TuningEntry*>> groups;
  for (const TuningEntry& e : db.entries()) {
    if (e.status != "ok") continue;
    groups[{e.device.name, graph_key_text(e.graph), e.build.kernels, e.variant, e.n}].push_back(&e);
  }
  Grid g{{"device", "graph", "build", "variant", "n", "rank", "config", "median ms", "vs best"}};
  for (auto& [key, list] : groups) {
    std::sort(list.begin(), list.end(),
              [](auto* a, auto* b) { return a->median_ms < b->median_ms; });
    for (size_t i = 0; i < list.size() && i < static_cast<size_t>(top); ++i) {
      g.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key),
                   std::to_string(std::get<4>(key)), std::to_string(i + 1), list[i]->name,
                   fmt::format("{:.3f}", list[i]->median_ms),
                   fmt::format("{:.3f}x", list[i]->median_ms / list[0]->median_ms)});
    }
  }
  return g;
}

std::string markdown(const std::vector<Input>& inputs, const std::optional<TuningDb>& db,
                     const std::vector<std::string>& plots, const std::string& plot_note) {
  std::string md = "# APSP kernel lab: report\n";
  for (const Input& in : inputs) {
    const Context& c = in.results.context;
    md += fmt::format("\n## {}\n\n", in.path);
    md += fmt::format(
        "Device: {} (cc {}, {} SMs, {} MHz), driver {}, runtime {}. Build: git {}, nvcc {}. "
        "Date: {}. Command: `{}`.\n",
        c.device.value("name", "?"), c.device.value("cc", "?"), c.device.value("sms", 0),
        c.device.value("clock_mhz", 0), c.device.value("driver", "?"),
        c.device.value("runtime", "?"), c.build.value("git", "?"), c.build.value("nvcc", "?"),
        c.date, fmt::join(c.argv, " "));
    if (const std::string line = ceilings_line(c); !line.empty()) md += line + "\n";
    if (const std::string note = incomplete_note(in); !note.empty()) md += "\n**" + note + ".**\n";
    if (!in.has_baseline)
      md += "\nThis file has no naive runs: **no baseline**, so no speedups are shown.\n";
    md += "\n### Time and speedup over naive\n\n" + render_markdown(course_table(in));
    md += "\n### Speedup over naive (95% bootstrap interval)\n\n" +
          render_markdown(speedup_matrix(in));
    md += "\n### Share of the measured ceiling\n\n" + render_markdown(ceiling_matrix(in));
    if (const Grid p = phase_table(in); !p.empty())
      md += "\n### Per-phase times (one solve, summed over rounds)\n\n" + render_markdown(p);
  }
  if (db) md += "\n## Tuner leaderboards\n\n" + render_markdown(leaderboard(*db, 5));
  md += "\n## Plots\n\n";
  if (plots.empty()) md += plot_note + "\n";
  for (const std::string& p : plots) md += fmt::format("![{}]({})\n\n", p, p);
  return md;
}

std::string render_csv(const Grid& g) {
  std::string out;
  for (const auto& row : g) {
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string& v = row[c];
      const bool quote = v.find_first_of(",\"\n\r") != std::string::npos;
      std::string esc = v;
      if (quote) {
        esc.clear();
        for (char ch : v) esc += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        esc = "\"" + esc + "\"";
      }
      out += (c ? "," : "") + esc;
    }
    out += "\n";
  }
  return out;
}

Comparison compare(const Input& a, const Input& b, double threshold, bool force) {
  const auto model = [](const Input& in) {
    const auto& d = in.results.context.device;
    return fmt::format("{} (cc {}, {} SMs)", d.value("name", "?"), d.value("cc", "?"),
                       d.value("sms", 0));
  };
  if (model(a) != model(b) && !force) {
    throw std::runtime_error(
        fmt::format("{} ran on {}, {} on {}: refusing to compare different device "
                    "models (--force to compare anyway)",
                    a.path, model(a), b.path, model(b)));
  }
  Comparison c;
  c.table = {{"run", "n", "A ms", "B ms", "B/A", "95% CI", "verdict"}};
  for (const RunResult& ra : a.results.runs) {
    if (!usable(ra)) continue;
    const RunResult* rb = nullptr;
    for (const RunResult& x : b.results.runs)
      if (x.name == ra.name && x.n == ra.n && usable(x)) rb = &x;
    if (!rb) {
      c.only_a.push_back(fmt::format("{} at n = {}", ra.name, ra.n));
      continue;
    }
    const double ratio = rb->median_ms / ra.median_ms;
    const auto ci = bootstrap_ratio_ci95(rb->samples_ms, ra.samples_ms);
    std::string verdict = "same";
    if (ci.first > 1.0) {
      verdict = "slower";
      ++c.slower;
      if (ratio > 1.0 + threshold) {
        ++c.slower_beyond_threshold;
        verdict = "SLOWER";
      }
    } else if (ci.second < 1.0) {
      verdict = "faster";
      ++c.faster;
    } else {
      ++c.same;
    }
    c.table.push_back({ra.name, std::to_string(ra.n), ms(ra.median_ms), ms(rb->median_ms),
                       fmt::format("{:.3f}", ratio),
                       fmt::format("[{:.3f}, {:.3f}]", ci.first, ci.second), verdict});
  }
  for (const RunResult& rb : b.results.runs) {
    if (!usable(rb)) continue;
    const bool in_a = std::any_of(
        a.results.runs.begin(), a.results.runs.end(),
        [&](const RunResult& x) { return x.name == rb.name && x.n == rb.n && usable(x); });
    if (!in_a) c.only_b.push_back(fmt::format("{} at n = {}", rb.name, rb.n));
  }
  return c;
}

}  // namespace apsp::report
