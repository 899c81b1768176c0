#include "core/results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include "core/console.hpp"
#include "core/edge_list.hpp"
#include "core/json_read.hpp"

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

json batch_json(const BatchDesc& b) {
  return json{{"graphs", b.graphs},         {"sizes", b.sizes},
              {"vertices", b.vertices},     {"edges", b.edges},
              {"updates", b.updates},       {"bytes", b.bytes},
              {"dist_type", b.dist_type},   {"graphs_per_s", b.graphs_per_s},
              {"pct_of_hbm", b.pct_of_hbm}, {"bound", b.bound}};
}

json run_json(const RunResult& r) {
  json j{
      {"variant", r.variant},
      {"config", r.config},
      {"name", r.name},
      {"n", r.n},
      {"graph",
       {{"kind", r.graph.kind},
        {"seed", r.graph.seed},
        {"density", r.graph.density},
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
      {"error", r.error ? json(*r.error) : json(nullptr)},
      {"precision", r.precision}};
  if (!r.graph.file.empty()) j["graph"]["file"] = r.graph.file;
  if (r.graph_median_ms) j["cuda_graph_median_ms"] = *r.graph_median_ms;
  if (r.label) j["label"] = *r.label;
  if (r.config_source) j["config_source"] = *r.config_source;
  if (r.solve_device_bytes && r.peak_device_bytes)
    j["device_memory"] = {{"solve_bytes", *r.solve_device_bytes},
                          {"peak_bytes", *r.peak_device_bytes}};
  j["gpus"] = r.gpus;
  if (r.parallel_efficiency) j["parallel_efficiency"] = *r.parallel_efficiency;
  if (r.phases_ms) {
    const auto& p = *r.phases_ms;
    j["phases_ms"] = {{"other", p[0]}, {"1", p[1]}, {"2", p[2]}, {"3", p[3]}};
  }
  if (r.batch) j["batch"] = batch_json(*r.batch);
  return j;
}

}  // namespace

json to_json(const Context& c) {
  json j{{"device", c.device},
         {"build", c.build},
         {"host", c.host},
         {"date", c.date},
         {"argv", c.argv},
         {"ceiling_updates_per_s", c.ceiling_updates_per_s},
         {"ceiling_u16_updates_per_s", c.ceiling_u16_updates_per_s}};
  // Only where it was measured (a plan with an int64 variant): files without it read as before.
  if (c.ceiling_i64_updates_per_s > 0) j["ceiling_i64_updates_per_s"] = c.ceiling_i64_updates_per_s;
  // Only where batches ran.
  if (c.hbm_bytes_per_s > 0) j["hbm_bytes_per_s"] = c.hbm_bytes_per_s;
  if (!c.gpus.empty()) {
    j["gpus"] = c.gpus;
    j["transport"] = c.transport;
  }
  return j;
}

json to_json(const Results& r) {
  json runs = json::array();
  for (const RunResult& run : r.runs) runs.push_back(run_json(run));
  return json{{"schema", kResultsSchema},
              {"complete", r.complete},
              {"context", to_json(r.context)},
              {"runs", runs}};
}

namespace {

namespace jr = json_read;

// `v` at most `most`; else one line naming the field and the limit (results.hpp).
void check_at_most(double v, double most, const std::string& where, const char* what) {
  if (v > most)
    jr::fail(where, fmt::format("{:.6g} is more than {:.6g}, the most {} may be", v, most, what));
}

// A rate (updates/s): finite, >= 0 and at most kMaxRate.
double rate(const json& j, const std::string& where) {
  const double v = jr::non_negative(j, where);
  check_at_most(v, kMaxRate, where, "a rate in updates/s");
  return v;
}

Context context_from_json(const json& c) {
  Context context;
  context.device = jr::object(jr::member(c, "device", "/context"), "/context/device");
  // Absent in old files ({}); null where the writer had none.
  context.build = !c.contains("build")   ? json::object()
                  : c["build"].is_null() ? json()
                                         : jr::object(c["build"], "/context/build");
  context.host = jr::optional_string(c, "host", "/context");
  context.date = jr::optional_string(c, "date", "/context");
  if (c.contains("argv")) context.argv = jr::string_list(c["argv"], "/context/argv");
  if (c.contains("ceiling_updates_per_s"))
    context.ceiling_updates_per_s =
        rate(c["ceiling_updates_per_s"], "/context/ceiling_updates_per_s");
  if (c.contains("gpus")) {
    const json& gpus = jr::array(c["gpus"], "/context/gpus");
    for (size_t i = 0; i < gpus.size(); ++i)
      context.gpus.push_back(jr::object(gpus[i], jr::at("/context/gpus", i)));
    context.transport = jr::optional_string(c, "transport", "/context");
  }
  if (c.contains("ceiling_u16_updates_per_s"))  // absent in files from before the 16-bit path
    context.ceiling_u16_updates_per_s =
        rate(c["ceiling_u16_updates_per_s"], "/context/ceiling_u16_updates_per_s");
  if (c.contains("ceiling_i64_updates_per_s"))  // absent where no int64 variant ran
    context.ceiling_i64_updates_per_s =
        rate(c["ceiling_i64_updates_per_s"], "/context/ceiling_i64_updates_per_s");
  if (c.contains("hbm_bytes_per_s"))  // absent where no batch ran
    context.hbm_bytes_per_s = rate(c["hbm_bytes_per_s"], "/context/hbm_bytes_per_s");
  return context;
}

GraphDesc graph_from_json(const json& x, const std::string& where) {
  GraphDesc graph;
  if (!x.contains("graph")) {
    graph.kind = "";
    return graph;
  }
  const std::string gw = jr::at(where, "graph");
  const json& g = jr::object(x["graph"], gw);
  graph.kind = jr::optional_string(g, "kind", gw);
  if (g.contains("seed"))
    graph.seed = static_cast<uint64_t>(jr::integer(g["seed"], jr::at(gw, "seed"), 0, INT64_MAX));
  if (g.contains("density")) {
    graph.density = jr::non_negative(g["density"], jr::at(gw, "density"));
    check_at_most(graph.density, 1.0, jr::at(gw, "density"), "an edge probability");
  }
  if (g.contains("wmax"))
    graph.wmax = static_cast<int>(jr::integer(g["wmax"], jr::at(gw, "wmax"), 0, INT32_MAX));
  graph.file = jr::optional_string(g, "file", gw);
  return graph;
}

// The run's times and rates; the optional ones are zero when absent.
void times_from_json(const json& x, const std::string& where, RunResult& run) {
  const auto optional_time = [&](const char* key) {
    return x.contains(key) ? jr::time_ms(x[key], jr::at(where, key)) : 0.0;
  };
  run.samples_ms = jr::time_list(jr::member(x, "samples_ms", where), jr::at(where, "samples_ms"));
  run.median_ms = jr::time_ms(jr::member(x, "median_ms", where), jr::at(where, "median_ms"));
  run.min_ms = optional_time("min_ms");
  run.stddev_ms = optional_time("stddev_ms");
  run.cv = x.contains("cv") ? jr::non_negative(x["cv"], jr::at(where, "cv")) : 0.0;
  run.updates_per_s =
      x.contains("updates_per_s") ? rate(x["updates_per_s"], jr::at(where, "updates_per_s")) : 0.0;
  run.pct_of_ceiling = x.contains("pct_of_ceiling")
                           ? jr::non_negative(x["pct_of_ceiling"], jr::at(where, "pct_of_ceiling"))
                           : 0.0;
  if (x.contains("speedup_vs_naive") && !x["speedup_vs_naive"].is_null())
    run.speedup_vs_naive =
        jr::non_negative(x["speedup_vs_naive"], jr::at(where, "speedup_vs_naive"));
  if (x.contains("speedup_ci95") && x["speedup_ci95"].is_array() && x["speedup_ci95"].size() == 2)
    run.speedup_ci95 =
        std::pair{jr::non_negative(x["speedup_ci95"][0], jr::at(where, "speedup_ci95/0")),
                  jr::non_negative(x["speedup_ci95"][1], jr::at(where, "speedup_ci95/1"))};
  if (x.contains("cuda_graph_median_ms"))
    run.graph_median_ms =
        jr::time_ms(x["cuda_graph_median_ms"], jr::at(where, "cuda_graph_median_ms"));
  if (x.contains("phases_ms") && x["phases_ms"].is_object()) {
    const json& p = x["phases_ms"];
    const auto phase = [&](const char* key) {
      return p.contains(key) ? jr::time_ms(p[key], jr::at(where, std::string("phases_ms/") + key))
                             : 0.0;
    };
    run.phases_ms = std::array<double, 4>{phase("other"), phase("1"), phase("2"), phase("3")};
  }
}

void device_memory_from_json(const json& x, const std::string& where, RunResult& run) {
  if (!x.contains("device_memory")) return;
  const json& m = x["device_memory"];
  const std::string mw = jr::at(where, "device_memory");
  if (!m.is_object()) jr::fail(mw, "not an object");
  const auto bytes = [&](const char* key) {
    if (!m.contains(key)) jr::fail(mw, std::string("no ") + key);
    return static_cast<uint64_t>(jr::integer(m[key], jr::at(mw, key), 0, INT64_MAX));
  };
  run.solve_device_bytes = bytes("solve_bytes");
  run.peak_device_bytes = bytes("peak_bytes");
  if (*run.solve_device_bytes > *run.peak_device_bytes)
    jr::fail(mw, "solve_bytes is larger than peak_bytes");
}

// The labels, the GPU count, the error and the precision.
void extras_from_json(const json& x, const std::string& where, RunResult& run) {
  if (x.contains("label") && x["label"].is_string()) run.label = x["label"].get<std::string>();
  if (x.contains("config_source") && x["config_source"].is_string())
    run.config_source = x["config_source"].get<std::string>();
  if (x.contains("gpus"))
    run.gpus = static_cast<int>(jr::integer(x["gpus"], jr::at(where, "gpus"), 1, kMaxGpus));
  if (x.contains("parallel_efficiency")) {
    if (run.gpus == 1)
      jr::fail(jr::at(where, "parallel_efficiency"), "a one-GPU run has no parallel efficiency");
    run.parallel_efficiency =
        jr::non_negative(x["parallel_efficiency"], jr::at(where, "parallel_efficiency"));
  }
  if (x.contains("error") && x["error"].is_string()) run.error = x["error"].get<std::string>();
  if (x.contains("precision")) {
    run.precision = jr::string(x["precision"], jr::at(where, "precision"));
    if (run.precision != kPrecisionInt32 && run.precision != kPrecisionU16x2 &&
        run.precision != kPrecisionInt64)
      jr::fail(jr::at(where, "precision"),
               fmt::format("\"{}\" is not one of \"{}\", \"{}\", \"{}\"", escaped(run.precision),
                           kPrecisionInt32, kPrecisionU16x2, kPrecisionInt64));
  }
}

// The context field holding the ceiling of a precision.
const char* ceiling_field(const std::string& precision) {
  if (precision == kPrecisionU16x2) return "ceiling_u16_updates_per_s";
  return precision == kPrecisionInt64 ? "ceiling_i64_updates_per_s" : "ceiling_updates_per_s";
}

// What a timed run's figures must satisfy against each other and the context.
void check_run(const RunResult& run, const Context& context, const std::string& where) {
  const bool timed = !run.error && run.verified != "FAILED" && !run.samples_ms.empty();
  if (timed && run.median_ms <= 0)
    jr::fail(jr::at(where, "median_ms"), "a timed run's median must be positive");
  if (timed) jr::check_median(run.median_ms, run.samples_ms, jr::at(where, "median_ms"));
  // The ceiling is the device's measured top rate: a run above it beyond noise means the
  // ceiling or the time in this file is wrong, and every share and plot of it would mislead.
  if (timed && run.pct_of_ceiling > kMaxPctOfCeiling)
    jr::fail(jr::at(where, "pct_of_ceiling"),
             fmt::format("{:.1f}% of the measured ceiling ({:.3g} updates/s in /context/{}) "
                         "is impossible beyond noise ({:.0f}%): the ceiling or the time is wrong",
                         run.pct_of_ceiling, context.ceiling_for(run.precision),
                         ceiling_field(run.precision), kMaxPctOfCeiling));
}

// The rates and ratios within their limits (results.hpp), the interval in order.
void check_ratios(const RunResult& run, const std::string& where) {
  check_at_most(run.cv, kMaxCv, jr::at(where, "cv"), "a coefficient of variation");
  const char* speedup = "a speedup";
  if (run.speedup_vs_naive)
    check_at_most(*run.speedup_vs_naive, kMaxSpeedup, jr::at(where, "speedup_vs_naive"), speedup);
  if (const auto& ci = run.speedup_ci95) {
    check_at_most(ci->first, kMaxSpeedup, jr::at(where, "speedup_ci95/0"), speedup);
    check_at_most(ci->second, kMaxSpeedup, jr::at(where, "speedup_ci95/1"), speedup);
    if (ci->first > ci->second)
      jr::fail(jr::at(where, "speedup_ci95"),
               fmt::format("[{:.6g}, {:.6g}] is not an interval", ci->first, ci->second));
  }
  if (const auto& e = run.parallel_efficiency; e && !(*e > 0 && *e <= kMaxParallelEfficiency))
    jr::fail(jr::at(where, "parallel_efficiency"),
             fmt::format("{:.6g} is not in (0, {}]: t(1) / (gpus x t(gpus)) is neither zero nor "
                         "far beyond linear",
                         *e, kMaxParallelEfficiency));
}

void check_verified(const RunResult& run, const std::string& where) {
  if (std::find_if(kVerifiedValues.begin(), kVerifiedValues.end(),
                   [&](const char* v) { return run.verified == v; }) != kVerifiedValues.end())
    return;
  jr::fail(jr::at(where, "verified"),
           fmt::format("\"{}\" is not one of \"{}\"", escaped(run.verified),
                       fmt::join(kVerifiedValues, "\", \"")));
}

// `text` one of `allowed`; else one line naming the field.
template <size_t N>
std::string one_of(const json& j, const std::string& where,
                   const std::array<const char*, N>& allowed) {
  const std::string text = jr::string(j, where);
  if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return text == a; }) ==
      allowed.end())
    jr::fail(where, fmt::format("\"{}\" is not one of \"{}\"", escaped(text),
                                fmt::join(allowed, "\", \"")));
  return text;
}

