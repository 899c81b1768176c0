#include "harness/tuned.hpp"

#include <cmath>
#include <limits>
#include <set>

namespace apsp::harness {

std::optional<TunedPick> pick_tuned(const TuningDb& db, const TuningMatch& match,
                                    const std::string& variant, int n, const ReferenceAt& reference_at) {
  auto usable = [&](const TuningEntry& e) {
    return match.accepts(e) && e.status == "ok" && e.median_ms > 0 &&
           (variant.empty() || e.variant == variant) && config_problem(e.variant, e.config).empty();
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
      if (match.accepts(e) && e.n == m && e.status == "ok" && e.median_ms > 0 && e.variant == ref.variant->name &&
          e.config == ref.config)
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

}  // namespace apsp::harness
