// Picks from a tuning database that can only help (what a variant named alone runs with a
// database is harness/tune/resolve.hpp's resolve_config): a measured config is chosen over the shipped
// default only where the database also measured that default (same device model, graph spec
// and build unless the match is relaxed, same n), and only if it was faster there.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

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
// `variant` ("" for any variant; then only those `allowed` passes, when given) that this build
// compiles, or the reference if none beats it. nullopt when no such size exists: run the
// shipped default.
std::optional<TunedPick> pick_tuned(
    const TuningDb& db, const TuningMatch& match, const std::string& variant, int n,
    const ReferenceAt& reference_at,
    const std::function<bool(const std::string& variant)>& allowed = {});

// A dry run's lines for a variant asked with --tuned: per n, the config it would run (the
// pick or the default) and why; one line instead when the database holds no entry of the
// device model at all (none apply).
std::vector<std::string> describe_tuned(const TuningDb& db, const std::string& db_path,
                                        const TuningMatch& match, const Variant& v,
                                        const std::vector<int>& sizes, const DeviceInfo& device);

// The match of --tuned for a run on `device` with this graph and build (the relaxations kept).
TuningMatch tuned_match(TuningMatch relaxed, const DeviceInfo& device, const GraphKey& graph,
                        const BuildId& build);

}  // namespace apsp::harness
