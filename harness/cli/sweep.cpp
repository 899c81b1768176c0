#include "harness/cli/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/console.hpp"
#include "core/device_info.hpp"
#include "core/interrupt.hpp"
#include "core/memory.hpp"
#include "harness/cli/program.hpp"
#include "harness/cli/sweep_text.hpp"
#include "harness/pipeline/describe_plan.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

namespace {

// Every request is a host variant (the tests' CPU-backed ones): the plan needs no CUDA device.
bool host_only(const Plan& p) {
  return std::all_of(p.requests.begin(), p.requests.end(),
                     [](const Request& r) { return r.variant->target == Target::kHost; });
}

// The --json file of the runs finished so far, as they are (incomplete while the sweep goes on).
// A FIFO or pipe gets the one whole file at the end instead: its reader would read every version.
void keep(const Results& so_far, const SweepKeeping& keeping) {
  if (keeping.json_path.empty() || written_as_stream(keeping.json_path)) return;
  Results kept = so_far;
  kept.context.argv = keeping.argv;
  write_file_atomic(keeping.json_path, to_json(kept).dump(2) + "\n");
}

void print_line(const std::string& line) {
  progress_done();
  fmt::print("{}\n", line);
}

}  // namespace

void read_tuned_and_baseline(const std::string& tuned_path, const std::string& baseline_path,
                             TuningDb& tuned, Results& baseline) {
  try {
    if (!tuned_path.empty()) {
      std::string note;
      tuned = TuningDb::load_existing(tuned_path, &note);
      if (!note.empty()) fmt::print("{}\n", note);
    }
  } catch (const std::runtime_error& e) {  // its line starts with the file's name
    throw std::invalid_argument(fmt::format("--tuned {}", e.what()));
  }
  try {
    if (!baseline_path.empty()) baseline = load_results(baseline_path);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(fmt::format("--baseline {}", e.what()));
  }
}

std::optional<TunedSource> tuned_source(const std::string& path, const TuningDb& db, bool any_graph,
                                        bool any_build) {
  if (path.empty()) return std::nullopt;
  TunedSource t;
  t.db = &db;
  t.path = path;
  t.match.any_graph = any_graph;
  t.match.any_build = any_build;
  return t;
}

void sweep_dry_run(const Plan& plan, const std::optional<TunedSource>& tuned,
                   const std::vector<const Variant*>& user_kernels) {
  bool fits = true;
  fmt::print("{}", describe_plan(plan, PlanNotes{tuned, std::nullopt}, &fits));
  std::string assumed;
  const DeviceInfo dev = dry_run_device(assumed);
  for (const Variant* v : user_kernels) {
    std::vector<std::pair<Config, int>> runs;
    for (const Request& r : plan.requests)
      if (r.variant == v)
        for (int n : plan.sizes)
          runs.emplace_back(resolve_config({v, r.config, nullptr}, n, &dev).config, n);
    if (const std::string why = kernel_never_runs(*v, runs, dev); !why.empty())
      throw ProgramExit(kExitFailed, why);
  }
  if (!fits)
    throw ProgramExit(kExitFailed,
                      "the plan does not fit the device's memory (see the plan's warnings): a run "
                      "there refuses it");
}

void check_sweep_device(const Plan& plan, bool has_gpu, int gpus_here) {
  if (!has_gpu && host_only(plan)) return;
  if (!has_gpu)
    throw ProgramExit(kExitNoDevice,
                      "no CUDA device found (the bench needs a GPU; --dry-run and --list work "
                      "without one)");
  if (const std::string why = gpu_count_problem(plan.gpus, gpus_here); !why.empty())
    throw ProgramExit(kExitTooFewGpus, why + " (--gpus)");
}

std::string sweep_device_problem(const Plan& plan, const Session& session,
                                 const std::string& baseline_path, const Results& baseline) {
  const std::string here = make_context(session).device.value("name", "?");
  if (!baseline_path.empty() && baseline.context.device.value("name", "") != here)
    return fmt::format("--baseline {} was measured on '{}', this is '{}': refusing to mix devices",
                       baseline_path, baseline.context.device.value("name", "?"), here);
  return memory_problem(plan, session.device ? device_free_bytes() : UINT64_MAX,
                        available_memory().bytes);
}

Outcome run_sweep(const Plan& plan, const Session& session, const std::optional<TunedSource>& tuned,
                  const Results* baseline, const SweepKeeping& keeping) {
  fmt::print("{}\n", session_line(session));
  exit_on_interrupt(keeping.program, keeping.json_path.empty()
                                         ? "the finished runs are printed above (no --json file)"
                                         : "the finished runs are in " + keeping.json_path);
  Results none_yet;  // until the first run finishes: a file of an earlier sweep is not this one's
  none_yet.context = make_context(session);
  none_yet.complete = false;
  keep(none_yet, keeping);
  const auto status = [&keeping](const std::string& line) {
    if (keeping.speaks) progress(line);
  };
  const Observer observer{status, print_line, [&](const Results& so_far) {
                            print_line(finished_line(so_far.runs.back()));
                            keep(so_far, keeping);
                          }};
  Outcome out = run_plan(plan, session, observer, tuned, baseline);
  progress_done();
  out.results.context.argv = keeping.argv;
  return out;
}

}  // namespace apsp::harness
