// The HTML report: one self-contained page (inline CSS, SVG and a small script; nothing loaded
// from elsewhere) that reads fully without its script, which only sorts tables.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/tuning_db.hpp"
#include "reports/report.hpp"

namespace apsp::report {

// The report of `inputs` (and the tuner's database at `db_path`): each input's context, notes,
// plots and tables, then the database's heatmaps and leaderboards.
std::string html_report(const std::vector<Input>& inputs, const std::optional<TuningDb>& db,
                        const std::string& db_path);
// The A/B comparison: both contexts, the verdicts' counts, a plot of the ratios with their
// intervals, the table.
std::string html_comparison(const Comparison& c, const Input& a, const Input& b);

// A grid as an HTML table: figure columns (markdown_table's rule) right-aligned and sorted as
// numbers by the page's script; every cell escaped. `verdicts`: the column whose cells name a
// verdict gets the verdict as its class (-1: none).
std::string html_table(const Grid& g, int verdicts = -1);

}  // namespace apsp::report