// A batch run's own fields (BatchDesc), each within what a batch can have.
BatchDesc batch_from_json(const json& x, const std::string& where, const RunResult& run) {
  const std::string bw = jr::at(where, "batch");
  const json& b = jr::object(x["batch"], bw);
  const auto field = [&](const char* key) -> const json& { return jr::member(b, key, bw); };
  const auto count = [&](const char* key, int64_t lo, int64_t hi) {
    return jr::integer(field(key), jr::at(bw, key), lo, hi);
  };
  BatchDesc d;
  d.graphs = count("graphs", 1, kMaxBatchGraphs);
  d.sizes = one_of(field("sizes"), jr::at(bw, "sizes"), kBatchSizes);
  d.vertices = count("vertices", d.graphs, d.graphs * int64_t{run.n});
  d.edges = count("edges", 0, INT64_MAX);
  d.updates = jr::non_negative(field("updates"), jr::at(bw, "updates"));
  d.bytes = jr::non_negative(field("bytes"), jr::at(bw, "bytes"));
  d.dist_type = one_of(field("dist_type"), jr::at(bw, "dist_type"), kBatchDistTypes);
  d.graphs_per_s = rate(field("graphs_per_s"), jr::at(bw, "graphs_per_s"));
  d.pct_of_hbm = jr::non_negative(field("pct_of_hbm"), jr::at(bw, "pct_of_hbm"));
  d.bound = one_of(field("bound"), jr::at(bw, "bound"), kBatchBounds);
  return d;
}

