#include "reports/html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "reports/svg.hpp"

namespace apsp::report {

namespace {

using svg::escape;

// Inline, so that the page is one file: no stylesheet, font or script from elsewhere.
constexpr const char* kStyle = R"(
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --head: #f6f8fa; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
  color: var(--fg); margin: 0 auto; max-width: 1280px; padding: 12px 28px 48px; }
h1 { font-size: 24px; margin: 10px 0 4px; }
h2 { font-size: 20px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 34px; }
h3 { font-size: 15px; margin: 22px 0 8px; }
nav a { margin-right: 14px; } .muted { color: var(--muted); }
dl.context { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 8px 0; }
dl.context dt { color: var(--muted); } dl.context dd { margin: 0; overflow-wrap: anywhere; }
code { font: 12.5px ui-monospace, "DejaVu Sans Mono", monospace; background: var(--head);
  padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
.note { padding: 7px 12px; border-left: 4px solid #bf8700; background: #fff8c5; margin: 8px 0; }
.figures { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 6px;
  max-width: 100%; overflow-x: auto; }
svg.plot { max-width: 100%; height: auto; display: block; font-family: inherit; }
svg text { fill: #24292f; } svg text.on-dark { fill: #fff; } svg .title { font-weight: 600; font-size: 13px; }
svg .frame { fill: none; stroke: #8c959f; } svg .grid { stroke: #eaeef2; }
svg .line { fill: none; stroke-width: 2; } svg .ci { fill: none; stroke-width: 1.5; }
svg .guide { fill: none; stroke-width: 1.5; stroke-dasharray: 6 4; }
svg .ref { stroke: #6e7781; stroke-dasharray: 3 3; } svg .band { fill: #e6f4ea; }
svg .point:hover { r: 6; } svg .bar:hover rect, svg .cell:hover rect { opacity: 0.8; }
svg .interval line { stroke-width: 3; } svg .interval circle { stroke: #fff; }
svg .interval.faster line, svg .interval.faster circle { stroke: #1a7f37; fill: #1a7f37; }
svg .interval.slower line, svg .interval.slower circle,
svg .interval.SLOWER line, svg .interval.SLOWER circle { stroke: #cf222e; fill: #cf222e; }
svg .interval.same line, svg .interval.same circle { stroke: #57606a; fill: #57606a; }
svg .interval.ambiguous line, svg .interval.ambiguous circle { stroke: #9a6700; fill: #9a6700; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; margin: 4px 0 12px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: 3px 9px; text-align: left; }
th { background: var(--head); } th, td { white-space: nowrap; } .num { text-align: right; }
th[aria-sort="ascending"]::after { content: " \25B2"; }
th[aria-sort="descending"]::after { content: " \25BC"; }
td.faster, .badge.faster { background: #dafbe1; } td.slower, .badge.slower { background: #ffebe9; }
td.SLOWER { background: #ffcecb; font-weight: 700; } td.ambiguous, .badge.ambiguous { background: #fff8c5; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 12px; margin: 2px 6px 2px 0;
  border: 1px solid var(--line); background: var(--head); }
)";

// Sorting only: the page reads the same without it (the tables are static, the plots show each
// value on hover through their <title>s).
constexpr const char* kScript = R"(
(function () {
  function key(cell, numeric) {
    var text = cell ? cell.textContent.trim() : "";
    if (!numeric) return text.toLowerCase();
    var v = parseFloat(text.replace(/^n = /, ""));
    return isNaN(v) ? Infinity : v;
  }
  function sorter(table, th, col) {
    return function () {
      var heads = table.tHead.rows[0].cells;
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      for (var i = 0; i < heads.length; i++) heads[i].removeAttribute("aria-sort");
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var numeric = th.classList.contains("num");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a.cells[col], numeric), y = key(b.cells[col], numeric);
        var d = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? d : -d;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    };
  }
  var tables = document.querySelectorAll("table.sortable");
  for (var t = 0; t < tables.length; t++) {
    var heads = tables[t].tHead.rows[0].cells;
    for (var c = 0; c < heads.length; c++) {
      var sort = sorter(tables[t], heads[c], c);
      heads[c].tabIndex = 0;
      heads[c].title = "sort by this column";
      heads[c].style.cursor = "pointer";
      heads[c].addEventListener("click", sort);
      heads[c].addEventListener("keydown", (function (run) {
        return function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); run(); } };
      })(sort));
    }
  }
})();
)";

std::string page_open(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta "
      "name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta "
      "http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>{}</title>\n"
      "<style>{}</style>\n</head>\n<body>\n",
      escape(title), kStyle);
}

std::string page_close() { return fmt::format("<script>{}</script>\n</body>\n</html>\n", kScript); }

// A scalar of the context as text, whatever its JSON type ("?" when absent or not a scalar).
std::string field(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return "?";
  const nlohmann::json& v = j[key];
  if (v.is_string()) return v.get<std::string>();
  return v.is_number() || v.is_boolean() ? v.dump() : "?";
}

std::string row(const std::string& term, const std::string& html) {
  return fmt::format("<dt>{}</dt><dd>{}</dd>\n", term, html);
}

// Device, clocks, driver, build, host, date, command and ceilings of a results file.
std::string context_html(const Input& in) {
  const Context& c = in.results.context;
  const auto& d = c.device;
  std::string out = "<dl class=\"context\">\n";
  out += row("device", escape(fmt::format("{} (cc {}, {} SMs)", field(d, "name"), field(d, "cc"),
                                          field(d, "sms"))));
  out += row("clocks", escape(fmt::format("SM {} MHz, memory {} MHz", field(d, "clock_mhz"),
                                          field(d, "memory_clock_mhz"))));
  out +=
      row("driver", escape(fmt::format("{}, runtime {}", field(d, "driver"), field(d, "runtime"))));
  out += row("build", escape(fmt::format("git {}, nvcc {}, archs {}, flags {}",
                                         field(c.build, "git"), field(c.build, "nvcc"),
                                         field(c.build, "archs"), field(c.build, "flags"))));
  if (!c.gpus.empty())
    out += row("GPUs", escape(fmt::format("{} over {}", c.gpus.size(), c.transport)));
  out += row("host, date", escape(fmt::format("{}, {}", c.host, c.date)));
  std::string argv;
  for (const std::string& a : c.argv) argv += (argv.empty() ? "" : " ") + a;
  out += row("command", "<code>" + escape(argv) + "</code>");
  if (const std::string line = ceilings_line(c); !line.empty())
    out += row("ceilings", escape(line));
  size_t usable_runs = 0;
  for (const RunResult& r : in.results.runs) usable_runs += usable(r);
  out +=
      row("runs", fmt::format("{} ({} timed and verified)", in.results.runs.size(), usable_runs));
  return out + "</dl>\n";
}

std::string figure(const std::string& svg) {
  return svg.empty() ? "" : "<figure>\n" + svg + "</figure>\n";
}

}  // namespace

std::string html_table(const Grid& g, int verdicts) {
  if (g.empty()) return "";
  const std::vector<bool> num = figure_columns(g);
  std::string out = "<div class=\"table-wrap\"><table class=\"sortable\">\n<thead><tr>";
  for (size_t c = 0; c < g[0].size(); ++c)
    out += fmt::format("<th{}>{}</th>", num[c] ? " class=\"num\"" : "", escape(g[0][c]));
  out += "</tr></thead>\n<tbody>\n";
  for (size_t r = 1; r < g.size(); ++r) {
    out += "<tr>";
    for (size_t c = 0; c < g[r].size(); ++c) {
      const bool verdict = static_cast<int>(c) == verdicts;
      out += fmt::format("<td{}>{}</td>",
                         verdict  ? " class=\"" + escape(g[r][c]) + "\""
                         : num[c] ? std::string(" class=\"num\"")
                                  : std::string(),
                         escape(g[r][c]));
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table></div>\n";
}

namespace {

// One series per run label: `value` of each usable run (none: the point is left out).
template <class F>
std::vector<svg::Series> series_of(const Input& in, bool with_naive, F value) {
  std::vector<svg::Series> out;
  const std::vector<std::string> all = run_labels(in.results, true);  // a run's colour: its place
  for (const std::string& lab : run_labels(in.results, with_naive)) {
    const size_t place = std::find(all.begin(), all.end(), lab) - all.begin();
    svg::Series s{lab, {}, false, svg::colour(place)};
    for (int n : run_sizes(in.results)) {
      const RunResult* r = find_run(in.results, lab, n);
      if (!r || !usable(*r)) continue;
      if (std::optional<svg::Point> p = value(*r)) s.points.push_back(*p);
    }
    out.push_back(s);
  }
  return out;
}

std::string time_plot(const Input& in) {
  std::vector<svg::Series> s = series_of(in, true, [](const RunResult& r) {
    return std::optional<svg::Point>{
        {double(r.n), r.median_ms, NAN, NAN,
         fmt::format("{}, n = {}: {:.3f} ms", run_label(r), r.n, r.median_ms)}};
  });
  // The n^3 guide through the first run's first point: the slope every solve should have.
  const auto first = std::find_if(s.begin(), s.end(), [](auto& x) { return !x.points.empty(); });
  if (first != s.end()) {
    const svg::Point p0 = first->points.front();
    svg::Series guide{"n³ guide", {}, true, ""};
    for (int n : run_sizes(in.results))
      guide.points.push_back({double(n), p0.y * std::pow(n / p0.x, 3), NAN, NAN, ""});
    s.push_back(guide);
  }
  return svg::line_plot({"Time vs n", "n (vertices)", "median time (ms)", true, true}, s);
}

std::string speedup_plot(const Input& in) {
  if (!in.has_baseline) return "";
  const auto s = series_of(in, false, [&](const RunResult& r) -> std::optional<svg::Point> {
    const std::optional<Speedup> v = speedup_of(in, r);
    if (!v) return std::nullopt;
    return svg::Point{double(r.n), v->mid, v->lo, v->hi,
                      fmt::format("{}, n = {}: {:.1f}x [{:.1f}, {:.1f}]", run_label(r), r.n, v->mid,
                                  v->lo, v->hi)};
  });
  return svg::line_plot(
      {"Speedup over naive vs n (95% intervals)", "n (vertices)", "speedup (x)", true, false, 1.0},
      s);
}

std::string ceiling_plot(const Input& in) {
  const Context& c = in.results.context;
  const auto s = series_of(in, true, [&](const RunResult& r) -> std::optional<svg::Point> {
    if (c.ceiling_for(r.precision) <= 0) return std::nullopt;
    return svg::Point{double(r.n), r.pct_of_ceiling, NAN, NAN,
                      fmt::format("{}, n = {}: {:.1f}%{} of the ceiling", run_label(r), r.n,
                                  r.pct_of_ceiling, precision_mark(r.precision))};
  });
  return svg::line_plot(
      {"Share of the measured ceiling vs n", "n (vertices)", "% of the ceiling", true, false, 100},
      s);
}

std::string phase_plot(const Input& in) {
  std::vector<svg::Bar> bars;
  for (const RunResult& r : in.results.runs) {
    if (!r.phases_ms) continue;
    const auto& p = *r.phases_ms;
    const std::string name = fmt::format("{}, n = {}", run_label(r), r.n);
    bars.push_back({name,
                    {p[1], p[2], p[3], p[0]},
                    fmt::format("{}: phase 1 {:.3f} ms, phase 2 {:.3f} ms, phase 3 {:.3f} ms, "
                                "other {:.3f} ms",
                                name, p[1], p[2], p[3], p[0]),
                    fmt::format("{:.3f} ms", p[0] + p[1] + p[2] + p[3])});
  }
  return svg::bar_plot("Per-phase times (one solve)", "ms",
                       {"phase 1", "phase 2", "phase 3", "other"}, bars);
}

std::string anchor(size_t i) { return fmt::format("input-{}", i + 1); }

std::string input_section(const Input& in, size_t index) {
  std::string out =
      fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", anchor(index), escape(in.path));
  out += context_html(in);
  for (const std::string& note : {incomplete_note(in), no_baseline_note(in)})
    if (!note.empty()) out += "<p class=\"note\">" + escape(note) + ".</p>\n";
  out += "<div class=\"figures\">\n" + figure(time_plot(in)) + figure(speedup_plot(in)) +
         figure(ceiling_plot(in)) + figure(phase_plot(in)) + "</div>\n";
  for (const Table& t : tables(in))
    out += "<h3>" + escape(t.title) + "</h3>\n" +
           (t.note.empty() ? html_table(t.grid) : "<p>" + escape(t.note) + ".</p>\n");
  return out + "</section>\n";
}

}  // namespace

namespace {

using Boards = std::map<BoardKey, std::vector<const TuningEntry*>>;

// The batch2 x batch3 medians of one leaderboard's entries ("" when none has both).
std::string batch_heatmap(const BoardKey& key, const std::vector<const TuningEntry*>& list) {
  std::set<int> b2, b3;
  for (const TuningEntry* e : list)
    if (e->config.count("batch2") && e->config.count("batch3"))
      b2.insert(e->config.at("batch2")), b3.insert(e->config.at("batch3"));
  if (b2.empty()) return "";
  const std::vector<int> xs(b2.begin(), b2.end()), ys(b3.begin(), b3.end());
  std::vector<std::vector<double>> v(ys.size(), std::vector<double>(xs.size(), NAN));
  for (const TuningEntry* e : list) {
    if (!e->config.count("batch2") || !e->config.count("batch3")) continue;
    const size_t x = std::find(xs.begin(), xs.end(), e->config.at("batch2")) - xs.begin();
    const size_t y = std::find(ys.begin(), ys.end(), e->config.at("batch3")) - ys.begin();
    if (std::isnan(v[y][x]) || e->median_ms < v[y][x])
      v[y][x] = e->median_ms;  // list: fastest first
  }
  std::vector<std::string> xl, yl;
  for (int x : xs) xl.push_back(std::to_string(x));
  for (int y : ys) yl.push_back(std::to_string(y));
  return svg::heatmap(fmt::format("{}, n = {}: median ms (lower is better)", key.variant, key.n),
                      "batch2", "batch3", xl, yl, v);
}

std::string board_plot(const BoardKey& key, const std::vector<const TuningEntry*>& list) {
  std::vector<svg::Bar> bars;
  const double best = list[0]->median_ms;
  for (size_t i = 0; i < list.size() && i < 5; ++i) {
    const double ms = list[i]->median_ms, over = 100 * (ms / best - 1);
    bars.push_back(
        {list[i]->name,
         {over},
         fmt::format("#{} {}: {:.3f} ms, {:.3f}x the fastest", i + 1, list[i]->name, ms, ms / best),
         i == 0 ? fmt::format("{:.3f} ms", ms) : fmt::format("{:.3f} ms, +{:.1f}%", ms, over)});
  }
  return svg::bar_plot(fmt::format("{} at n = {}: the fastest configs", key.variant, key.n),
                       "% slower than the fastest", {"median"}, bars);
}

// Whether two leaderboards are of the same device, graph and build (and variant, if `variant`).
bool same_group(const BoardKey& a, const BoardKey& b, bool variant) {
  return std::tie(a.device, a.graph, a.build) == std::tie(b.device, b.graph, b.build) &&
         (!variant || a.variant == b.variant);
}

// Per device, graph and build: each variant's batch2 x batch3 heatmap at its largest n (where
// its configs have both), then its leaderboards' fastest configs.
std::string board_figures(const Boards& boards) {
  std::string out;
  for (auto it = boards.begin(); it != boards.end(); ++it) {
    const BoardKey& k = it->first;
    const bool first = it == boards.begin();
    if (first || !same_group(std::prev(it)->first, k, false)) {
      out +=
          fmt::format("{}<h3>{}, graph {}, build {}</h3>\n<div class=\"figures\">\n",
                      first ? "" : "</div>\n", escape(k.device), escape(k.graph), escape(k.build));
    }
    if (first || !same_group(std::prev(it)->first, k, true)) {
      auto last = it;  // the variant's largest n: boards are ordered by n within a variant
      while (std::next(last) != boards.end() && same_group(std::next(last)->first, k, true)) ++last;
      out += figure(batch_heatmap(last->first, last->second));
    }
    if (it->second.size() > 1) out += figure(board_plot(k, it->second));
  }
  return boards.empty() ? out : out + "</div>\n";
}

std::string tuning_section(const TuningDb& db, const std::string& db_path) {
  std::string out = fmt::format("<section id=\"tuning\">\n<h2>Tuner: {}</h2>\n", escape(db_path));
  out +=
      "<p class=\"muted\">Entries are ranked only against entries of the same device, graph "
      "and build; hover a cell or a bar for its value.</p>\n";
  out += board_figures(leaderboard_groups(db));
  out += "<h3>Leaderboards (the five fastest per device, graph, build, variant and n)</h3>\n";
  return out + html_table(leaderboard(db, 5)) + "</section>\n";
}

}  // namespace

std::string html_report(const std::vector<Input>& inputs, const std::optional<TuningDb>& db,
                        const std::string& db_path) {
  std::string out = page_open("APSP kernel lab: report");
  out += "<header>\n<h1>APSP kernel lab: report</h1>\n<nav>";
  for (size_t i = 0; i < inputs.size(); ++i)
    out += fmt::format("<a href=\"#{}\">{}</a>", anchor(i), escape(inputs[i].path));
  if (db) out += "<a href=\"#tuning\">tuner</a>";
  out +=
      "</nav>\n<p class=\"muted\">Hover a point for its value; click a column's heading to "
      "sort its table.</p>\n</header>\n";
  for (size_t i = 0; i < inputs.size(); ++i) out += input_section(inputs[i], i);
  if (db) out += tuning_section(*db, db_path);
  return out + page_close();
}

namespace {

std::string ratio_plot(const Comparison& c) {
  std::vector<svg::Interval> rows;
  for (const ComparedRun& r : c.runs)
    rows.push_back({fmt::format("{}, n = {}", r.run, r.n), verdict_text(r.verdict), r.ratio, r.lo,
                    r.hi,
                    fmt::format("{} at n = {}: B/A {:.3f} [{:.3f}, {:.3f}]: {}", r.run, r.n,
                                r.ratio, r.lo, r.hi, verdict_text(r.verdict))});
  return svg::interval_plot(
      fmt::format("B/A of the medians with 95% intervals (shaded: within ±{:.0f}%)",
                  c.threshold * 100),
      "B/A (below 1: B is faster)", rows, 1.0, 1.0 - c.threshold, 1.0 + c.threshold);
}

std::string verdict_badges(const Comparison& c) {
  const std::pair<const char*, std::string> counts[] = {
      {"faster", fmt::format("{} faster", c.faster)},
      {"slower", fmt::format("{} slower ({} beyond {:.0f}%)", c.slower, c.slower_beyond_threshold,
                             c.threshold * 100)},
      {"same", fmt::format("{} the same", c.same)},
      {"ambiguous", fmt::format("{} ambiguous", c.ambiguous)}};
  std::string out = "<p class=\"verdicts\">";
  for (const auto& [cls, text] : counts)
    out += fmt::format("<span class=\"badge {}\">{}</span>", cls, escape(text));
  return out + "</p>\n<p class=\"muted\">" + escape(c.summary()) +
         ". Faster or slower: the interval of B/A lies below or above 1; the same: it lies within "
         "the threshold; ambiguous: it holds 1 and reaches past the threshold, so more samples "
         "would tell.</p>\n";
}

}  // namespace

std::string html_comparison(const Comparison& c, const Input& a, const Input& b) {
  std::string out = page_open("APSP kernel lab: compare");
  out += fmt::format("<header>\n<h1>APSP kernel lab: {} against {}</h1>\n</header>\n",
                     escape(b.path), escape(a.path));
  for (const std::string& note : c.notes) out += "<p class=\"note\">" + escape(note) + ".</p>\n";
  out += verdict_badges(c);
  out += "<div class=\"figures\">\n" + figure(ratio_plot(c)) + "</div>\n";
  out += "<h2>Per run</h2>\n" + html_table(c.table(), 6);
  for (const auto& [file, runs] : {std::pair{c.path_a, c.only_a}, {c.path_b, c.only_b}})
    if (!runs.empty()) {
      std::string list;
      for (const std::string& r : runs) list += (list.empty() ? "" : ", ") + r;
      out += fmt::format("<p>Not compared, only in {} (or failed in the other): {}</p>\n",
                         escape(file), escape(list));
    }
  for (const auto& [title, in] : {std::pair{"A: ", &a}, {"B: ", &b}})
    out += fmt::format("<h2>{}{}</h2>\n", title, escape(in->path)) + context_html(*in);
  return out + page_close();
}

}  // namespace apsp::report
