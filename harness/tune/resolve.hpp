// Which config of a variant runs at a size on a device: the one answer that the bench, the tuner,
// the dry runs, the solver and Python ask, so that a dry run says what the run does. It is the
// only caller of the policies' default_config (harness/tune/policy.hpp).
#pragma once

#include <optional>
#include <string>

#include "core/device_info.hpp"
#include "core/tuning_db.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

// A tuning database whose picks a variant named alone may run (apsp_bench --tuned, apsp --db):
// `match` says which of its entries apply (device model, graph, build, and the relaxations).
struct TunedSource {
  const TuningDb* db = nullptr;
  TuningMatch match;
  std::string path;
};

// What is asked of a variant: a config as given, or (nullopt) its default here, which a tuning
// database's pick replaces where the database measured the pick faster than that default.
struct ConfigAsk {
  const Variant* variant = nullptr;
  std::optional<Config> config;
  const TunedSource* tuned = nullptr;  // null: no database
};

struct Resolved {
  Config config;
  // Where it comes from: "asked", "policy for n 1582..3535", "heuristic (no policy for this
  // device)", "declared default", or "tuned at n = 2500: 1.234 ms against the default's ...".
  std::string source;
  std::string note;    // the database's line for the user, naming the config that runs and why
  bool tuned = false;  // the database's pick runs, not the default
};

// The config `ask` runs at n on `device` (null: no GPU, the declared defaults): as asked; else
// the database's pick where it beat the shipped default (harness/tune/tuned.hpp); else the
// shipped default (the device model's policy, the variant's heuristic, its declared defaults).
Resolved resolve_config(const ConfigAsk& ask, int n, const DeviceInfo* device);

// The shipped default of v at n on `device`: what runs with nothing asked and no database.
inline Config shipped_config(const Variant& v, int n, const DeviceInfo* device) {
  return resolve_config(ConfigAsk{&v, std::nullopt, nullptr}, n, device).config;
}

}  // namespace apsp::harness
