#include "core/tuning_db.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/atomic_file.hpp"

namespace apsp {

using nlohmann::json;

namespace {

constexpr const char* kTuningSchemaV1 = "apsp-tuning/1";

bool same_key(const TuningEntry& a, const TuningEntry& b) {
  return a.device == b.device && a.name == b.name && a.n == b.n && a.graph == b.graph &&
         a.build.kernels == b.build.kernels;
}

TuningEntry entry_from_json(const json& x, bool v1) {
  TuningEntry e;
  e.device = {x.at("device").at("name"), x.at("device").at("cc"), x.at("device").at("sms")};
  e.variant = x.at("variant");
  e.n = x.at("n");
  e.config = x.at("config").get<std::map<std::string, int>>();
  e.name = x.at("name");
  e.status = x.at("status");
  e.reason = x.value("reason", "");
  e.samples_ms = x.value("samples_ms", std::vector<double>{});
  e.median_ms = x.value("median_ms", 0.0);
  e.date = x.value("date", "");
  if (v1) {  // /1 recorded neither: such entries match no graph and no build
    e.graph = {"unknown", 0, 0};
    e.build = {x.value("git", ""), "unknown (apsp-tuning/1)"};
    return e;
  }
  const json& g = x.at("graph");
  e.graph = {g.at("kind"), g.at("density"), g.at("wmax")};
  e.seed = x.at("seed");
  e.build = {x.at("build").at("commit"), x.at("build").at("kernels")};
  return e;
}

}  // namespace

bool TuningMatch::accepts(const TuningEntry& e) const {
  return e.device == device && (any_graph || e.graph == graph) && (any_build || e.build.kernels == kernels);
}

TuningDb TuningDb::load(const std::string& path, std::string* note) {
  TuningDb db;
  std::ifstream in(path);
  if (!in) return db;
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON ({})", path, e.what()));
  }
  const std::string schema = j.is_object() ? j.value("schema", "") : "";
  if (schema != kTuningSchema && schema != kTuningSchemaV1) {
    throw std::runtime_error(fmt::format("{}: not a tuning database (schema \"{}\" expected)", path,
                                         kTuningSchema));
  }
  const bool v1 = schema == kTuningSchemaV1;
  try {
    for (const json& x : j.at("entries")) db.entries_.push_back(entry_from_json(x, v1));
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: malformed entry ({})", path, e.what()));
  }
  if (v1 && note) {
    *note = fmt::format("{}: {} database migrated to {}: its {} entries name no graph spec and no "
                        "build, so they are kept but never picked; rerun the tuner",
                        path, kTuningSchemaV1, kTuningSchema, db.entries_.size());
  }
  return db;
}

void TuningDb::save(const std::string& path) const {
  json entries = json::array();
  for (const TuningEntry& e : entries_) {
    entries.push_back({{"device", {{"name", e.device.name}, {"cc", e.device.cc}, {"sms", e.device.sms}}},
                       {"variant", e.variant},
                       {"n", e.n},
                       {"config", e.config},
                       {"name", e.name},
                       {"graph", {{"kind", e.graph.kind}, {"density", e.graph.density}, {"wmax", e.graph.wmax}}},
                       {"seed", e.seed},
                       {"build", {{"commit", e.build.commit}, {"kernels", e.build.kernels}}},
                       {"status", e.status},
                       {"reason", e.reason},
                       {"samples_ms", e.samples_ms},
                       {"median_ms", e.median_ms},
                       {"date", e.date}});
  }
  write_file_atomic(path, json{{"schema", kTuningSchema}, {"entries", entries}}.dump(1) + "\n");
}

const TuningEntry* TuningDb::find(const TuningMatch& match, const std::string& name, int n) const {
  for (const TuningEntry& e : entries_)
    if (e.name == name && e.n == n && e.device == match.device && e.graph == match.graph &&
        e.build.kernels == match.kernels)
      return &e;
  return nullptr;
}

void TuningDb::upsert(TuningEntry e) {
  for (TuningEntry& old : entries_) {
    if (same_key(old, e)) {
      old = std::move(e);
      return;
    }
  }
  entries_.push_back(std::move(e));
}

}  // namespace apsp
