// The tuning database (schema "apsp-tuning/1"): one JSON file of measured points, keyed by
// device model (name, cc, SM count), variant, n and config. The tuner writes it atomically
// after every point, so an interrupted search loses nothing; apsp_bench --tuned and
// apsp --variant auto read the best config for the nearest tuned n on the same device model.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/device_info.hpp"

namespace apsp {

inline constexpr const char* kTuningSchema = "apsp-tuning/1";

struct DeviceModel {
  std::string name, cc;
  int sms = 0;
  static DeviceModel of(const DeviceInfo& d) { return {d.name, d.cc(), d.sms}; }
  friend bool operator==(const DeviceModel&, const DeviceModel&) = default;
};

struct TuningEntry {
  DeviceModel device;
  std::string variant;
  int n = 0;
  std::map<std::string, int> config;
  std::string name;    // variant[param=value,...]
  std::string status;  // "ok", "failed" (wrong result), "rejected" (cannot run: reason)
  std::string reason;
  std::vector<double> samples_ms;
  double median_ms = 0;
  std::string date, git;
};

class TuningDb {
 public:
  // An absent file is an empty database; a malformed one throws std::runtime_error (one line).
  static TuningDb load(const std::string& path);
  void save(const std::string& path) const;  // atomic: temporary file, then rename

  const TuningEntry* find(const DeviceModel& d, const std::string& name, int n) const;
  void upsert(TuningEntry e);  // replaces the entry of the same key
  const std::vector<TuningEntry>& entries() const { return entries_; }

  // The fastest "ok" entry of `variant` (any variant if empty) on this device model at the
  // tuned n nearest to `n` (by ratio); nullptr if none. Entries `usable` rejects (configs this
  // build does not compile: see config_problem in variants/) are left out altogether.
  using Usable = std::function<bool(const TuningEntry&)>;
  const TuningEntry* best(const DeviceModel& d, const std::string& variant, int n,
                          const Usable& usable = {}) const;

 private:
  std::vector<TuningEntry> entries_;
};

}  // namespace apsp
