#include "core/results.hpp"

#include <fmt/format.h>
#include <stdexcept>

namespace apsp {

using nlohmann::json;

json device_json(const DeviceInfo& d) {
  return json{{"name", d.name},
              {"cc", d.cc()},
              {"sms", d.sms},
              {"clock_mhz", d.clock_mhz},
              {"memory_clock_mhz", d.memory_clock_mhz},
              {"memory_bytes", d.memory_bytes},
              {"l2_bytes", d.l2_bytes},
              {"smem_per_block_optin", d.smem_per_block_optin},
              {"driver", d.driver},
              {"runtime", d.runtime}};
}

namespace {

json run_json(const RunResult& r) {
  json j{{"variant", r.variant},
         {"config", r.config},
         {"name", r.name},
         {"n", r.n},
         {"graph", {{"kind", r.graph.kind}, {"seed", r.graph.seed}, {"density", r.graph.density},
                    {"wmax", r.graph.wmax}}},
         {"verified", r.verified},
         {"samples_ms", r.samples_ms},
         {"median_ms", r.median_ms},
         {"min_ms", r.min_ms},
         {"stddev_ms", r.stddev_ms},
         {"cv", r.cv},
         {"updates_per_s", r.updates_per_s},
         {"pct_of_ceiling", r.pct_of_ceiling},
         {"speedup_vs_naive", r.speedup_vs_naive ? json(*r.speedup_vs_naive) : json(nullptr)},
         {"speedup_ci95", r.speedup_ci95 ? json::array({r.speedup_ci95->first, r.speedup_ci95->second})
                                         : json(nullptr)},
         {"error", r.error ? json(*r.error) : json(nullptr)}};
  if (!r.graph.file.empty()) j["graph"]["file"] = r.graph.file;
  if (r.graph_median_ms) j["cuda_graph_median_ms"] = *r.graph_median_ms;
  if (r.label) j["label"] = *r.label;
  if (r.config_source) j["config_source"] = *r.config_source;
  if (r.phases_ms) {
    const auto& p = *r.phases_ms;
    j["phases_ms"] = {{"other", p[0]}, {"1", p[1]}, {"2", p[2]}, {"3", p[3]}};
  }
  return j;
}

template <class T>
T get(const json& j, const char* key, const std::string& where) {
  if (!j.contains(key)) throw std::runtime_error(fmt::format("{}: missing \"{}\"", where, key));
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw std::runtime_error(fmt::format("{}: \"{}\" has the wrong type", where, key));
  }
}

}  // namespace

json to_json(const Context& c) {
  return json{{"device", c.device},         {"build", c.build}, {"host", c.host},
              {"date", c.date},             {"argv", c.argv},   {"ceiling_updates_per_s", c.ceiling_updates_per_s}};
}

json to_json(const Results& r) {
  json runs = json::array();
  for (const RunResult& run : r.runs) runs.push_back(run_json(run));
  return json{{"schema", kResultsSchema}, {"context", to_json(r.context)}, {"runs", runs}};
}

Results results_from_json(const json& j) {
  if (!j.is_object() || !j.contains("schema")) {
    throw std::runtime_error("not a results file: no \"schema\" field");
  }
  const std::string schema = j["schema"].is_string() ? j["schema"].get<std::string>() : "?";
  if (schema != kResultsSchema) {
    throw std::runtime_error(fmt::format("unknown schema \"{}\" (this build reads \"{}\")", schema,
                                         kResultsSchema));
  }
  Results r;
  const json& c = get<json>(j, "context", "results");
  r.context.device = get<json>(c, "device", "context");
  r.context.build = c.value("build", json::object());
  r.context.host = c.value("host", "");
  r.context.date = c.value("date", "");
  r.context.argv = c.value("argv", std::vector<std::string>{});
  r.context.ceiling_updates_per_s = c.value("ceiling_updates_per_s", 0.0);
  int index = 0;
  for (const json& x : get<json>(j, "runs", "results")) {
    const std::string where = fmt::format("runs[{}]", index++);
    RunResult run;
    run.variant = get<std::string>(x, "variant", where);
    run.config = get<std::map<std::string, int>>(x, "config", where);
    run.name = x.value("name", run.variant);
    run.n = get<int>(x, "n", where);
    const json g = x.value("graph", json::object());
    run.graph.kind = g.value("kind", "");
    run.graph.seed = g.value("seed", uint64_t{0});
    run.graph.density = g.value("density", 0.0);
    run.graph.wmax = g.value("wmax", 0);
    run.graph.file = g.value("file", "");
    run.verified = get<std::string>(x, "verified", where);
    run.samples_ms = get<std::vector<double>>(x, "samples_ms", where);
    run.median_ms = get<double>(x, "median_ms", where);
    run.min_ms = x.value("min_ms", 0.0);
    run.stddev_ms = x.value("stddev_ms", 0.0);
    run.cv = x.value("cv", 0.0);
    run.updates_per_s = x.value("updates_per_s", 0.0);
    run.pct_of_ceiling = x.value("pct_of_ceiling", 0.0);
    if (x.contains("speedup_vs_naive") && x["speedup_vs_naive"].is_number())
      run.speedup_vs_naive = x["speedup_vs_naive"].get<double>();
    if (x.contains("speedup_ci95") && x["speedup_ci95"].is_array() && x["speedup_ci95"].size() == 2)
      run.speedup_ci95 = std::pair{x["speedup_ci95"][0].get<double>(), x["speedup_ci95"][1].get<double>()};
    if (x.contains("label") && x["label"].is_string()) run.label = x["label"].get<std::string>();
    if (x.contains("config_source") && x["config_source"].is_string())
      run.config_source = x["config_source"].get<std::string>();
    if (x.contains("cuda_graph_median_ms")) run.graph_median_ms = x["cuda_graph_median_ms"].get<double>();
    if (x.contains("phases_ms") && x["phases_ms"].is_object()) {
      const json& p = x["phases_ms"];
      run.phases_ms = std::array<double, 4>{p.value("other", 0.0), p.value("1", 0.0), p.value("2", 0.0),
                                            p.value("3", 0.0)};
    }
    if (x.contains("error") && x["error"].is_string()) run.error = x["error"].get<std::string>();
    r.runs.push_back(std::move(run));
  }
  return r;
}

}  // namespace apsp
