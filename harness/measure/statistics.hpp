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
// `ranks_share_device`: the multi-GPU runs' ranks shared one GPU (their transport's, r.context.transport,
// harness/multigpu/transport.hpp: transport_shares_device): their share of the ceiling is of that
// one GPU's, and they have no parallel efficiency.
void compute_statistics(Results& r, const std::string& baseline,
                        const std::vector<RunResult>& earlier = {},
                        bool ranks_share_device = false);

// The timed one-GPU run of `run`'s config at its n and graph in `r` (what a multi-GPU run's
// parallel efficiency is against); null when there is none.
const RunResult* one_gpu_run(const Results& r, const RunResult& run);

}  // namespace apsp::harness