// A batch run's share of the bandwidth: above 100% only as far as the L2 can take it.
void check_batch(const RunResult& run, const std::string& where) {
  const bool timed = !run.error && run.verified != "FAILED" && !run.samples_ms.empty();
  if (!run.batch || !timed || run.batch->pct_of_hbm <= kMaxPctOfHbm) return;
  jr::fail(jr::at(where, "batch/pct_of_hbm"),
           fmt::format("{:.1f}% of the measured bandwidth (/context/hbm_bytes_per_s) is "
                       "impossible even from the L2 ({:.0f}%): the bandwidth or the time is wrong",
                       run.batch->pct_of_hbm, kMaxPctOfHbm));
}

RunResult run_from_json(const json& x, const std::string& where, const Context& context) {
  RunResult run;
  run.variant = jr::string(jr::member(x, "variant", where), jr::at(where, "variant"));
  run.config = jr::config(jr::member(x, "config", where), jr::at(where, "config"));
  run.name = x.contains("name") ? jr::string(x["name"], jr::at(where, "name")) : run.variant;
  run.n = static_cast<int>(jr::integer(jr::member(x, "n", where), jr::at(where, "n"), 1, kMaxN));
  run.graph = graph_from_json(x, where);
  run.verified = jr::string(jr::member(x, "verified", where), jr::at(where, "verified"));
  check_verified(run, where);
  times_from_json(x, where, run);
  device_memory_from_json(x, where, run);
  extras_from_json(x, where, run);
  if (x.contains("batch")) run.batch = batch_from_json(x, where, run);
  check_run(run, context, where);
  check_batch(run, where);
  check_ratios(run, where);
  return run;
}

