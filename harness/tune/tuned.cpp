#include "harness/tune/tuned.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"

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
  const TunedSource tuned{&db, match, db_path};
  for (int n : sizes) {
    const Resolved c = resolve_config({&v, std::nullopt, &tuned}, n, &device);
    lines.push_back(c.tuned ? fmt::format("n = {}: {} ({}; {})", n, config_name(v.name, c.config),
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
