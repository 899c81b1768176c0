// The tuning database (schema "apsp-tuning/2"): one JSON file of measured points. An entry is
// keyed by device model (name, cc, SM count), variant, n, config, the graph spec it was
// measured on (kind, density, wmax; a graph file's path) and the build (the hash of the kernel sources, launchers
// and flags; the commit is recorded beside it). The tuner writes it atomically after every
// point, so an interrupted search loses nothing. Entries of another build or graph are kept
// but never picked unless asked for (TuningMatch). A "/1" file is migrated on load: its entries
// name no graph or build, so they are kept and never picked.
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/device_info.hpp"

namespace apsp {

inline constexpr const char* kTuningSchema = "apsp-tuning/2";

struct DeviceModel {
  std::string name, cc;
  int sms = 0;
  static DeviceModel of(const DeviceInfo& d) { return {d.name, d.cc(), d.sms}; }
  friend bool operator==(const DeviceModel&, const DeviceModel&) = default;
};

struct GraphKey {
  std::string kind;  // generator kind ("random"), "file", or "unknown" (migrated from /1)
  double density = 0;
  int wmax = 0;
  std::string file{};  // kind "file": the path as given (--graph), as results files name it
  friend bool operator==(const GraphKey&, const GraphKey&) = default;
};

// {"kind", "density", "wmax"}, and "file" for a file: as the database and policies record it.
nlohmann::json graph_key_json(const GraphKey& graph);
// "random 0.1 1000", or "file PATH": a table's cell (apsp_report's leaderboards).
std::string graph_key_text(const GraphKey& graph);

struct BuildId {
  std::string commit;   // git describe
  std::string kernels;  // hash of kernels/, variants/ and the CUDA flags: decides "same build"
};

struct TuningEntry {
  DeviceModel device;
  std::string variant;
  int n = 0;
  std::map<std::string, int> config;
  std::string name;  // variant[param=value,...]
  GraphKey graph;
  uint64_t seed = 0;
  BuildId build;
  std::string status;  // "ok", "failed" (wrong result), "rejected" (cannot run: reason)
  std::string reason;
  std::vector<double> samples_ms;
  double median_ms = 0;
  std::string date;
};

// {"name", "cc", "sms"} at `where` (a JSON pointer), validated as core/json_read does; the
// policy tables name their device the same way.
DeviceModel device_model_from_json(const nlohmann::json& j, const std::string& where);

// Which entries a reader may use: its device model, and unless relaxed, its graph and build.
struct TuningMatch {
  DeviceModel device;
  GraphKey graph;
  std::string kernels;     // BuildId::kernels of this build
  bool any_graph = false;  // the user asked for entries of other graph specs
  bool any_build = false;  // ... and of other builds
  bool accepts(const TuningEntry& e) const;
};

class TuningDb {
 public:
  // An absent file is an empty database (the tuner's first search makes it); anything else
  // load_existing reads.
  static TuningDb load(const std::string& path, std::string* note = nullptr);
  // A file that must be there: one that cannot be read (absent, not permitted, a folder) or is
  // malformed throws std::runtime_error, one line that starts with the path. A file of schema
  // "apsp-tuning/1" is migrated; `note` (if given) then says so in one line.
  static TuningDb load_existing(const std::string& path, std::string* note = nullptr);
  // The same from a file's text; `source` names it in messages (load and the fuzz target use it).
  static TuningDb parse(std::string_view text, const std::string& source,
                        std::string* note = nullptr);
  std::string text() const;                  // the file's JSON, as save writes it
  void save(const std::string& path) const;  // atomic: temporary file, then rename

  // The entry of the same key (device, name, n, graph, build) as `match` describes, or null.
  const TuningEntry* find(const TuningMatch& match, const std::string& name, int n) const;
  void upsert(TuningEntry e);  // replaces the entry of the same key
  const std::vector<TuningEntry>& entries() const { return entries_; }

 private:
  std::vector<TuningEntry> entries_;
};

}  // namespace apsp
