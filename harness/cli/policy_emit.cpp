#include "harness/cli/policy_emit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/console.hpp"
#include "harness/cli/program.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/tune/policy.hpp"

namespace apsp::harness {

namespace {

void print_ranges(const Policy& p) {
  for (const auto& [variant, ranges] : p.variants)
    for (const PolicyRange& r : ranges)
      fmt::print("policy: {} for n {}..{}: {} ({:.3f} ms at n = {}{})\n", variant, r.n_min,
                 r.n_max == INT_MAX ? std::string() : std::to_string(r.n_max),
                 config_name(variant, r.config), r.median_ms, r.tuned_n,
                 r.default_ms > 0 ? fmt::format(", the default took {:.3f} ms", r.default_ms) : "");
}

}  // namespace

DeviceInfo policy_device(const TuningDb& db, const std::string& db_path) {
  if (has_device()) return query_device();
  std::vector<DeviceModel> models;
  for (const TuningEntry& e : db.entries())
    if (std::find(models.begin(), models.end(), e.device) == models.end())
      models.push_back(e.device);
  if (models.size() != 1)
    throw std::invalid_argument(
        fmt::format("--emit-policy without a GPU needs a database of one device model; {} "
                    "holds {}",
                    db_path, models.size()));
  DeviceInfo d = nominal_h200();
  d.name = models[0].name;
  d.sms = models[0].sms;
  d.cc_major = models[0].cc.empty() ? 0 : models[0].cc[0] - '0';
  d.cc_minor = models[0].cc.size() < 3 ? 0 : models[0].cc[2] - '0';
  return d;
}

void emit_policy(const PolicyOutput& out, const TuningDb& db, const TuneOptions& tune,
                 const DeviceInfo& dev, const BuildId& build) {
  TuningMatch match;
  match.device = DeviceModel::of(dev);
  match.graph = tuning_key(tuning_graph(tune));
  match.kernels = build.kernels;
  const nlohmann::json provenance{
      {"date", now_iso()},        {"commit", build.commit},
      {"kernels", build.kernels}, {"command", fmt::format("{}", fmt::join(out.command, " "))},
      {"database", out.db_path},  {"graph", graph_key_json(match.graph)}};
  std::vector<std::string> skipped;
  Policy p = policy_from_db(db, match, dev, provenance, shipped_policies(), &skipped);
  // With --variant, only those: a table of its own beside the device's main one (a variant tuned
  // on another graph spec: sm90_u16 on unweighted graphs), which must not repeat its variants.
  if (!out.variants.empty()) {
    const std::vector<const Variant*> kept = tunable_variants(out.variants, "all");
    std::erase_if(p.variants, [&](const auto& entry) {
      return std::none_of(kept.begin(), kept.end(),
                          [&](const Variant* v) { return v->name == entry.first; });
    });
  }
  for (const std::string& line : skipped) fmt::print("emit-policy: skipped {}\n", line);
  if (p.variants.empty())
    throw ProgramExit(kExitFailed,
                      fmt::format("{} has no usable entries for this device, graph and build: no "
                                  "policy written",
                                  out.db_path));
  write_file_atomic(out.path, to_json(p).dump(1) + "\n");
  print_ranges(p);
  fmt::print("policy written to {}\n", out.path);
}

void emit_policy_alone(const PolicyOutput& out, const TuningDb& db, const TuneOptions& tune) {
  try {
    emit_policy(out, db, tune, policy_device(db, out.db_path), current_build());
  } catch (const ProgramExit&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw ProgramExit(kExitRefused, e.what());
  } catch (const std::runtime_error& e) {
    throw ProgramExit(kExitFailed, e.what());
  }
}

}  // namespace apsp::harness
