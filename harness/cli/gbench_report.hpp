// Google Benchmark's JSON of a bench run (--gbench-json), for its tools/compare.py: each
// verified run becomes one benchmark whose iterations are the samples the harness took
// (UseManualTime), so the file holds exactly the timings of the results JSON.
//
// Names are stable: "CONFIG/n=N[/gpus=G]/GRAPH/manual_time", the same for the same (variant,
// config, n, GPUs, graph) whatever the sample count or the repetitions, so that compare.py pairs
// two files' runs (Google Benchmark would add "iterations:N" and "repeats:K").
// --benchmark_repetitions=K gives K real repetitions: the run's samples in K consecutive groups
// of floor(N / K), each group one repetition (the last N mod K samples left out), so that the
// aggregates and compare.py's U test see independent samples, never the same ones K times.
#pragma once

#include <string>
#include <vector>

#include "core/results.hpp"

namespace apsp::harness {

struct GbenchFlags {
  int repetitions = 1;  // --benchmark_repetitions
};

// Hands the --benchmark_* flags (after argv[0]) to Google Benchmark before any work. Throws
// std::invalid_argument (one line) for a flag it does not know, and for --benchmark_out and
// --benchmark_out_format, which --gbench-json sets.
GbenchFlags init_gbench_flags(const std::string& argv0, const std::vector<std::string>& flags);
// The same from the command line's extras (CLI11's remaining()), which only --benchmark_* flags
// may be: throws std::invalid_argument "unknown option 'X' (see --help)" for any other.
GbenchFlags gbench_flags_of_extras(const std::string& argv0,
                                   const std::vector<std::string>& extras);

// "" when every run can give `repetitions` groups of samples: a run takes at least
// `min_samples` (--min-reps); else the one line that says what to change.
std::string repetitions_problem(int repetitions, int min_samples);

// The benchmark name of a run (above), without Google Benchmark's "/manual_time".
std::string gbench_name(const RunResult& r);

// Writes the file atomically (core/atomic_file.hpp), as every other output. Throws
// std::invalid_argument when a timed run has fewer samples than `repetitions`.
void write_gbench_json(const Results& results, const std::string& path, int repetitions = 1);

}  // namespace apsp::harness