// Each run once: two runs of the same name, label, n, GPU count and graph would share a table
// cell, and a comparison would pair either.
void check_distinct(const std::vector<RunResult>& runs) {
  using Key = std::tuple<std::string, std::optional<std::string>, int, int, std::string, uint64_t,
                         double, int, std::string, int64_t, std::string>;
  std::map<Key, size_t> seen;
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunResult& r = runs[i];
    const GraphDesc& g = r.graph;
    const auto [first, fresh] =
        seen.emplace(Key{r.name, r.label, r.n, r.gpus, g.kind, g.seed, g.density, g.wmax, g.file,
                         r.batch ? r.batch->graphs : 0, r.batch ? r.batch->sizes : ""},
                     i);
    if (!fresh)
      jr::fail(jr::at("/runs", i),
               fmt::format("the same run as /runs/{} ({} at n = {} on {} GPU(s), the same "
                           "graph): each run appears once",
                           first->second, escaped(r.label.value_or(r.name)), r.n, r.gpus));
  }
}

}  // namespace

Results results_from_json(const json& j) {
  if (!j.is_object() || !j.contains("schema")) {
    throw std::runtime_error("not a results file: no \"schema\" field");
  }
  const std::string schema = j["schema"].is_string() ? j["schema"].get<std::string>() : "?";
  if (schema != kResultsSchema) {
    throw std::runtime_error(fmt::format("unknown schema \"{}\" (this build reads \"{}\")",
                                         escaped(schema), kResultsSchema));
  }
  Results r;
  if (j.contains("complete")) {
    if (!j["complete"].is_boolean()) jr::fail("/complete", "not true or false");
    r.complete = j["complete"].get<bool>();
  }
  r.context = context_from_json(jr::object(jr::member(j, "context", ""), "/context"));
  const json& runs = jr::array(jr::member(j, "runs", ""), "/runs");
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string where = jr::at("/runs", i);
    r.runs.push_back(run_from_json(jr::object(runs[i], where), where, r.context));
  }
  check_distinct(r.runs);
  return r;
}

Results load_results(const std::string& path) {
  const std::string text = read_whole_file(path, "a results file");
  json j;
  try {
    j = jr::parse(text);
  } catch (const std::runtime_error&) {
    throw std::runtime_error(fmt::format("{}: not a results file (not JSON)", path));
  }
  try {
    return results_from_json(j);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace apsp
