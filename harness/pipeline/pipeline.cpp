#include "harness/pipeline/pipeline.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <set>

#include "core/console.hpp"
#include "core/memory.hpp"
#include "core/stats.hpp"
#include "harness/measure/sampler.hpp"
#include "harness/measure/statistics.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/tuned.hpp"

namespace apsp::harness {

namespace {

// The config a request runs at size n, and why.
struct Selection {
  const Variant* variant = nullptr;
  Config config;
  std::string label, source;
};

struct Slot {  // one (selection, size, GPU count)
  Selection sel;
  int gpus = 1;
  Workbench* bench = nullptr;
  RunResult result;
  int reps = 0;
  double first_ms = 0;
};

void say(const std::function<void(const std::string&)>& f, const std::string& line) {
  if (f) f(line);
}

Selection select(const Request& r, int n, const Session& s, const std::optional<TunedSource>& tuned,
                 const Observer& obs) {
  const Variant& v = *r.variant;
  const DeviceInfo* dev = s.device ? &*s.device : nullptr;
  // A variant without parameters has nothing to tune.
  std::optional<TunedSource> mine;
  if (!r.config && r.tuned && tuned && !v.space.empty()) {
    mine = *tuned;
    mine->match.kernels = build_of(v, s.build).kernels;
  }
  const Resolved c = resolve_config({&v, r.config, mine ? &*mine : nullptr}, n, dev);
  say(obs.note, c.note);
  const std::string label =
      r.config ? config_name(v.name, *r.config) : v.name + (mine ? " (tuned)" : "");
  return {&v, c.config, label, c.source};
}

RunResult new_result(const Selection& sel, int n, const GraphDesc& graph) {
  RunResult r;
  r.variant = sel.variant->name;
  r.config = sel.config;
  r.name = config_name(sel.variant->name, sel.config);
  if (sel.label != r.name) r.label = sel.label;
  r.config_source = sel.source;
  r.precision = sel.variant->precision;
  r.n = n;
  r.graph = graph;
  return r;
}

// "" when (v, c) can run at n here on `gpus` GPUs; else why not.
std::string cannot_run(const Variant& v, const Config& c, int n, const Session& s, int gpus) {
  if (gpus > 1) {
    if (!s.multi_gpu) return "no CUDA device";
    if (std::string why = distributed_problem(v, c); !why.empty()) return why;
  }
  if (v.target == Target::kHost) {
    DeviceInfo host;  // host variants' check() reads nothing of a device
    host.max_threads_per_block = 1;
    return v.check(c, n, host);
  }
  if (!s.device) return "no CUDA device";
  return v.check(c, n, *s.device);
}

// One request at one size on `gpus` GPUs: its config checked and verified; its samples planned.
void verify_slot(const Plan& plan, const Request& req, int gpus, Workbench& bench, const Session& s,
                 const std::optional<TunedSource>& tuned, const Observer& obs,
                 std::vector<Slot>& slots, bool& any_failed) {
  const int n = bench.n();
  Slot slot{select(req, n, s, tuned, obs), gpus, &bench, {}, 0, 0};
  if (gpus > 1) slot.sel.label += fmt::format(" on {} GPUs", gpus);
  slot.result = new_result(slot.sel, n, describe(plan.graph));
  RunResult& r = slot.result;
  r.gpus = gpus;
  say(obs.progress, fmt::format("n = {}: verifying {}{}", n, r.name,
                                gpus > 1 ? fmt::format(" on {} GPUs", gpus) : ""));
  if (const std::string why = bench.admission(*slot.sel.variant); !why.empty()) {
    // The graph is outside what the variant solves exactly (sm90_u16 on distances that need
    // more than 16 bits): it never runs on it. Not a failure: nothing went wrong.
    r.verified = "skipped";
    r.error = why;
  } else if (const std::string why = cannot_run(*slot.sel.variant, slot.sel.config, n, s, gpus);
             !why.empty()) {
    r.verified = "skipped";
    r.error = why;
    any_failed = true;
  } else {
    const Verdict v =
        bench.verify(*slot.sel.variant, slot.sel.config, plan.sampling.flush_l2, gpus);
    r.verified = v.verified;
    if (v.memory.peak_bytes > 0) {
      r.solve_device_bytes = v.memory.solve_bytes;
      r.peak_device_bytes = v.memory.peak_bytes;
    }
    if (v.verified == kCertificate)
      say(obs.note,
          fmt::format("n = {}: {} checked by the certificate in {:.1f} ms (its solve: {:.1f} ms)",
                      n, slot.sel.label, v.check_ms, v.first_ms));
    if (v.ok()) {
      slot.reps = planned_reps(v.first_ms, plan.sampling);
      slot.first_ms = v.first_ms;
    } else {
      r.error = v.error;
      any_failed = true;
    }
  }
  slots.push_back(std::move(slot));
}

// The GPU counts some request of the plan runs at, ascending: each a group of its own.
std::vector<int> count_groups(const Plan& plan) {
  std::set<int> counts;
  for (const Request& req : plan.requests)
    for (int gpus : gpu_counts(plan, req)) counts.insert(gpus);
  return {counts.begin(), counts.end()};
}

// Pass 1 of one size and one GPU count: each request's config checked and verified there.
void verify_size(const Plan& plan, int gpus, Workbench& bench, const Session& s,
                 const std::optional<TunedSource>& tuned, const Observer& obs,
                 std::vector<Slot>& slots, bool& any_failed) {
  const int n = bench.n();
  for (const Request& req : plan.requests) {
    const std::vector<int> counts = gpu_counts(plan, req);
    if (std::find(counts.begin(), counts.end(), gpus) == counts.end()) continue;
    if (!runs_at(plan, req, n)) {
      say(obs.note,
          fmt::format("n = {}: {} is not timed above n = {} (its n^3 steps would take minutes); no "
                      "speedups at this n, the share of the ceiling stands in",
                      n, plan.baseline, plan.baseline_max_n));
      continue;
    }
    verify_slot(plan, req, gpus, bench, s, tuned, obs, slots, any_failed);
  }
}

std::string eta(double seconds) {
  const std::string left = time_left(seconds);
  return left.empty() ? "" : ", " + left;
}

void sample_slot(const Plan& plan, Slot& s) {
  const Variant& v = *s.sel.variant;
  Executor& ex = s.bench->executor(v, s.gpus);
  s.result.samples_ms = take_samples(ex, v, s.sel.config, s.reps, plan.sampling);
  if (plan.cuda_graph) {
    const auto graph = take_samples(ex, v, s.sel.config, s.reps, plan.sampling, Mode::kCudaGraph);
    s.result.graph_median_ms = median(graph);
  }
  if (plan.phases && !v.space.empty() && v.name != plan.baseline)
    s.result.phases_ms = take_phases(ex, v, s.sel.config);
}

// The samples of one size's runs, with the time left from each run's planned samples. A run
// whose timing throws is FAILED with the error; the others go on. `done(i)` after slots[i] is
// finished (a slot not to be timed is finished already).
void sample_size(const Plan& plan, std::vector<Slot>& slots, const Observer& obs, bool& any_failed,
                 const std::function<void(size_t)>& done) {
  double left_ms = 0;
  int total = 0, timed = 0;
  for (const Slot& s : slots) {
    left_ms += s.reps * s.first_ms;
    total += s.reps > 0;
  }
  for (size_t i = 0; i < slots.size(); ++i) {
    Slot& s = slots[i];
    if (s.reps > 0) {
      say(obs.progress,
          fmt::format("n = {}: [{}/{}] timing {}{}{}", s.result.n, ++timed, total, s.result.name,
                      s.gpus > 1 ? fmt::format(" on {} GPUs", s.gpus) : "", eta(left_ms / 1000)));
      left_ms -= s.reps * s.first_ms;
      try {
        sample_slot(plan, s);
      } catch (const std::exception& e) {  // a user kernel's worker that faulted or timed out
        s.result.samples_ms.clear();
        s.result.verified = "FAILED";
        s.result.error = fmt::format("while timing: {}", e.what());
        any_failed = true;
      }
    }
    done(i);
  }
}

// The statistics and speedups of r's runs: the baseline's samples from r itself, or from the
// runs of `baseline` (--baseline).
void add_statistics(Results& r, const Plan& plan, const Results* baseline) {
  compute_statistics(r, plan.baseline, baseline ? baseline->runs : std::vector<RunResult>{},
                     transport_shares_device(r.context.transport));
}

// Observer::finished once slots[0..last] are finished: the runs of the sizes and GPU counts
// before (`before`), then those, with their statistics, marked incomplete.
void tell_finished(const Plan& plan, const Results* baseline, const Observer& obs,
                   const Results& before, const std::vector<Slot>& slots, size_t last) {
  if (!obs.finished) return;
  Results so_far = before;
  so_far.complete = false;
  for (size_t i = 0; i <= last; ++i) so_far.runs.push_back(slots[i].result);
  add_statistics(so_far, plan, baseline);
  obs.finished(so_far);
}

}  // namespace

Workbench::ExecutorFactory Session::executor_factory() const {
  // Copies of the factories, not `this`: a Workbench may outlive a Session it was made from.
  return [executors = executors, multi_gpu = multi_gpu](Target t,
                                                        int gpus) -> std::unique_ptr<Executor> {
    if (gpus == 1) return executors(t);
    if (!multi_gpu)
      throw std::runtime_error(fmt::format("no multi-GPU executor here ({} GPUs asked)", gpus));
    return multi_gpu(gpus);
  };
}

DeviceInfo nominal_h200() {
  DeviceInfo d;
  d.name = "(no device: H200 limits assumed)";
  d.cc_major = 9;
  d.sms = 132;
  d.max_threads_per_block = 1024;
  d.smem_per_block_optin = 232448;
  d.smem_per_sm = 233472;
  d.memory_bytes = 150109880320;  // as an H200 reports it (tests/fixtures/h200_bench.json)
  return d;
}

DeviceInfo dry_run_device(std::string& note) {
  if (has_device()) {
    note.clear();
    return query_device();
  }
  DeviceInfo d = nominal_h200();
  d.name = "NVIDIA H200";
  note =
      "no CUDA device here: the configs and checks shown are an NVIDIA H200's (its shipped "
      "policy); "
      "another device runs its own policy, heuristic or declared defaults";
  return d;
}

Context make_context(const Session& session) {
  Context c;
  if (session.device) {
    c.device = device_json(*session.device);
  } else {
    c.device = {{"name", "host (no CUDA device)"}, {"cc", ""}, {"sms", 0}};
  }
  const BuildInfo b = build_info();
  c.build = {{"git", session.build.commit},
             {"kernels", session.build.kernels},
             {"nvcc", b.nvcc},
             {"archs", b.archs},
             {"flags", "-O3 -lineinfo"}};
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  c.host = host;
  c.date = now_iso();
  return c;
}

std::vector<std::string> ceiling_precisions(const Plan& plan) {
  std::vector<std::string> out{kPrecisionInt32, kPrecisionU16x2};
  if (std::any_of(plan.requests.begin(), plan.requests.end(), [](const Request& r) {
        return r.variant->target != Target::kHost && r.variant->precision == kPrecisionInt64;
      }))
    out.push_back(kPrecisionInt64);
  return out;
}

namespace {

// The precisions' min-plus ceilings, each its own budget: a 16-bit run's share is against the
// 16-bit one, an int64 run's against the int64 one (measured only where one runs).
void measure_ceilings(const Plan& plan, const Session& s, const Observer& obs, Context& c) {
  const bool any_device =
      std::any_of(plan.requests.begin(), plan.requests.end(),
                  [](const Request& r) { return r.variant->target != Target::kHost; });
  if (!s.ceiling || !s.device || !any_device || plan.ceiling_s <= 0) return;
  say(obs.progress, "measuring the min-plus ceilings");
  for (const std::string& precision : ceiling_precisions(plan)) {
    double& slot = precision == kPrecisionU16x2   ? c.ceiling_u16_updates_per_s
                   : precision == kPrecisionInt64 ? c.ceiling_i64_updates_per_s
                                                  : c.ceiling_updates_per_s;
    slot = s.ceiling(plan.ceiling_s, precision);
  }
  std::string line =
      fmt::format("min-plus ceilings: int32 {:.2f} T updates/s, packed 16-bit {:.2f} T updates/s",
                  c.ceiling_updates_per_s / 1e12, c.ceiling_u16_updates_per_s / 1e12);
  if (c.ceiling_i64_updates_per_s > 0)
    line += fmt::format(", int64 {:.2f} T updates/s", c.ceiling_i64_updates_per_s / 1e12);
  say(obs.note, line);
}

// Every GPU a multi-GPU run uses, in rank order, and the transport between them.
void describe_gpus(const Plan& plan, const Session& s, Context& c) {
  const int most_gpus = *std::max_element(plan.gpus.begin(), plan.gpus.end());
  if (most_gpus <= 1 || !s.device) return;
  // Under a launcher the other ranks' GPUs are other processes': this one records its own.
  const int known = s.processes > 1 ? 1 : most_gpus;
  for (int rank = 0; rank < known; ++rank) {
    nlohmann::json gpu =
        device_json(query_device(transport_shares_device(s.transport) ? s.device->ordinal : rank));
    gpu["rank"] = rank;
    c.gpus.push_back(gpu);
  }
  c.transport = s.transport;
}

// One size: its graph and expected output, then each GPU count's runs verified and timed.
void run_size(const Plan& plan, int n, const Session& s, const Observer& obs,
              const std::optional<TunedSource>& tuned, const Results* baseline, Outcome& out) {
  const std::string reference =
      reference_kind(n, plan.cpu_reference_max_n, plan.reference, plan.baseline);
  say(obs.progress,
      fmt::format("n = {}: the graph and its {}", n,
                  reference == "cpu-reference" ? "CPU reference"
                  : reference == kCertificate  ? "certificate's edges"
                                               : "reference output (" + reference + ")"));
  std::optional<Workbench> bench;
  {  // a std::bad_alloc here reaches the user as "out of memory while ..." (core/console: Doing)
    const Doing doing(fmt::format("making the n = {} graph and its expected output ({} a matrix)",
                                  n, human_bytes(matrix_bytes(n))));
    bench.emplace(*make_graph(plan.graph, n), s.executor_factory(), plan.cpu_reference_max_n,
                  reference);
  }
  // One GPU count at a time, verified and then timed, its executors freed before the next
  // (the one-GPU runs' two matrices and each count's engine would not fit on GPU 0 together).
  const std::vector<int> groups = count_groups(plan);
  if (!groups.empty() && groups.front() != 1) bench->release(1);  // the reference variant's
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<Slot> slots;
    verify_size(plan, groups[g], *bench, s, tuned, obs, slots, out.any_failed);
    if (g + 1 == groups.size()) bench->drop_expected();  // host memory: only verification needs it
    sample_size(plan, slots, obs, out.any_failed,
                [&](size_t last) { tell_finished(plan, baseline, obs, out.results, slots, last); });
    if (g + 1 < groups.size()) bench->release(groups[g]);
    for (Slot& slot : slots) out.results.runs.push_back(std::move(slot.result));
  }
}

}  // namespace

Outcome run_plan(const Plan& plan, const Session& s, const Observer& obs,
                 const std::optional<TunedSource>& tuned_in, const Results* baseline) {
  Outcome out;
  out.results.context = make_context(s);
  std::optional<TunedSource> tuned = tuned_in;
  if (tuned && s.device)
    tuned->match = tuned_match(tuned->match, *s.device, tuning_key(plan.graph), s.build);
  measure_ceilings(plan, s, obs, out.results.context);
  describe_gpus(plan, s, out.results.context);
  // One size at a time: its matrices (host and device) are freed before the next is made.
  for (int n : plan.sizes) run_size(plan, n, s, obs, tuned, baseline, out);
  add_statistics(out.results, plan, baseline);
  return out;
}

}  // namespace apsp::harness
