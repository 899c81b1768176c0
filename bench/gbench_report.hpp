// Google Benchmark's JSON of a bench run (--gbench-json), for its tools/compare.py: each
// verified run becomes one benchmark whose iterations are the samples the harness took
// (UseManualTime), so the file holds exactly the timings of the results JSON.
#pragma once

#include <string>
#include <vector>

#include "core/results.hpp"

namespace apsp::bench {

// `args`: argv[0] and the --benchmark_* flags passed through.
void write_gbench_json(const Results& results, const std::string& path, std::vector<std::string> args);

}  // namespace apsp::bench
