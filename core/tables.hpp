// Tables built from results: the course reports' layout (rows n, a column per variant/config,
// time and speedup over naive), as aligned text or markdown, and the per-run detail table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/results.hpp"

namespace apsp {

using Grid = std::vector<std::vector<std::string>>;  // first row: header

// Rows n; per run name a cell "12.34 ms (5.6x)", "FAILED", or "skipped: reason".
Grid speedup_grid(const Results& r);
// One row per run: name, n, median, min, cv, updates/s, % of ceiling, speedup [95% CI], verified.
// A 16-bit run's share is against the packed 16-bit ceiling, marked "(u16)"; an int64 run's
// against the int64 ceiling, marked "(i64)".
Grid detail_grid(const Results& r);
// "Measured min-plus ceilings: int32 16.56 T updates/s, packed 16-bit 30.12 T updates/s (...)":
// the line under a results file's tables (with the int64 ceiling where it was measured); ""
// when none was measured.
std::string ceilings_line(const Context& c);
// What marks a share of the ceiling as another precision's: " (u16)", " (i64)", or "" (int32).
std::string precision_mark(const std::string& precision);

std::string render_text(const Grid& g);  // columns padded with spaces
// First column left-aligned, the rest right-aligned; every cell through markdown_cell.
std::string render_markdown(const Grid& g);
// The same with each column's alignment given: right[c] right-aligns column c, else left.
std::string render_markdown(const Grid& g, const std::vector<bool>& right);
// `text` as one markdown table cell: `|` and `\` escaped with a backslash, and each control
// character (a newline, a tab) a space, so that a run's name from a file cannot end the cell,
// the row or the table.
std::string markdown_cell(std::string_view text);

}  // namespace apsp
