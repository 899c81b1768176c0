// apsp_lab.bench and apsp_lab.read_results: the bench's pipeline (harness/pipeline) and the
// results reader (core/results.hpp) with JSON text in and out, which apsp_lab turns into dicts.
#pragma once

#include <string>

namespace apsp::python {

// options: {"n": [..], "variants": "sm90,naive" or "all", "configs": [..], "seed", "density",
// "wmax", "reps", "min_reps", "min_time", "verify", "ceiling_time", "flush_l2"}, each optional.
// Returns the results file's JSON (schema apsp-bench/1). Throws std::invalid_argument for a bad
// option (as apsp_bench refuses it) and std::runtime_error without a CUDA device.
std::string bench_json(const std::string& options);

// A results file's text read and checked as apsp_report reads it; returns it as the schema's
// JSON. Throws std::runtime_error naming `source` and the fault.
std::string check_results_json(const std::string& text, const std::string& source);

}  // namespace apsp::python
