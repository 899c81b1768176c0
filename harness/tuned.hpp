// Picks from a tuning database that can only help: a measured config is chosen over the shipped
// default only where the database also measured that default (same device model, graph spec
// and build unless the match is relaxed, same n), and only if it was faster there.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/tuning_db.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

struct TunedPick {
  const TuningEntry* pick = nullptr;       // the fastest entry (the reference when none beat it)
  const TuningEntry* reference = nullptr;  // the shipped default, measured at the same n
  bool improves() const { return pick != reference; }
};

// The shipped default at size n: what runs without a database.
using ReferenceAt = std::function<NamedConfig(int n)>;

// Among the tuned sizes within a factor of 2 of n at which the database holds the shipped
// default (reference_at(tuned n)), the nearest (by ratio); there, the fastest verified entry of
// `variant` ("" for any variant) that this build compiles, or the reference if none beats it.
// nullopt when no such size exists: run the shipped default.
std::optional<TunedPick> pick_tuned(const TuningDb& db, const TuningMatch& match,
                                    const std::string& variant, int n, const ReferenceAt& reference_at);

}  // namespace apsp::harness
