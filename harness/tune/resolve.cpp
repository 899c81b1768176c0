#include "harness/tune/resolve.hpp"

#include <fmt/format.h>

#include "harness/tune/policy.hpp"
#include "harness/tune/tuned.hpp"

namespace apsp::harness {

namespace {

// The database's pick for v at n where it beat `shipped` (the default at n), with the line saying
// which config runs and why; `shipped` itself otherwise.
Resolved tuned_or(const Resolved& shipped, const Variant& v, const TunedSource& t, int n,
                  const DeviceInfo* device) {
  Resolved out = shipped;
  const std::string runs_default =
      fmt::format("it runs its default at n = {}, {}", n, config_name(v.name, shipped.config));
  auto reference_at = [&](int m) { return NamedConfig{&v, default_config(v, m, device).config}; };
  const auto pick = pick_tuned(*t.db, t.match, v.name, n, reference_at);
  if (!pick) {
    out.note = fmt::format(
        "tuned: {} has no {} entries for this device, graph and build within a factor 2 of n = {} "
        "that include the default; {}",
        t.path, v.name, n, runs_default);
  } else if (!pick->improves()) {
    // The default compared with is the one at the tuned size; at n another may run.
    out.note = fmt::format("tuned: nothing in {} beat {}'s default at n = {}, {} ({:.3f} ms); {}",
                           t.path, v.name, pick->reference->n, pick->reference->name,
                           pick->reference->median_ms, runs_default);
  } else {
    out.config = pick->pick->config;
    out.tuned = true;
    out.source = fmt::format("tuned at n = {}: {:.3f} ms against the default's {:.3f} ms",
                             pick->pick->n, pick->pick->median_ms, pick->reference->median_ms);
    out.note = fmt::format("tuned: {} at n = {} runs {} ({}; {})", v.name, n, pick->pick->name,
                           out.source, t.path);
  }
  return out;
}

}  // namespace

Resolved resolve_config(const ConfigAsk& ask, int n, const DeviceInfo* device) {
  const Variant& v = *ask.variant;
  if (ask.config) return {*ask.config, "asked", "", false};
  const DefaultChoice d = default_config(v, n, device);
  const Resolved shipped{d.config, d.source, "", false};
  if (!ask.tuned || !ask.tuned->db) return shipped;
  return tuned_or(shipped, v, *ask.tuned, n, device);
}

}  // namespace apsp::harness
