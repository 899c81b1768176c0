// apsp_bench --graphs: a sweep of batches of small graphs (harness/cli/batch_runs.hpp) across
// the batched variants, between apsp_bench's options and its tables. Every graph of every run is
// checked against the CPU reference before the run is timed by the Sampler; each run is
// reported as graphs/s and its share of the two ceilings measured in the same run: the int32
// min-plus rate (updates: the sum of n^3) and the device memory bandwidth of a device-to-device
// copy (bytes: the batch read and the distances written). A step that ends the program throws
// ProgramExit (harness/cli/program.hpp).
#pragma once

#include <string>
#include <vector>

#include "harness/plan/plan.hpp"

namespace CLI {
class App;
}

namespace apsp::harness {

// The options only a batch sweep has.
struct BatchOptions {
  std::string graphs;           // --graphs: batch sizes, comma separated; "": no batch sweep
  std::string sizes = "fixed";  // --sizes: fixed (each graph --n vertices) or molecules
  int wmax = 1;                 // --batch-wmax: edge weights 1..wmax; 1: hop distances
  bool asked() const { return !graphs.empty(); }
};
void add_batch_options(CLI::App& app, BatchOptions& o);

// The batch sweep from the options: `app` is apsp_bench's, whose --n (each graph's vertices),
// --variant, --config, --warm, --dry-run, --json and --md it reads by name, and `plan` holds the
// sampling, the seed and the ceiling's time. Bad input is one line and ProgramExit(2) before any
// work; --dry-run prints the plan and needs no GPU. Returns the exit code: 0 every run verified;
// ProgramExit(1) when one FAILED or could not run, (3) without a device for GPU variants.
int run_batch_bench(const BatchOptions& o, const CLI::App& app, const Plan& plan,
                    const std::vector<std::string>& argv);

}  // namespace apsp::harness
