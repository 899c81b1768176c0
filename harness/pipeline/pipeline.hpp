// The pipeline: a Plan in, Results out. Size by size: the input and the expected output
// (Workbench); per request the config for that size (asked, tuned, or the policy default),
// check(), verification (its solve is the warm-up); then every verified run's samples
// (sampler), optional CUDA graph and phase timings; the size's matrices are freed before the
// next. Last, the statistics and speedups (statistics.hpp), also after every finished run for
// Observer::finished. Programs print and write what comes back; nothing here prints.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/results.hpp"
#include "core/tuning_db.hpp"
#include "harness/measure/executor.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/plan/plan.hpp"
#include "harness/tune/resolve.hpp"
#include "harness/userkernel/isolated_executor.hpp"

namespace apsp::harness {

struct Observer {
  std::function<void(const std::string&)> progress;  // a status line, replaced by the next
  std::function<void(const std::string&)> note;      // a line worth keeping ("tuned: ...")
  // After each run finished (timed, FAILED or skipped): every run finished so far, the last
  // one just now, with their statistics and speedups (`complete` false), so that a program can
  // keep them on disk before the next run starts: a sweep stopped midway loses none of them.
  std::function<void(const Results&)> finished = {};
};

// What the pipeline runs on: the device (if any), the executors, the ceiling probe.
struct Session {
  std::optional<DeviceInfo> device;  // none: only host variants run; the others are skipped
  std::function<std::unique_ptr<Executor>(Target)> executors;
  // An executor over this many GPUs for a multi-GPU variant (harness/multigpu/distributed.hpp); null
  // where none can be made (no device). gpus_present: the CUDA devices here.
  std::function<std::unique_ptr<Executor>(int gpus)> multi_gpu;
  int gpus_present = 0;
  // Under a launcher (one process per GPU), how many processes: each drives its own rank, so this
  // process knows only its own GPU. 1 otherwise.
  int processes = 1;
  // The registered transport the multi-GPU executors' ranks talk through
  // (harness/multigpu/transport.hpp); where its ranks share a device, it is this session's one.
  std::string transport = kDefaultTransport;
  // What the Workbench makes executors with: `executors`, or `multi_gpu` above one GPU.
  Workbench::ExecutorFactory executor_factory() const;
  // The device's min-plus rate in updates/s, for a precision (kPrecisionInt32, kPrecisionU16x2,
  // kPrecisionInt64).
  std::function<double(double budget_s, const std::string& precision)> ceiling;
  BuildId build;
  // This machine: its first CUDA device if there is one, host executors always; user kernels
  // (Target::kIsolated) in worker processes started with `workers`; multi-GPU executors over
  // `transport` (NCCL: the first GPUs; single-device: every rank on the first GPU).
  static Session here(const WorkerOptions& workers = {},
                      const std::string& transport = kDefaultTransport);
};

// A tuning database for `apsp_bench --tuned` (harness/tune/resolve.hpp's TunedSource, its match's
// device, graph and build filled in by run_plan, the relaxations kept): requests marked tuned
// run its pick at each n, which only replaces the default where it was measured faster.

struct Outcome {
  Results results;
  bool any_failed = false;  // a run FAILED or could not run (not: skipped as outside what a variant
                            // solves exactly, Variant::admits)
};

// Runs the plan. `baseline` (may be null) supplies baseline samples for sizes the plan does not
// time it at (--baseline); the caller has checked it comes from the same device model.
Outcome run_plan(const Plan& plan, const Session& session, const Observer& observer,
                 const std::optional<TunedSource>& tuned = std::nullopt,
                 const Results* baseline = nullptr);

// The limits of the H200 the project is tuned on (name set to say it is assumed), for dry runs
// on a machine with no GPU and for tests.
DeviceInfo nominal_h200();

// The device a --dry-run (apsp_bench, tuner) plans for: this machine's; without a GPU an
// NVIDIA H200 by name, so that its shipped policy picks the defaults as a real run on an H200
// would (with nominal_h200()'s name no policy matches, and a dry run showed declared defaults
// that no run on an H200 measures). `note` gets the line that says so; "" with a GPU.
DeviceInfo dry_run_device(std::string& note);

// The context every results file carries: device (or the host), build, host name, date.
Context make_context(const Session& session);

// The precisions whose min-plus ceilings a run of the plan measures (on a device): int32 and
// packed 16-bit always, int64 only where a device request computes in it (its probe costs its
// own ceiling_s, which no other run would use).
std::vector<std::string> ceiling_precisions(const Plan& plan);

}  // namespace apsp::harness
