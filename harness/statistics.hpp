// From samples to the figures of a results file: summary statistics, updates per second, the
// share of the measured ceiling, and the speedup over the baseline variant with its bootstrap
// interval. Pure computation on Results: the CPU tests drive every path of it.
#pragma once

#include <string>
#include <vector>

#include "core/results.hpp"

namespace apsp::harness {

// Fills median .. pct_of_ceiling of every run with samples, and its speedup over the run of
// `baseline` at the same n and graph: from `r` itself, else from `earlier` (the runs of an
// earlier results file, --baseline). Runs without samples (FAILED, skipped) are left alone.
void compute_statistics(Results& r, const std::string& baseline, const std::vector<RunResult>& earlier = {});

}  // namespace apsp::harness
