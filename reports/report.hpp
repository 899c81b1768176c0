// apsp_report's tables, built from results files (never from kernels): the course reports'
// speedup table, variant x n matrices of speedup and share of the ceiling, per-phase times,
// tuner leaderboards, and the A/B comparison.
#pragma once

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
  bool has_baseline = false;  // naive runs present (else: "no baseline", never a made-up speedup)
};

// Reads and checks a results file; std::runtime_error "PATH: what is wrong" otherwise.
Input load(const std::string& path);

// "r.json: incomplete: the sweep was stopped after 3 runs" for a file whose sweep did not end
// ("complete": false: apsp_bench was stopped, its finished runs kept); "" for a whole one.
std::string incomplete_note(const Input& in);

// Rows n; columns: naive ms, then per run label its ms and its speedup over naive.
Grid course_table(const Input& in);
// Rows run labels, columns n: speedup over naive ("no baseline" when there is none).
Grid speedup_matrix(const Input& in);
// Rows run labels, columns n: percent of the measured ceiling.
Grid ceiling_matrix(const Input& in);
// Runs timed with --phases: label, n, phase 1/2/3 and other ms; empty when none.
Grid phase_table(const Input& in);
// The `top` fastest verified configs per (device, variant, n) of a tuning database.
Grid leaderboard(const TuningDb& db, int top);

// The whole report.md. `plots`: PNG file names (next to report.md) to link.
std::string markdown(const std::vector<Input>& inputs, const std::optional<TuningDb>& db,
                     const std::vector<std::string>& plots, const std::string& plot_note);

std::string render_csv(const Grid& g);

struct Comparison {
  Grid table;  // variant config, n, A ms, B ms, B/A, 95% CI, verdict
  int faster = 0, slower = 0, same = 0;
  int slower_beyond_threshold = 0;
  std::vector<std::string> only_a,
      only_b;  // "name at n = N": usable in one file only, not compared
};
// Per (config name, n) present in both: B/A of medians with a 95% bootstrap interval; "same"
// when the interval contains 1. std::runtime_error when the device models differ and !force.
Comparison compare(const Input& a, const Input& b, double threshold, bool force);

}  // namespace apsp::report
