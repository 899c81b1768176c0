// apsp_bench's sweep between its options and its tables: the files it reads besides the graph,
// whether this machine can run the plan, the dry run, and the run that keeps what it measured.
// A step that ends the program throws ProgramExit (harness/cli/program.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "core/tuning_db.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/plan/plan.hpp"

namespace apsp::harness {

// --tuned and --baseline ("": not given), read and checked whole before anything else (the dry
// run too), a database's migration note printed. Throws std::invalid_argument, one line naming
// the option and the file.
void read_tuned_and_baseline(const std::string& tuned_path, const std::string& baseline_path,
                             TuningDb& tuned, Results& baseline);

// The database the requests marked tuned pick from (run_plan fills in the device, graph and
// build of the match); none when `path` is "".
std::optional<TunedSource> tuned_source(const std::string& path, const TuningDb& db, bool any_graph,
                                        bool any_build);

// The dry run's plan on stdout. ProgramExit (1) when a user kernel (`user_kernels`) cannot run
// at any n of the plan on the dry run's device (its threads or shared memory), or when a size
// does not fit that device's memory (a real run there refuses the plan).
void sweep_dry_run(const Plan& plan, const std::optional<TunedSource>& tuned,
                   const std::vector<const Variant*>& user_kernels);

// ProgramExit when this machine cannot run the plan: no CUDA device (3), unless every request is a
// host variant; fewer than `gpus_here` GPUs for a --gpus count (4).
void check_sweep_device(const Plan& plan, bool has_gpu, int gpus_here);

// "" when the plan fits the session's device and `baseline` (read from `baseline_path`, "": none)
// was measured on the same device model; else the reason.
std::string sweep_device_problem(const Plan& plan, const Session& session,
                                 const std::string& baseline_path, const Results& baseline);

// How a sweep keeps what it measured as it goes.
struct SweepKeeping {
  std::string program;            // the name SIGINT's and SIGTERM's line starts with
  std::string json_path;          // --json, rewritten after every run ("": none)
  std::vector<std::string> argv;  // the command line, recorded in the results
  bool speaks = true;             // this process prints progress (process 0 under a launcher)
};

// The plan run in `session`: the session's line, then a line per run as it finishes
// (finished_line) and the --json file rewritten after each ("complete": false); SIGINT and
// SIGTERM exit at once, saying what was kept. The outcome's results carry the command line.
Outcome run_sweep(const Plan& plan, const Session& session, const std::optional<TunedSource>& tuned,
                  const Results* baseline, const SweepKeeping& keeping);

}  // namespace apsp::harness
