// The PNG plots of report.md: scripts/plot_results.py (matplotlib), run as a child process.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace apsp::report {

// The plotting script the user named (APSP_PLOT_SCRIPT), if any. One that is not there is a
// refusal before any work, not a report without plots: std::runtime_error, one line.
std::optional<std::string> named_plot_script();

// Runs the plotting script into `out_dir`; returns the PNG names it wrote, or explains in `note`
// why none. The script's own messages (a traceback) go to DIR/plot.log, and `failed` is set when
// it exits non-zero, so that the program does too, with one line.
std::vector<std::string> plot(const std::vector<std::string>& files, const std::string& db,
                              const std::string& out_dir, std::string& note, bool& failed);

}  // namespace apsp::report
