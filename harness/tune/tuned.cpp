#include "harness/tune/tuned.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "harness/tune/policy.hpp"

namespace apsp::harness {

std::optional<TunedPick> pick_tuned(
    const TuningDb& db, const TuningMatch& match, const std::string& variant, int n,
    const ReferenceAt& reference_at,
    const std::function<bool(const std::string& variant)>& allowed) {
  auto usable = [&](const TuningEntry& e) {
    return match.accepts(e) && e.status == "ok" && e.median_ms > 0 &&
           (variant.empty() || e.variant == variant) && (!allowed || allowed(e.variant)) &&
           config_problem(e.variant, e.config).empty();
  };
  std::set<int> tuned;
  for (const TuningEntry& e : db.entries())
    if (usable(e)) tuned.insert(e.n);
  // The nearest tuned size (within a factor of 2) whose shipped default was measured.
  std::optional<TunedPick> out;
  double nearest = std::log(2.0) + 1e-9;
  for (int m : tuned) {
    const double distance = std::abs(std::log(static_cast<double>(m) / n));
    if (distance > nearest) continue;  // ascending sizes: of two as near, the larger wins
    const NamedConfig ref = reference_at(m);
    const TuningEntry* r = nullptr;
    for (const TuningEntry& e : db.entries())
      if (match.accepts(e) && e.n == m && e.status == "ok" && e.median_ms > 0 &&
          e.variant == ref.variant->name && e.config == ref.config)
        r = &e;
    if (!r) continue;
    nearest = distance;
    out = TunedPick{r, r};
  }
  if (!out) return std::nullopt;
  for (const TuningEntry& e : db.entries())
    if (usable(e) && e.n == out->reference->n && e.median_ms < out->pick->median_ms) out->pick = &e;
  return out;
}

TunedChoice choose_tuned(const TuningDb& db, const std::string& db_path, const TuningMatch& match,
                         const Variant& v, int n, const DeviceInfo* device) {
  const DefaultChoice d = default_config(v, n, device);
  TunedChoice out{d.config, d.source, "", false};
  const std::string runs_default =
      fmt::format("it runs its default at n = {}, {}", n, config_name(v.name, d.config));
  auto reference_at = [&](int m) { return NamedConfig{&v, default_config(v, m, device).config}; };
  const auto pick = pick_tuned(db, match, v.name, n, reference_at);
  if (!pick) {
    out.note = fmt::format(
        "tuned: {} has no {} entries for this device, graph and build within a factor 2 of n = {} "
        "that include the default; {}",
        db_path, v.name, n, runs_default);
  } else if (!pick->improves()) {
    // The default compared with is the one at the tuned size; at n another may run.
    out.note = fmt::format("tuned: nothing in {} beat {}'s default at n = {}, {} ({:.3f} ms); {}",
                           db_path, v.name, pick->reference->n, pick->reference->name,
                           pick->reference->median_ms, runs_default);
  } else {
    out.config = pick->pick->config;
    out.picked = true;
    out.source = fmt::format("tuned at n = {}: {:.3f} ms against the default's {:.3f} ms",
                             pick->pick->n, pick->pick->median_ms, pick->reference->median_ms);
    out.note = fmt::format("tuned: {} at n = {} runs {} ({}; {})", v.name, n, pick->pick->name,
                           out.source, db_path);
  }
  return out;
}

std::vector<std::string> describe_tuned(const TuningDb& db, const std::string& db_path,
                                        const TuningMatch& match, const Variant& v,
                                        const std::vector<int>& sizes, const DeviceInfo& device) {
  const bool model_known =
      std::any_of(db.entries().begin(), db.entries().end(),
                  [&](const TuningEntry& e) { return e.device == match.device; });
  if (!model_known)
    return {
        fmt::format("tuned: {} has no entries for {} (cc {}, {} SMs): none apply; the defaults run",
                    db_path, match.device.name, match.device.cc, match.device.sms)};
  std::vector<std::string> lines;
  for (int n : sizes) {
    const TunedChoice c = choose_tuned(db, db_path, match, v, n, &device);
    lines.push_back(c.picked ? fmt::format("n = {}: {} ({}; {})", n, config_name(v.name, c.config),
                                           c.source, db_path)
                             : fmt::format("n = {}: {} ({}); {}", n, config_name(v.name, c.config),
                                           c.source, c.note));
  }
  return lines;
}

TuningMatch tuned_match(TuningMatch relaxed, const DeviceInfo& device, const GraphKey& graph,
                        const BuildId& build) {
  relaxed.device = DeviceModel::of(device);
  relaxed.graph = graph;
  relaxed.kernels = build.kernels;
  return relaxed;
}

}  // namespace apsp::harness
