// Shipped policies: each variant's default config per device model and range of n, like CUB's
// per-architecture tuning policies. The tables live in policies/*.json (schema
// "apsp-policy/1"), are written by `tuner --emit-policy` from a tuning database with their
// provenance, and are compiled into the programs. A device without a table falls back to the
// variant's heuristic (Variant::heuristic), then to its declared defaults.
#pragma once

#include <climits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/tuning_db.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

inline constexpr const char* kPolicySchema = "apsp-policy/1";

// The variant `apsp` solves with when nothing else is asked for: its shipped default at each n
// is the reference every pick from a tuning database must beat.
inline constexpr const char* kSolverVariant = "sm90";
// Its 16-bit sibling, which `apsp` solves with instead where the graph's distances fit 16 bits
// (harness/tune/solver_choice.hpp).
inline constexpr const char* kSolverVariantU16 = "sm90_u16";

struct PolicyRange {
  int n_min = 1, n_max = INT_MAX;  // inclusive
  Config config;
  int tuned_n = 0;        // where it was measured
  double median_ms = 0;   // its time there
  double default_ms = 0;  // the default it replaced, measured there (0: it is the default)
};

struct Policy {
  DeviceModel device;
  nlohmann::json provenance;  // date, commit, kernels, command, database, graph
  std::map<std::string, std::vector<PolicyRange>> variants;  // ranges sorted by n, disjoint
};

// Throws std::runtime_error with one line naming `where` when the JSON is not a policy.
Policy policy_from_json(const nlohmann::json& j, const std::string& where);
nlohmann::json to_json(const Policy& p);

// The tables compiled into this build (policies/*.json); a malformed one stops the program
// with its name and fault (they are checked by the CPU tests).
const std::vector<Policy>& shipped_policies();

struct DefaultChoice {
  Config config;
  std::string source;  // "policy for n 1582..3535", "heuristic (no policy for this device)",
                       // "declared default"
};

// The config (variant, n) runs when nothing else is asked for, for resolve_config
// (harness/tune/resolve.hpp), which every program asks, and the policy tables below: the policy of
// `device`'s model
// (from `policies`) whose range holds n, if it names a config this build compiles and that
// can run; else the variant's heuristic; else its declared defaults. `device` may be null
// (no GPU): the declared defaults.
DefaultChoice default_config(const Variant& v, int n, const DeviceInfo* device,
                             const std::vector<Policy>& policies = shipped_policies());

// A policy from the database's entries that `match` accepts: for each variant with
// parameters and each tuned n, its fastest verified config, provided the database also holds
// the default that config would replace (measured there; the tuner always records it), so a
// policy can never be slower than what it replaces at the sizes it was measured at; a pick
// replaces the default only where its fastest sample is faster too (a disturbed measurement of
// the default raises its median, not its fastest sample). Ranges
// meet at the geometric means of neighbouring tuned n. `skipped` receives one line per
// (variant, n) left out and why.
// `device` is the device the database was measured on (its model is match.device).
Policy policy_from_db(const TuningDb& db, const TuningMatch& match, const DeviceInfo& device,
                      const nlohmann::json& provenance, const std::vector<Policy>& current,
                      std::vector<std::string>* skipped);

}  // namespace apsp::harness
