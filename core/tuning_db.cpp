#include "core/tuning_db.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/results.hpp"

namespace apsp {

using nlohmann::json;

TuningDb TuningDb::load(const std::string& path) {
  TuningDb db;
  std::ifstream in(path);
  if (!in) return db;
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON ({})", path, e.what()));
  }
  if (!j.is_object() || j.value("schema", "") != kTuningSchema) {
    throw std::runtime_error(fmt::format("{}: not a tuning database (schema \"{}\" expected)", path,
                                         kTuningSchema));
  }
  try {
    for (const json& x : j.at("entries")) {
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
      e.git = x.value("git", "");
      db.entries_.push_back(std::move(e));
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: malformed entry ({})", path, e.what()));
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
                       {"status", e.status},
                       {"reason", e.reason},
                       {"samples_ms", e.samples_ms},
                       {"median_ms", e.median_ms},
                       {"date", e.date},
                       {"git", e.git}});
  }
  write_file_atomic(path, json{{"schema", kTuningSchema}, {"entries", entries}}.dump(1) + "\n");
}

const TuningEntry* TuningDb::find(const DeviceModel& d, const std::string& name, int n) const {
  for (const TuningEntry& e : entries_)
    if (e.device == d && e.name == name && e.n == n) return &e;
  return nullptr;
}

void TuningDb::upsert(TuningEntry e) {
  for (TuningEntry& old : entries_) {
    if (old.device == e.device && old.name == e.name && old.n == e.n) {
      old = std::move(e);
      return;
    }
  }
  entries_.push_back(std::move(e));
}

const TuningEntry* TuningDb::best(const DeviceModel& d, const std::string& variant, int n,
                                  const Usable& usable) const {
  auto candidate = [&](const TuningEntry& e) {
    return e.device == d && e.status == "ok" && (variant.empty() || e.variant == variant) &&
           (!usable || usable(e));
  };
  // Nearest tuned n first (by |log ratio|), then the fastest config there.
  int nearest = -1;
  double distance = std::numeric_limits<double>::infinity();
  for (const TuningEntry& e : entries_) {
    if (!candidate(e)) continue;
    const double dist = std::abs(std::log(static_cast<double>(e.n) / n));
    if (dist < distance || (dist == distance && e.n > nearest)) {
      distance = dist;
      nearest = e.n;
    }
  }
  const TuningEntry* out = nullptr;
  for (const TuningEntry& e : entries_) {
    if (!candidate(e) || e.n != nearest) continue;
    if (!out || e.median_ms < out->median_ms) out = &e;
  }
  return out;
}

}  // namespace apsp
