// apsp_report's tables, built from results files (never from kernels): the course reports'
// speedup table, variant x n matrices of speedup and share of the ceiling, per-phase times,
// tuner leaderboards, and the A/B comparison; each in md, csv, json (and html: html.hpp).
#pragma once

#include <compare>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "core/tables.hpp"
#include "core/tuning_db.hpp"

namespace apsp::report {

struct Input {
  std::string path;
  Results results;
  bool has_baseline = false;  // naive runs present (else: no speedups, never a made-up one)
};

// The label a run is shown under (its label, "batched (tuned)", else its name).
std::string run_label(const RunResult& r);
// Timed and verified: neither skipped, failed nor without samples.
bool usable(const RunResult& r);
// The run labels of a file in order of appearance (naive's only when `with_naive`), and its n.
std::vector<std::string> run_labels(const Results& r, bool with_naive);
std::vector<int> run_sizes(const Results& r);
// The run shown under `label` at `n`, or null.
const RunResult* find_run(const Results& r, const std::string& label, int n);
// Speedup over naive at the run's n (medians) with its 95% bootstrap interval; none without a
// usable naive run at that n.
struct Speedup {
  double mid = 0, lo = 0, hi = 0;
};
std::optional<Speedup> speedup_of(const Input& in, const RunResult& r);

// Reads and checks a results file; std::runtime_error "PATH: what is wrong" otherwise (a tuning
// database given as results says to pass it with --db).
Input load(const std::string& path);

// "r.json: incomplete: the sweep was stopped after 3 runs" for a file whose sweep did not end
// ("complete": false: apsp_bench was stopped, its finished runs kept); "" for a whole one.
std::string incomplete_note(const Input& in);
// "r.json: no naive runs, so no baseline: speedups are not shown"; "" when it has some.
std::string no_baseline_note(const Input& in);
// Whether every run of the input is a batch run (apsp_bench --graphs): no baseline is expected.
bool only_batches(const Input& in);

// Rows n; columns: naive ms, then per run label its ms and its speedup over naive. Without a
// baseline in the file: rows n, a column of ms per run label.
Grid course_table(const Input& in);
// Rows run labels, columns n: speedup over naive with its 95% interval; empty without a
// baseline in the file ("no baseline" in a cell whose n has no naive run).
Grid speedup_matrix(const Input& in);
// Rows run labels, columns n: percent of the measured ceiling.
Grid ceiling_matrix(const Input& in);
// Runs timed with --phases: label, n, phase 1/2/3 and other ms; empty when none.
Grid phase_table(const Input& in);
// A leaderboard: entries are ranked only against those of the same device, graph spec, build,
// variant and n (timings of another graph or kernel build are not comparable).
struct BoardKey {
  std::string device, graph, build, variant;
  int n = 0;
  auto operator<=>(const BoardKey&) const = default;
};
// The verified ("ok") entries of each leaderboard, fastest first.
std::map<BoardKey, std::vector<const TuningEntry*>> leaderboard_groups(const TuningDb& db);
// The `top` fastest verified configs per (device, graph, build, variant, n) of a tuning
// database. A migrated apsp-tuning/1 entry's graph and build read "not recorded".
Grid leaderboard(const TuningDb& db, int top);

// One table of an input: `key` names it in JSON, `title` is the heading people read.
struct Table {
  std::string key, title;
  Grid grid;         // empty when `note` says why there is none
  std::string note;  // "no min-plus ceiling was measured ...": shown in the table's place
};
// The tables of an input that have rows (or a note in their place), in the report's order.
std::vector<Table> tables(const Input& in);

// A table in markdown, each column aligned by what it holds: right where its cells are figures
// ("12.3", "7.7x [7.6, 7.8]", "10.2%"), left where they are text (a name, a graph, a hash).
std::string markdown_table(const Grid& g);
// Whether a cell is a figure (a number with a unit or an interval), for the alignment above.
bool figure_cell(const std::string& cell);
// Per column of `g`: whether it holds figures (at least half of its cells other than "-").
std::vector<bool> figure_columns(const Grid& g);

// The whole report.md. `plots`: PNG file names (next to report.md) to link.
std::string markdown(const std::vector<Input>& inputs, const std::optional<TuningDb>& db,
                     const std::vector<std::string>& plots, const std::string& plot_note);

// The tables alone in `format` (md, csv or json), as --format prints them; `db_path` names the
// database's leaderboards.
std::string render_tables(const std::vector<Input>& inputs, const std::optional<TuningDb>& db,
                          const std::string& db_path, const std::string& format);

std::string render_csv(const Grid& g);

// A/B verdicts, nvbench-style: the interval of B/A above 1 (slower; "SLOWER" beyond the
// threshold) or below 1 (faster); within [1 - threshold, 1 + threshold] the same; otherwise
// ambiguous: the interval holds 1 and reaches past the threshold, so more samples would tell.
enum class Verdict { faster, slower, slower_beyond, same, ambiguous };
const char* verdict_text(Verdict v);

struct ComparedRun {
  std::string run;
  int n = 0;
  double a_ms = 0, b_ms = 0, ratio = 0, lo = 0, hi = 0;  // B/A with its 95% interval
  Verdict verdict = Verdict::same;
};

struct Comparison {
  std::string path_a, path_b;
  double threshold = 0.05;
  std::vector<ComparedRun> runs;
  int faster = 0, slower = 0, same = 0, ambiguous = 0;
  int slower_beyond_threshold = 0;
  std::vector<std::string> only_a,
      only_b;                      // "name at n = N": usable in one file only, not compared
  std::vector<std::string> notes;  // the inputs' incomplete notes
  Grid table() const;              // run, n, A ms, B ms, B/A, 95% CI, verdict
  std::string summary() const;     // "1 faster, 1 slower (1 beyond 5%), 16 the same (...), ..."
};
// Per (config name, n) usable in both: B/A of medians with a 95% bootstrap interval and its
// verdict. std::runtime_error when the device models differ and !force.
Comparison compare(const Input& a, const Input& b, double threshold, bool force);
// The comparison in `format`: text (aligned columns), md, csv or json.
std::string render_comparison(const Comparison& c, const std::string& format);

}  // namespace apsp::report
