// Google Benchmark's JSON of a bench run (--gbench-json), for its tools/compare.py: each
// verified run becomes one benchmark whose iterations are the samples the harness took
// (UseManualTime), so the file holds exactly the timings of the results JSON.
#pragma once

#include <string>
#include <vector>

#include "core/results.hpp"

namespace apsp::bench {

// Hands the --benchmark_* flags (after argv[0]) to Google Benchmark before any work. Throws
// std::invalid_argument (one line) for a flag it does not know, and for --benchmark_out and
// --benchmark_out_format, which --gbench-json sets.
void init_gbench_flags(const std::string& argv0, const std::vector<std::string>& flags);

// Writes the file atomically (core/atomic_file.hpp), as every other output.
void write_gbench_json(const Results& results, const std::string& path);

}  // namespace apsp::bench
