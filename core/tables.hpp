// Tables built from results: the course reports' layout (rows n, a column per variant/config,
// time and speedup over naive), as aligned text or markdown, and the per-run detail table.
#pragma once

#include <string>
#include <vector>

#include "core/results.hpp"

namespace apsp {

using Grid = std::vector<std::vector<std::string>>;  // first row: header

// Rows n; per run name a cell "12.34 ms (5.6x)", "FAILED", or "skipped: reason".
Grid speedup_grid(const Results& r);
// One row per run: name, n, median, min, cv, updates/s, % of ceiling, speedup [95% CI], verified.
Grid detail_grid(const Results& r);

std::string render_text(const Grid& g);      // columns padded with spaces
std::string render_markdown(const Grid& g);  // first column left-aligned, the rest right-aligned

}  // namespace apsp
