#include "core/tuning_db.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/json_read.hpp"

namespace apsp {

using nlohmann::json;

namespace {

constexpr const char* kTuningSchemaV1 = "apsp-tuning/1";

bool same_key(const TuningEntry& a, const TuningEntry& b) {
  return a.device == b.device && a.name == b.name && a.n == b.n && a.graph == b.graph &&
         a.build.kernels == b.build.kernels;
}

// One entry, validated: the tuner ranks entries by median, so a negative, zero or non-finite
// median of an "ok" entry would be picked first.
TuningEntry entry_from_json(const json& x, bool v1, const std::string& where) {
  namespace jr = json_read;
  const auto field = [&](const char* key) -> const json& { return jr::member(x, key, where); };
  const auto text = [](const json& j, const char* key, const std::string& w) {
    return jr::string(jr::member(j, key, w), jr::at(w, key));
  };
  TuningEntry e;
  const json& d = jr::object(field("device"), jr::at(where, "device"));
  const std::string dw = jr::at(where, "device");
  e.device = {text(d, "name", dw), text(d, "cc", dw),
              static_cast<int>(jr::integer(jr::member(d, "sms", dw), jr::at(dw, "sms"), 1, 1 << 20))};
  e.variant = text(x, "variant", where);
  e.n = jr::size(field("n"), jr::at(where, "n"));
  for (const auto& [k, v] : jr::object(field("config"), jr::at(where, "config")).items())
    e.config[k] = static_cast<int>(jr::integer(v, jr::at(where, "config/" + k), INT32_MIN, INT32_MAX));
  e.name = text(x, "name", where);
  e.status = text(x, "status", where);
  if (e.status != "ok" && e.status != "failed" && e.status != "rejected")
    jr::fail(jr::at(where, "status"), fmt::format("\"{}\" is not ok, failed or rejected", e.status));
  e.reason = x.value("reason", "");
  if (x.contains("samples_ms")) e.samples_ms = jr::non_negative_list(x["samples_ms"], jr::at(where, "samples_ms"));
  if (x.contains("median_ms")) e.median_ms = jr::non_negative(x["median_ms"], jr::at(where, "median_ms"));
  if (e.status == "ok" && !(e.median_ms > 0))
    jr::fail(jr::at(where, "median_ms"), "an ok entry's median must be positive");
  e.date = x.value("date", "");
  if (v1) {  // /1 recorded neither: such entries match no graph and no build
    e.graph = {"unknown", 0, 0};
    e.build = {x.value("git", ""), "unknown (apsp-tuning/1)"};
    return e;
  }
  const std::string gw = jr::at(where, "graph");
  const json& g = jr::object(field("graph"), gw);
  e.graph = {text(g, "kind", gw),
             jr::non_negative(jr::member(g, "density", gw), jr::at(gw, "density")),
             static_cast<int>(jr::integer(jr::member(g, "wmax", gw), jr::at(gw, "wmax"), 0, INT32_MAX))};
  e.seed = static_cast<uint64_t>(jr::integer(field("seed"), jr::at(where, "seed"), 0, INT64_MAX));
  const std::string bw = jr::at(where, "build");
  const json& b = jr::object(field("build"), bw);
  e.build = {text(b, "commit", bw), text(b, "kernels", bw)};
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
    const json& entries = json_read::array(json_read::member(j, "entries", ""), "/entries");
    for (size_t i = 0; i < entries.size(); ++i)
      db.entries_.push_back(entry_from_json(entries[i], v1, json_read::at("/entries", i)));
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
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
