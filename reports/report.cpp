#include "reports/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <stdexcept>
#include <tuple>

#include "core/batch_tables.hpp"
#include "core/stats.hpp"

namespace apsp::report {

std::string run_label(const RunResult& r) { return r.label.value_or(r.name); }
bool usable(const RunResult& r) {
  return !r.error && r.verified != "FAILED" && !r.samples_ms.empty();
}

std::vector<std::string> run_labels(const Results& r, bool with_naive) {
  std::vector<std::string> out;
  for (const RunResult& run : r.runs) {
    if (!with_naive && run.variant == "naive") continue;
    if (std::find(out.begin(), out.end(), run_label(run)) == out.end())
      out.push_back(run_label(run));
  }
  return out;
}
std::vector<int> run_sizes(const Results& r) {
  std::set<int> out;
  for (const RunResult& run : r.runs) out.insert(run.n);
  return {out.begin(), out.end()};
}
const RunResult* find_run(const Results& r, const std::string& lab, int n) {
  for (const RunResult& run : r.runs)
    if (run.n == n && run_label(run) == lab) return &run;
  return nullptr;
}

namespace {

const RunResult* naive_at(const Results& r, int n) {
  for (const RunResult& run : r.runs)
    if (run.n == n && run.variant == "naive" && usable(run)) return &run;
  return nullptr;
}
std::string ms(double v) { return fmt::format("{:.2f}", v); }

// A run-label x n matrix, `cell` filling each present run.
template <class F>
Grid matrix(const Input& in, F cell) {
  const auto ns = run_sizes(in.results);
  Grid g{{"run"}};
  for (int n : ns) g[0].push_back(fmt::format("n = {}", n));
  for (const std::string& lab : run_labels(in.results, false)) {
    std::vector<std::string> row{lab};
    for (int n : ns) {
      const RunResult* r = find_run(in.results, lab, n);
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
  try {
    in.results = load_results(path);
  } catch (const std::runtime_error& e) {
    // A tuning database where results were expected: the reader knows the schema, not the fix.
    const std::string what = e.what();
    if (what.find("unknown schema \"apsp-tuning/") == std::string::npos) throw;
    throw std::runtime_error(what + "; it is a tuning database: pass it with --db");
  }
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

bool only_batches(const Input& in) {
  return !in.results.runs.empty() &&
         std::all_of(in.results.runs.begin(), in.results.runs.end(),
                     [](const RunResult& r) { return r.batch.has_value(); });
}

std::string no_baseline_note(const Input& in) {
  if (in.has_baseline || only_batches(in)) return "";
  return fmt::format("{}: no naive runs, so no baseline: speedups are not shown", in.path);
}

Grid course_table(const Input& in) {
  const auto labs = run_labels(in.results, false);
  const bool base = in.has_baseline;
  Grid g{{"n"}};
  if (base) g[0].push_back("naive ms");
  for (const std::string& lab : labs) {
    g[0].push_back(lab + " ms");
    if (base) g[0].push_back("speedup");
  }
  for (int n : run_sizes(in.results)) {
    const RunResult* naive = naive_at(in.results, n);
    std::vector<std::string> row{std::to_string(n)};
    if (base) row.push_back(naive ? ms(naive->median_ms) : "no baseline");
    for (const std::string& lab : labs) {
      const RunResult* r = find_run(in.results, lab, n);
      std::string speedup = "-";
      if (!r) {
        row.push_back("-");
      } else if (!usable(*r)) {
        row.push_back(r->verified == "FAILED" ? "FAILED" : "skipped");
      } else {
        row.push_back(ms(r->median_ms));
        speedup = naive ? fmt::format("{:.1f}x", naive->median_ms / r->median_ms) : "no baseline";
      }
      if (base) row.push_back(speedup);
    }
    g.push_back(row);
  }
  return g;
}

std::optional<Speedup> speedup_of(const Input& in, const RunResult& r) {
  const RunResult* naive = naive_at(in.results, r.n);
  if (!naive || !usable(r)) return std::nullopt;
  const auto ci = bootstrap_ratio_ci95(naive->samples_ms, r.samples_ms);
  return Speedup{naive->median_ms / r.median_ms, ci.first, ci.second};
}

Grid speedup_matrix(const Input& in) {
  if (!in.has_baseline) return {};
  return matrix(in, [&](const RunResult& r) {
    const std::optional<Speedup> s = speedup_of(in, r);
    if (!s) return std::string("no baseline");
    return fmt::format("{:.1f}x [{:.1f}, {:.1f}]", s->mid, s->lo, s->hi);
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
    g.push_back({run_label(r), std::to_string(r.n), fmt::format("{:.3f}", p[1]),
                 fmt::format("{:.3f}", p[2]), fmt::format("{:.3f}", p[3]),
                 fmt::format("{:.3f}", p[0])});
  }
  return g.size() > 1 ? g : Grid{};
}

namespace {

// A leaderboard's graph and build cells: a migrated apsp-tuning/1 entry recorded neither.
std::string graph_cell(const TuningEntry& e) {
  return e.graph.kind == "unknown" ? "not recorded (apsp-tuning/1)" : graph_key_text(e.graph);
}
std::string build_cell(const TuningEntry& e) {
  if (e.build.kernels != "unknown (apsp-tuning/1)") return e.build.kernels;
  const std::string& git = e.build.commit;
  return git.empty() || git == "unknown" ? "not recorded (apsp-tuning/1)"
                                         : fmt::format("git {} (apsp-tuning/1)", git);
}

}  // namespace

std::map<BoardKey, std::vector<const TuningEntry*>> leaderboard_groups(const TuningDb& db) {
  std::map<BoardKey, std::vector<const TuningEntry*>> groups;
  for (const TuningEntry& e : db.entries())
    if (e.status == "ok")
      groups[{e.device.name, graph_cell(e), build_cell(e), e.variant, e.n}].push_back(&e);
  for (auto& [key, list] : groups)
    std::stable_sort(list.begin(), list.end(),
                     [](auto* a, auto* b) { return a->median_ms < b->median_ms; });
  return groups;
}

Grid leaderboard(const TuningDb& db, int top) {
  Grid g{{"device", "graph", "build", "variant", "n", "rank", "config", "median ms", "vs best"}};
  for (const auto& [key, list] : leaderboard_groups(db)) {
    for (size_t i = 0; i < list.size() && i < static_cast<size_t>(top); ++i) {
      g.push_back({key.device, key.graph, key.build, key.variant, std::to_string(key.n),
                   std::to_string(i + 1), list[i]->name, fmt::format("{:.3f}", list[i]->median_ms),
                   fmt::format("{:.3f}x", list[i]->median_ms / list[0]->median_ms)});
    }
  }
  return g;
}

namespace {

// Whether any timed run of the file has a ceiling of its precision to be a share of.
bool has_ceiling(const Input& in) {
  return std::any_of(in.results.runs.begin(), in.results.runs.end(), [&](const RunResult& r) {
    return usable(r) && in.results.context.ceiling_for(r.precision) > 0;
  });
}

}  // namespace

namespace {

// The single-graph tables of an input whose runs are single graphs.
std::vector<Table> single_graph_tables(const Input& in) {
  std::vector<Table> out{
      {"speedup_table",
       in.has_baseline ? "Time and speedup over naive" : "Median time (no baseline: no speedups)",
       course_table(in), ""},
      {"speedup_matrix", "Speedup over naive (95% bootstrap interval)", speedup_matrix(in), ""},
      {"ceiling_matrix", "Share of the measured ceiling", {}, ""},
      {"phases", "Per-phase times (one solve, summed over rounds)", phase_table(in), ""}};
  if (has_ceiling(in))
    out[2].grid = ceiling_matrix(in);
  else
    out[2].note =
        "No min-plus ceiling was measured for these runs (apsp_bench --ceiling-time 0), so no "
        "shares are shown";
  std::erase_if(out, [](const Table& t) { return t.grid.size() < 2 && t.note.empty(); });
  return out;
}

// The batch runs' table (core/batch_tables.hpp), the ceilings its shares are against beneath.
std::vector<Table> batch_tables(const Input& in) {
  std::vector<Table> out{{"batches", "Batches of small graphs", batch_grid(in.results), ""}};
  std::string line = batch_ceilings_line(in.results.context);
  if (line.empty()) line = "No ceiling was measured for these runs, so no shares are shown\n";
  out.push_back({"batch_ceilings", "Batch ceilings", {}, line.substr(0, line.size() - 1)});
  return out;
}

}  // namespace

std::vector<Table> tables(const Input& in) {
  if (!has_batch_runs(in.results)) return single_graph_tables(in);
  std::vector<Table> out = batch_tables(in);
  Input single = in;
  std::erase_if(single.results.runs, [](const RunResult& r) { return r.batch.has_value(); });
  if (single.results.runs.empty()) return out;
  for (Table& t : single_graph_tables(single)) out.push_back(std::move(t));
  return out;
}

bool figure_cell(const std::string& cell) {
  // A number, then a unit, then an interval or a precision mark: "7.7x [7.6, 7.8]", "10.2% (u16)".
  // An interval alone ("[0.998, 1.002]") is one too.
  static const std::regex figure(
      R"([-+]?[0-9][0-9.]*(e[-+]?[0-9]+)?(x|%| ms)?( \[[-+0-9.e, ]*\])?( \([a-z0-9]+\))?)"
      R"(|\[[-+0-9.e]+, [-+0-9.e]+\])");
  return std::regex_match(cell, figure);
}

std::vector<bool> figure_columns(const Grid& g) {
  std::vector<bool> right(g.empty() ? 0 : g[0].size(), false);
  for (size_t c = 0; c < right.size(); ++c) {
    size_t figures = 0, cells = 0;
    for (size_t r = 1; r < g.size(); ++r) {
      if (c >= g[r].size() || g[r][c] == "-") continue;
      ++cells;
      figures += figure_cell(g[r][c]);
    }
    right[c] = cells > 0 && 2 * figures >= cells;  // "no baseline" beside figures stays right
  }
  return right;
}

std::string markdown_table(const Grid& g) { return render_markdown(g, figure_columns(g)); }

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
    if (!in.has_baseline && !only_batches(in))
      md += "\nThis file has no naive runs: **no baseline**, so no speedups are shown.\n";
    for (const Table& t : tables(in))
      md +=
          "\n### " + t.title + "\n\n" + (t.note.empty() ? markdown_table(t.grid) : t.note + ".\n");
  }
  if (db) md += "\n## Tuner leaderboards\n\n" + markdown_table(leaderboard(*db, 5));
  md += "\n## Plots\n\n";
  if (plots.empty()) md += plot_note + "\n";
  for (const std::string& p : plots) md += fmt::format("![{}]({})\n\n", p, p);
  return md;
}

namespace {

// One input's tables in md or csv: its notes, then each table under its title.
std::string input_tables(const Input& in, const std::string& format) {
  std::string out;
  const bool md = format == "md";
  if (md) out += fmt::format("## {}\n\n", in.path);
  for (const std::string& note : {incomplete_note(in), no_baseline_note(in)})
    if (!note.empty()) out += md ? fmt::format("{}\n\n", note) : fmt::format("# {}\n", note);
  for (const Table& t : tables(in)) {
    if (!t.note.empty())
      out += md ? fmt::format("### {}\n\n{}.\n\n", t.title, t.note)
                : fmt::format("# {}: {}: {}\n\n", in.path, t.title, t.note);
    else
      out += md ? fmt::format("### {}\n\n{}\n", t.title, markdown_table(t.grid))
                : fmt::format("# {}: {}\n{}\n", in.path, t.title, render_csv(t.grid));
  }
  return out;
}

}  // namespace

std::string render_tables(const std::vector<Input>& inputs, const std::optional<TuningDb>& db,
                          const std::string& db_path, const std::string& format) {
  if (format == "json") {
    nlohmann::json all = nlohmann::json::object();
    for (const Input& in : inputs) {
      nlohmann::json& j = all[in.path];
      if (!in.results.complete) j["complete"] = false;
      if (!in.has_baseline) j["baseline"] = false;
      for (const Table& t : tables(in))
        if (t.note.empty())
          j[t.key] = t.grid;
        else
          j["notes"].push_back(t.note);
    }
    if (db) all[db_path]["leaderboards"] = leaderboard(*db, 5);
    return all.dump(2) + "\n";
  }
  std::string out;
  for (const Input& in : inputs) out += input_tables(in, format);
  if (db && format == "md")
    out += fmt::format("## {}: tuner leaderboards\n\n{}\n", db_path,
                       markdown_table(leaderboard(*db, 5)));
  if (db && format == "csv")
    out += fmt::format("# {}: tuner leaderboards\n{}\n", db_path, render_csv(leaderboard(*db, 5)));
  return out;
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

const char* verdict_text(Verdict v) {
  switch (v) {
    case Verdict::faster:
      return "faster";
    case Verdict::slower:
      return "slower";
    case Verdict::slower_beyond:
      return "SLOWER";
    case Verdict::same:
      return "same";
    case Verdict::ambiguous:
      return "ambiguous";
  }
  return "?";
}

namespace {

// The device model a results file ran on, as compare matches it.
std::string device_model(const Input& in) {
  const auto& d = in.results.context.device;
  return fmt::format("{} (cc {}, {} SMs)", d.value("name", "?"), d.value("cc", "?"),
                     d.value("sms", 0));
}

Verdict verdict_of(const ComparedRun& r, double threshold) {
  if (r.lo > 1.0) return r.ratio > 1.0 + threshold ? Verdict::slower_beyond : Verdict::slower;
  if (r.hi < 1.0) return Verdict::faster;
  if (r.lo >= 1.0 - threshold && r.hi <= 1.0 + threshold) return Verdict::same;
  return Verdict::ambiguous;
}

void count(Comparison& c, Verdict v) {
  if (v == Verdict::slower || v == Verdict::slower_beyond) ++c.slower;
  if (v == Verdict::slower_beyond) ++c.slower_beyond_threshold;
  if (v == Verdict::faster) ++c.faster;
  if (v == Verdict::same) ++c.same;
  if (v == Verdict::ambiguous) ++c.ambiguous;
}

// The usable run of `name` at `n` in `r`, or null.
const RunResult* usable_run(const Results& r, const std::string& name, int n) {
  for (const RunResult& x : r.runs)
    if (x.name == name && x.n == n && usable(x)) return &x;
  return nullptr;
}

}  // namespace

Comparison compare(const Input& a, const Input& b, double threshold, bool force) {
  if (device_model(a) != device_model(b) && !force) {
    throw std::runtime_error(
        fmt::format("{} ran on {}, {} on {}: refusing to compare different device "
                    "models (--force to compare anyway)",
                    a.path, device_model(a), b.path, device_model(b)));
  }
  Comparison c;
  c.path_a = a.path;
  c.path_b = b.path;
  c.threshold = threshold;
  for (const Input* in : {&a, &b})
    if (const std::string note = incomplete_note(*in); !note.empty()) c.notes.push_back(note);
  for (const RunResult& ra : a.results.runs) {
    if (!usable(ra)) continue;
    const RunResult* rb = usable_run(b.results, ra.name, ra.n);
    if (!rb) {
      c.only_a.push_back(fmt::format("{} at n = {}", ra.name, ra.n));
      continue;
    }
    const auto ci = bootstrap_ratio_ci95(rb->samples_ms, ra.samples_ms);
    ComparedRun r{ra.name,  ra.n,     ra.median_ms, rb->median_ms, rb->median_ms / ra.median_ms,
                  ci.first, ci.second};
    r.verdict = verdict_of(r, threshold);
    count(c, r.verdict);
    c.runs.push_back(r);
  }
  for (const RunResult& rb : b.results.runs)
    if (usable(rb) && !usable_run(a.results, rb.name, rb.n))
      c.only_b.push_back(fmt::format("{} at n = {}", rb.name, rb.n));
  return c;
}

Grid Comparison::table() const {
  Grid g{{"run", "n", "A ms", "B ms", "B/A", "95% CI", "verdict"}};
  for (const ComparedRun& r : runs)
    g.push_back({r.run, std::to_string(r.n), ms(r.a_ms), ms(r.b_ms), fmt::format("{:.3f}", r.ratio),
                 fmt::format("[{:.3f}, {:.3f}]", r.lo, r.hi), verdict_text(r.verdict)});
  return g;
}

std::string Comparison::summary() const {
  const double pct = threshold * 100;
  return fmt::format(
      "{} faster, {} slower ({} beyond {:.0f}%), {} the same (interval within "
      "±{:.0f}%), {} ambiguous",
      faster, slower, slower_beyond_threshold, pct, same, pct, ambiguous);
}

namespace {

// "not compared, only in A.json (or failed in the other): naive at n = 1000, ..." per file.
std::vector<std::string> not_compared(const Comparison& c) {
  std::vector<std::string> out;
  for (const auto& [file, runs] : {std::pair{c.path_a, c.only_a}, {c.path_b, c.only_b}})
    if (!runs.empty())
      out.push_back(fmt::format("not compared, only in {} (or failed in the other): {}", file,
                                fmt::join(runs, ", ")));
  return out;
}

nlohmann::json comparison_json(const Comparison& c) {
  nlohmann::json runs = nlohmann::json::array();
  for (const ComparedRun& r : c.runs)
    runs.push_back({{"run", r.run},
                    {"n", r.n},
                    {"a_ms", r.a_ms},
                    {"b_ms", r.b_ms},
                    {"ratio", r.ratio},
                    {"ci95", {r.lo, r.hi}},
                    {"verdict", verdict_text(r.verdict)}});
  return {{"a", c.path_a},
          {"b", c.path_b},
          {"threshold", c.threshold},
          {"incomplete", c.notes},
          {"runs", runs},
          {"counts",
           {{"faster", c.faster},
            {"slower", c.slower},
            {"slower_beyond_threshold", c.slower_beyond_threshold},
            {"same", c.same},
            {"ambiguous", c.ambiguous}}},
          {"only_a", c.only_a},
          {"only_b", c.only_b}};
}

}  // namespace

std::string render_comparison(const Comparison& c, const std::string& format) {
  if (format == "json") return comparison_json(c).dump(2) + "\n";
  std::string out;
  const bool csv = format == "csv";
  const char* comment = csv ? "# " : "";
  for (const std::string& note : c.notes) out += fmt::format("{}{}\n", comment, note);
  if (format == "md")
    out += fmt::format("{}{}", c.notes.empty() ? "" : "\n", markdown_table(c.table()));
  else
    out += csv ? render_csv(c.table()) : render_text(c.table());
  out += fmt::format("{}{}\n", csv ? "# " : "\n", c.summary());
  for (const std::string& line : not_compared(c)) out += fmt::format("{}{}\n", comment, line);
  return out;
}

}  // namespace apsp::report
