// tuner --graphs: the batched variants' declared parameters searched per size band on a batch of
// small graphs (harness/cli/batch_runs.hpp), every point verified on every graph before it is
// timed and written to the tuning database as it is measured. A band's entries are keyed by the
// band's largest n and a graph spec naming the batch ("batch-fixed-10000": 10000 graphs of that
// n; "batch-molecules-N"), so that they never mix with single-graph entries, whose readers
// (policies, --tuned) look up single-graph variants only. The shipped default is measured in
// every band, and a band's pick replaces it only where it is faster in median and fastest
// sample on the same device and batch: a tuned pick is never worse than the default.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace apsp::harness {

struct BatchTuneOptions {
  std::string graphs;                       // --graphs: graphs a batch; "": no batch search
  std::string bands = "32,64,128,256,512";  // --bands: each band's largest n
  std::string sizes = "fixed";              // --sizes: fixed (a band's top n) or molecules
  int wmax = 1;                             // --batch-wmax
  bool asked() const { return !graphs.empty(); }
};
void add_batch_tune_options(CLI::App& app, BatchTuneOptions& o);

// The search from the options: `app` is the tuner's, whose --variant, --db, --fresh, --dry-run,
// --json, --reps, --min-time, --seed and --top it reads by name. Bad input is ProgramExit(2)
// before any work, no device ProgramExit(3); a candidate with a wrong result ProgramExit(1).
int run_batch_tune(const BatchTuneOptions& o, const CLI::App& app);

}  // namespace apsp::harness
