#include "core/tuning_db.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/console.hpp"
#include "core/edge_list.hpp"
#include "core/json_read.hpp"

namespace apsp {

using nlohmann::json;

DeviceModel device_model_from_json(const json& j, const std::string& where);

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
  e.device = device_model_from_json(field("device"), jr::at(where, "device"));
  e.variant = text(x, "variant", where);
  e.n = static_cast<int>(jr::integer(field("n"), jr::at(where, "n"), 1, kMaxN));
  e.config = jr::config(field("config"), jr::at(where, "config"));
  e.name = text(x, "name", where);
  e.status = text(x, "status", where);
  if (e.status != "ok" && e.status != "failed" && e.status != "rejected")
    jr::fail(jr::at(where, "status"),
             fmt::format("\"{}\" is not ok, failed or rejected", escaped(e.status)));
  e.reason = jr::optional_string(x, "reason", where);
  if (x.contains("samples_ms"))
    e.samples_ms = jr::time_list(x["samples_ms"], jr::at(where, "samples_ms"));
  if (x.contains("median_ms"))
    e.median_ms = jr::time_ms(x["median_ms"], jr::at(where, "median_ms"));
  if (e.status == "ok" && !(e.median_ms > 0))
    jr::fail(jr::at(where, "median_ms"), "an ok entry's median must be positive");
  if (e.status == "ok") jr::check_median(e.median_ms, e.samples_ms, jr::at(where, "median_ms"));
  e.date = jr::optional_string(x, "date", where);
  if (v1) {  // /1 recorded neither: such entries match no graph and no build
    e.graph = {"unknown", 0, 0};
    e.build = {jr::optional_string(x, "git", where), "unknown (apsp-tuning/1)"};
    return e;
  }
  const std::string gw = jr::at(where, "graph");
  const json& g = jr::object(field("graph"), gw);
  e.graph = {
      text(g, "kind", gw), jr::non_negative(jr::member(g, "density", gw), jr::at(gw, "density")),
      static_cast<int>(jr::integer(jr::member(g, "wmax", gw), jr::at(gw, "wmax"), 0, INT32_MAX)),
      jr::optional_string(g, "file", gw)};
  e.seed = static_cast<uint64_t>(jr::integer(field("seed"), jr::at(where, "seed"), 0, INT64_MAX));
  const std::string bw = jr::at(where, "build");
  const json& b = jr::object(field("build"), bw);
  e.build = {text(b, "commit", bw), text(b, "kernels", bw)};
  return e;
}

}  // namespace

json graph_key_json(const GraphKey& graph) {
  json j{{"kind", graph.kind}, {"density", graph.density}, {"wmax", graph.wmax}};
  if (!graph.file.empty()) j["file"] = graph.file;  // absent for generators, as before files
  return j;
}

std::string graph_key_text(const GraphKey& graph) {
  if (!graph.file.empty()) return fmt::format("{} {}", graph.kind, graph.file);
  return fmt::format("{} {} {}", graph.kind, graph.density, graph.wmax);
}

DeviceModel device_model_from_json(const json& j, const std::string& where) {
  namespace jr = json_read;
  const auto text = [&](const char* key) {
    return jr::string(jr::member(j, key, where), jr::at(where, key));
  };
  return {
      text("name"), text("cc"),
      static_cast<int>(jr::integer(jr::member(j, "sms", where), jr::at(where, "sms"), 1, 1 << 20))};
}

bool TuningMatch::accepts(const TuningEntry& e) const {
  return e.device == device && (any_graph || e.graph == graph) &&
         (any_build || e.build.kernels == kernels);
}

TuningDb TuningDb::load(const std::string& path, std::string* note) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 && errno == ENOENT) return TuningDb{};
  return load_existing(path, note);
}

TuningDb TuningDb::load_existing(const std::string& path, std::string* note) {
  return parse(read_whole_file(path, "a tuning database"), path, note);
}

TuningDb TuningDb::parse(std::string_view text, const std::string& source, std::string* note) {
  TuningDb db;
  json j;
  try {
    j = json_read::parse(text);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: {}", source, e.what()));
  }
  const auto schema_at = j.is_object() ? j.find("schema") : j.end();
  const std::string schema =
      schema_at != j.end() && schema_at->is_string() ? schema_at->get<std::string>() : "";
  if (schema != kTuningSchema && schema != kTuningSchemaV1) {
    throw std::runtime_error(
        fmt::format("{}: not a tuning database (schema \"{}\" expected)", source, kTuningSchema));
  }
  const bool v1 = schema == kTuningSchemaV1;
  try {
    const json& entries = json_read::array(json_read::member(j, "entries", ""), "/entries");
    for (size_t i = 0; i < entries.size(); ++i)
      db.entries_.push_back(entry_from_json(entries[i], v1, json_read::at("/entries", i)));
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", source, e.what()));
  }
  if (v1 && note) {
    *note = fmt::format(
        "{}: {} database migrated to {}: its {} entries name no graph spec and no "
        "build, so they are kept but never picked; rerun the tuner",
        source, kTuningSchemaV1, kTuningSchema, db.entries_.size());
  }
  return db;
}

std::string TuningDb::text() const {
  json entries = json::array();
  for (const TuningEntry& e : entries_) {
    entries.push_back(
        {{"device", {{"name", e.device.name}, {"cc", e.device.cc}, {"sms", e.device.sms}}},
         {"variant", e.variant},
         {"n", e.n},
         {"config", e.config},
         {"name", e.name},
         {"graph", graph_key_json(e.graph)},
         {"seed", e.seed},
         {"build", {{"commit", e.build.commit}, {"kernels", e.build.kernels}}},
         {"status", e.status},
         {"reason", e.reason},
         {"samples_ms", e.samples_ms},
         {"median_ms", e.median_ms},
         {"date", e.date}});
  }
  return json{{"schema", kTuningSchema}, {"entries", entries}}.dump(1) + "\n";
}

void TuningDb::save(const std::string& path) const { write_file_atomic(path, text()); }

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
