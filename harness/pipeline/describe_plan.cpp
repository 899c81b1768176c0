#include "harness/pipeline/describe_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "core/device_info.hpp"
#include "core/memory.hpp"
#include "core/precision.hpp"
#include "harness/measure/workbench.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/multi_gpu_model.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"
#include "harness/tune/tuned.hpp"

namespace apsp::harness {
namespace {

template <class... Args>
void line(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
  out += '\n';
}

bool on_several_gpus(const Plan& p) {
  return std::any_of(p.gpus.begin(), p.gpus.end(), [](int g) { return g > 1; });
}

// The request's heading: its name, and why it is there or where it runs.
void describe_request_name(std::string& out, const Plan& p, const Request& r,
                           const PlanNotes& notes) {
  line(out, "  {}{}{}{}", r.config ? config_name(r.variant->name, *r.config) : r.variant->name,
       p.baseline_added && r.variant->name == p.baseline ? "  (added: the speedup baseline)" : "",
       r.tuned ? "  (tuned from " + notes.tuned->path + " where it beats the default)" : "",
       !on_several_gpus(p)    ? ""
       : r.variant->multi_gpu ? fmt::format("  (on {} GPUs)", fmt::join(p.gpus, ", "))
                              : "  (on one GPU: it has no multi-GPU engine)");
}

// The picks a run would make on this device (or an H200's), from the database.
void describe_tuned_request(std::string& out, const Plan& p, const Request& r,
                            const PlanNotes& notes, const DeviceInfo& dev) {
  const TunedSource& tuned = *notes.tuned;
  const TuningMatch m =
      tuned_match(tuned.match, dev, tuning_key(p.graph), build_of(*r.variant, current_build()));
  for (const std::string& l : describe_tuned(*tuned.db, tuned.path, m, *r.variant, p.sizes, dev))
    line(out, "    {}", l);
}

// The sizes the plan leaves a request out at (the baseline not asked for by name, above
// baseline_max_n), in one line; nothing when it runs at every size.
void describe_left_out(std::string& out, const Plan& p, const Request& r) {
  std::vector<int> left_out;
  for (int n : p.sizes)
    if (!runs_at(p, r, n)) left_out.push_back(n);
  if (left_out.empty()) return;
  line(out,
       "    not run at n = {}: the baseline, not asked for by name, is not timed above n = {} "
       "(its n^3 steps would take minutes); no speedups there, the share of the ceiling stands in",
       fmt::join(left_out, ", "), p.baseline_max_n);
}

// Per size it runs at: the config the request runs, where it comes from, and what stops it.
void describe_request_sizes(std::string& out, const Plan& p, const Request& r,
                            const DeviceInfo& dev) {
  for (int n : p.sizes) {
    if (!runs_at(p, r, n)) continue;
    const Resolved d = resolve_config({r.variant, r.config, nullptr}, n, &dev);
    const std::string why = r.variant->check(d.config, n, dev);
    // A generated graph's weights go up to --wmax (a file's: its largest edge weight).
    const int64_t wmax = p.graph.edges ? max_edge_weight(*p.graph.edges) : p.graph.spec.wmax;
    const std::string outside = admission_problem(*r.variant, n, wmax);
    line(out, "    n = {}: {} ({}){}{}", n, config_name(r.variant->name, d.config), d.source,
         why.empty() ? "" : "; cannot run: " + why,
         outside.empty() ? ""
                         : "; skipped unless the graph's largest weight is smaller: " + outside);
  }
}

// The memory the device the dry run plans for has, as a real run checks it: this GPU's free
// memory, or the assumed H200's whole memory.
struct Room {
  std::string device;  // its name
  uint64_t device_free = 0, host_free = 0;
  static Room of(const DeviceInfo& dev) {
    return {dev.name, has_device() ? device_free_bytes() : dev.memory_bytes,
            available_memory().bytes};
  }
};

// Warning lines for size n where it does not fit, found by the real run's check (memory_problem
// on the plan at that size alone); false when the device lacks the room (a real run there refuses
// the plan). The host is the one the dry run runs on: a warning, not a refusal, since the real
// run may run elsewhere.
bool warn_about_memory(std::string& out, const Plan& p, int n, const Room& room) {
  Plan one = p;
  one.sizes = {n};
  const std::string device = memory_problem(one, room.device_free, UINT64_MAX);
  if (!device.empty()) line(out, "  warning: {} on {}: the plan does not fit", device, room.device);
  if (const std::string host = memory_problem(one, UINT64_MAX, room.host_free); !host.empty())
    line(out, "  warning: {} on this machine", host);
  return device.empty();
}

// Per size: the reference, and the device memory on one GPU and on each count of several, then
// a warning where it does not fit. False when some size does not fit the device.
bool describe_sizes(std::string& out, const Plan& p, const Room& room) {
  bool fits = true;
  for (int n : p.sizes) {
    std::string several;
    for (int gpus : p.gpus)
      if (gpus > 1 && multi_gpu_bytes(p, n, gpus) > 0)
        several += fmt::format("; on {} GPUs {} {}", gpus, human_bytes(multi_gpu_bytes(p, n, gpus)),
                               transport_shares_device(p.transport) ? "on the one GPU" : "per GPU");
    line(out, "  n = {:>6}: verified against {}; device memory {}{}", n,
         reference_kind(n, p.cpu_reference_max_n, p.reference, p.baseline),
         human_bytes(working_set(p, n).device), several);
    fits = warn_about_memory(out, p, n, room) && fits;
  }
  return fits;
}

// The multi-GPU runs' predictions (harness/multigpu/multi_gpu_model.hpp, docs/multi-gpu.md): from
// the H200's measured one-GPU rate and NVLink bandwidth.
void describe_model(std::string& out, const Plan& p, const DeviceInfo& dev) {
  if (!on_several_gpus(p)) return;
  if (std::none_of(p.requests.begin(), p.requests.end(),
                   [](const Request& r) { return r.variant->multi_gpu; }))
    return;
  LinkModel link = h200_nvlink_model();
  const bool assumed = p.model_link_gbs || p.model_latency_us;
  if (p.model_link_gbs) link.bytes_per_s = *p.model_link_gbs * 1e9;
  if (p.model_latency_us) link.round_latency_s = *p.model_latency_us * 1e-6;
  line(out,
       "model (docs/multi-gpu.md; H200 rate {:.2f} T updates/s, {} {:.0f} GB/s, {:.0f} us a "
       "broadcast):",
       link.rate_updates_per_s / 1e12, assumed ? "an assumed link of" : "NVLink",
       link.bytes_per_s / 1e9, link.round_latency_s * 1e6);
  for (const Request& r : p.requests) {
    if (!r.variant->multi_gpu) continue;
    for (int n : p.sizes) {
      const Config c = resolve_config({r.variant, r.config, nullptr}, n, &dev).config;
      for (int gpus : p.gpus)
        line(out, "  {}: {}", config_name(r.variant->name, c),
             describe(n, gpus, predict(n, gpus, distributed_tile(*r.variant, c), link)));
      line(out,
           "  n = {}: a round's broadcast hides behind its phase 3 while each GPU holds at least "
           "{:.0f} rows",
           n, rows_per_gpu_to_hide(n, distributed_tile(*r.variant, c), link));
    }
  }
}

// The runs the plan makes: each request at each size it runs at, on each of its GPU counts.
size_t run_count(const Plan& p) {
  size_t runs = 0;
  for (const Request& r : p.requests)
    for (int n : p.sizes)
      if (runs_at(p, r, n)) runs += gpu_counts(p, r).size();
  return runs;
}

// apsp_bench's plan: its runs, one config per request and size.
std::string describe_runs(const Plan& p, const PlanNotes& notes, const DeviceInfo& dev,
                          const std::string& assumed, bool& fits) {
  std::string out;
  line(out,
       "plan: {} run(s) of {} request(s) at {} size(s); samples {}..{}, at least {} s each; L2 {}",
       run_count(p), p.requests.size(), p.sizes.size(), p.sampling.min_reps, p.sampling.max_reps,
       p.sampling.min_time_s, p.sampling.flush_l2 ? "flushed before each sample" : "warm");
  line(out, "graph: {}",
       p.graph.edges ? p.graph.file
                     : fmt::format("random, density {}, weights [1, {}], seed {}",
                                   p.graph.spec.density, p.graph.spec.wmax, p.graph.spec.seed));
  for (const Request& r : p.requests) {
    describe_request_name(out, p, r, notes);
    if (r.tuned)
      describe_tuned_request(out, p, r, notes, dev);
    else
      describe_request_sizes(out, p, r, dev);
    describe_left_out(out, p, r);
  }
  fits = describe_sizes(out, p, Room::of(dev));
  describe_model(out, p, dev);
  if (!assumed.empty()) line(out, "{}", assumed);
  return out;
}

// One size of a search: the points rejected there, what is left to measure, and the reference a
// real run measures beside them (the shipped default at this n).
void describe_search_size(std::string& out, const Variant& v, const SearchSpace& s, int n,
                          const DeviceInfo& dev) {
  size_t rejected = 0;
  for (const Config& c : s.points) {
    const std::string why = v.check(c, n, dev);
    if (why.empty()) continue;
    ++rejected;
    line(out, "  n = {}: rejected {}: {}", n, config_name(v.name, c), why);
  }
  const size_t runnable = s.points.size() - rejected;
  const std::string measured =
      s.visits < runnable
          ? fmt::format("at most {} to measure (a {} search, --budget {}, of {} runnable)",
                        s.visits, s.strategy, s.budget, runnable)
          : fmt::format("{} to measure", runnable);
  const Resolved reference = resolve_config({&v, std::nullopt, nullptr}, n, &dev);
  line(out, "  n = {}: {}, {} rejected; reference: {} ({})", n, measured, rejected,
       config_name(v.name, reference.config), reference.source);
}

// The tuner's plan: a search of each request's space at every size, then each size's memory
// where it does not fit.
std::string describe_searches(const Plan& p, const std::vector<SearchSpace>& searches,
                              const DeviceInfo& dev, const std::string& assumed, bool& fits) {
  std::string out;
  line(out, "device: {}{}", dev.name, assumed.empty() ? "" : " (assumed: " + assumed + ")");
  // A file is named as the database keys its entries: by its path as given.
  if (p.graph.edges)
    line(out, "graph: {} (V = {}, {} edges)", p.graph.file, p.graph.edges->num_vertices,
         p.graph.edges->edges.size());
  for (size_t i = 0; i < p.requests.size(); ++i) {
    const Variant& v = *p.requests[i].variant;
    const SearchSpace& s = searches.at(i);
    fmt::format_to(std::back_inserter(out), "{}: {} point(s) over", v.name, s.points.size());
    for (const Param& param : s.params)
      fmt::format_to(std::back_inserter(out), " {}={{{}}}", param.name,
                     fmt::join(param.values, ","));
    fmt::format_to(std::back_inserter(out), "; strategy {}", s.strategy);
    if (s.points.size() < s.combinations)
      fmt::format_to(std::back_inserter(out),
                     " ({} combinations without a compiled kernel left out)",
                     s.combinations - s.points.size());
    out += '\n';
    for (int n : p.sizes) describe_search_size(out, v, s, n, dev);
  }
  const Room room = Room::of(dev);
  for (int n : p.sizes) fits = warn_about_memory(out, p, n, room) && fits;
  return out;
}

}  // namespace

std::string describe_plan(const Plan& plan, const PlanNotes& notes, bool* fits) {
  std::string assumed;
  const DeviceInfo dev = dry_run_device(assumed);
  bool room = true;
  std::string text = notes.searches ? describe_searches(plan, *notes.searches, dev, assumed, room)
                                    : describe_runs(plan, notes, dev, assumed, room);
  if (fits) *fits = room;
  return text;
}

}  // namespace apsp::harness
