#include "harness/cli/batch_tune.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/integer.hpp"
#include "core/stats.hpp"
#include "core/tuning_db.hpp"
#include "harness/cli/batch_runs.hpp"
#include "harness/cli/program.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/plan/plan.hpp"

namespace apsp::harness {

void add_batch_tune_options(CLI::App& app, BatchTuneOptions& o) {
  app.add_option("--graphs", o.graphs,
                 "search the batched variants instead, on batches of this many small graphs, a "
                 "search per --bands band");
  app.add_option("--bands", o.bands,
                 "--graphs: each size band's largest n, comma separated (at most 512); a band is "
                 "tuned on graphs of that n");
  add_batch_shape_options(app, o.sizes, o.wmax,
                          "(the bands) or 'molecules' (one band, gen_graph --kind molecules' "
                          "sizes, 3..51)");
}

namespace {

// What the search reads of the tuner's other options.
struct BatchSearch {
  std::vector<BatchShape> bands;
  std::vector<const BatchVariant*> variants;
  std::string db_path, json_out;
  SampleOptions sampling;
  bool fresh = false, dry_run = false;
  int top = 5;
};

// Options of the single-graph search that a batch search would silently ignore.
void refuse_single_graph_options(const CLI::App& app) {
  refuse_given_options(app,
                       {"--n", "--search", "--strategy", "--budget", "--density", "--wmax",
                        "--graph", "--kernel", "--param", "--emit-policy"},
                       "");
}

// --variant (comma separated; "": every batched variant with parameters).
std::vector<const BatchVariant*> tunable_batch_variants(const std::string& names) {
  std::vector<const BatchVariant*> out;
  for (const BatchCase& c : select_batch_cases(names.empty() ? "all" : names, {}))
    if (!c.variant->space.empty()) out.push_back(c.variant);
  if (out.empty())
    throw std::invalid_argument(fmt::format("--variant {}: no batched variant with parameters",
                                            names.empty() ? "all" : names));
  return out;
}

std::vector<BatchShape> band_shapes(const BatchTuneOptions& o, uint64_t seed) {
  int64_t graphs = 0;
  try {
    graphs = parse_integer<int64_t>(o.graphs, 1, kMaxBatchGraphs);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--graphs: ") + e.what());
  }
  std::vector<BatchShape> out;
  if (o.sizes == "molecules") {
    out.push_back({graphs, "molecules", 0, seed, o.wmax});
    return out;
  }
  for (const int n : parse_sizes(o.bands, "--bands")) {
    if (n > kMaxBatchGraphVertices)
      throw std::invalid_argument(fmt::format("--bands {}: a batch's graphs have 1 to {} vertices",
                                              n, kMaxBatchGraphVertices));
    out.push_back({graphs, "fixed", n, seed, o.wmax});
  }
  return out;
}

BatchSearch batch_search(const BatchTuneOptions& o, const CLI::App& app) {
  refuse_single_graph_options(app);
  const auto text = [&](const char* name) { return app.get_option(name)->as<std::string>(); };
  BatchSearch s;
  s.bands = band_shapes(o, app.get_option("--seed")->as<uint64_t>());
  s.variants = tunable_batch_variants(text("--variant"));
  s.db_path = text("--db");
  s.json_out = text("--json");
  s.sampling.max_reps = app.get_option("--reps")->as<int>();
  s.sampling.min_time_s = app.get_option("--min-time")->as<double>();
  s.sampling.min_reps = std::min(3, s.sampling.max_reps);
  s.fresh = app.get_option("--fresh")->count() > 0;
  s.dry_run = app.get_option("--dry-run")->count() > 0;
  s.top = app.get_option("--top")->as<int>();
  if (!s.dry_run) check_output_path(s.db_path, "--db");
  if (!s.json_out.empty()) check_output_path(s.json_out, "--json");
  return s;
}

// The band's graph spec in the database: the batch's sizes and count, its weights.
GraphKey band_key(const BatchShape& s) {
  return {fmt::format("batch-{}-{}", s.sizes, s.graphs), 0, s.wmax, ""};
}

std::string band_text(const BatchShape& s) {
  return s.sizes == "molecules" ? fmt::format("{} molecules (n <= {})", s.graphs, kMoleculeMaxN)
                                : fmt::format("{} graphs of n = {}", s.graphs, s.n);
}

void print_dry_run(const BatchSearch& s) {
  fmt::print("tuner --graphs: {} band(s), every point verified on every graph, then timed\n",
             s.bands.size());
  for (const BatchShape& b : s.bands) fmt::print("  band: {}\n", band_text(b));
  for (const BatchVariant* v : s.variants)
    fmt::print("  {}: {} compiled configs, its default {} measured in every band\n", v->name,
               all_batch_configs(*v).size(), config_name(v->name, v->defaults));
  fmt::print("  database: {}\n", s.db_path);
}

// One band's search context: the device, the batch and where its entries go.
struct Band {
  const BatchShape& shape;
  TuningMatch match;
  BuildId build;
  BatchBench& bench;
};

// The config's entry in the band: the database's unless --fresh, else measured now and saved.
const TuningEntry& point(const Band& band, const BatchVariant& v, const Config& c,
                         const BatchSearch& s, TuningDb& db, bool& wrong) {
  const std::string name = config_name(v.name, c);
  const int n = shape_max_n(band.shape);
  if (const TuningEntry* e = db.find(band.match, name, n); e && !s.fresh) return *e;
  TuningEntry e{band.match.device, v.name, n,  c,  name, band.match.graph, band.shape.seed,
                band.build,        "ok",   "", {}, 0,    now_iso()};
  const BatchMeasurement m = band.bench.measure({&v, c, name, "searched"}, s.sampling);
  if (m.verified == "FAILED") {
    e.status = "failed";
    e.reason = m.error;
    wrong = true;
  } else if (m.verified != "cpu-reference") {
    e.status = "rejected";
    e.reason = m.error;
  } else {
    e.samples_ms = m.samples_ms;
    e.median_ms = median(m.samples_ms);
  }
  fmt::print("  {}: {}\n", name,
             e.status == "ok" ? fmt::format("{:.3f} ms", e.median_ms) : e.status + ": " + e.reason);
  db.upsert(e);
  db.save(s.db_path);
  return *db.find(band.match, name, n);
}

// An entry's fastest sample, its median where it has none: the database's contract lets an "ok"
// entry leave samples_ms out (or empty), and a resumed search reads such entries back.
double fastest_sample(const TuningEntry& e) {
  return e.samples_ms.empty() ? e.median_ms
                              : *std::min_element(e.samples_ms.begin(), e.samples_ms.end());
}

// The band's leaderboard and its pick against the default; the JSON of both.
nlohmann::json band_result(const Band& band, const BatchVariant& v,
                           std::vector<TuningEntry> entries, const TuningEntry& base, int top) {
  std::erase_if(entries, [](const TuningEntry& e) { return e.status != "ok"; });
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.median_ms < b.median_ms; });
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < entries.size() && static_cast<int>(i) < top; ++i) {
    const TuningEntry& e = entries[i];
    fmt::print("    {:>2}. {:<40} {:9.3f} ms  {:.3f}x the default\n", i + 1, e.name, e.median_ms,
               base.median_ms / e.median_ms);
    rows.push_back({{"name", e.name}, {"median_ms", e.median_ms}});
  }
  // Faster in median and in fastest sample: a disturbed default raises its median only.
  const TuningEntry* pick = &base;
  for (const TuningEntry& e : entries)
    if (e.median_ms < pick->median_ms && fastest_sample(e) < fastest_sample(base)) pick = &e;
  fmt::print("  n <= {}: {} ({})\n", shape_max_n(band.shape), pick->name,
             pick == &base ? "the default stays: nothing measured beat it"
                           : fmt::format("{:.3f} ms against the default's {:.3f} ms",
                                         pick->median_ms, base.median_ms));
  return {{"variant", v.name},
          {"band_n", shape_max_n(band.shape)},
          {"batch", band.match.graph.kind},
          {"default", base.name},
          {"default_ms", base.median_ms},
          {"pick", pick->name},
          {"pick_ms", pick->median_ms},
          {"leaderboard", rows}};
}

// Every compiled config of v in the band, the default first; false when one gave a wrong result.
bool search_band(const Band& band, const BatchVariant& v, const BatchSearch& s, TuningDb& db,
                 nlohmann::json& out) {
  bool wrong = false;
  std::vector<TuningEntry> entries;
  for (const Config& c : all_batch_configs(v)) entries.push_back(point(band, v, c, s, db, wrong));
  const TuningEntry& base = entries.front();
  if (base.status != "ok") {
    fmt::print("  {}: its default was not measured ({}): no pick\n", v.name, base.reason);
    return !wrong;
  }
  out.push_back(band_result(band, v, entries, base, s.top));
  return !wrong;
}

int search_here(const BatchSearch& s) {
  if (!has_device())
    throw ProgramExit(kExitNoDevice, "no CUDA device found (--dry-run works without one)");
  TuningDb db = exit_if_thrown(kExitRefused, [&] { return TuningDb::load(s.db_path); });
  const DeviceInfo device = query_device();
  const BuildId build = current_build();
  nlohmann::json boards = nlohmann::json::array();
  bool all_right = true;
  for (const BatchShape& shape : s.bands) {
    fmt::print("band: {}\n", band_text(shape));
    const GraphBatch batch = make_batch(shape);
    BatchBench bench(batch);
    const Band band{shape, {DeviceModel::of(device), band_key(shape), build.kernels}, build, bench};
    for (const BatchVariant* v : s.variants) all_right &= search_band(band, *v, s, db, boards);
    if (!s.json_out.empty())
      write_file_atomic(
          s.json_out,
          nlohmann::json{{"schema", "apsp-batch-leaderboard/1"}, {"bands", boards}}.dump(2) + "\n");
  }
  if (!all_right)
    throw ProgramExit(kExitFailed,
                      "some candidates gave wrong results and were disqualified (see above)");
  return kExitOk;
}

}  // namespace

int run_batch_tune(const BatchTuneOptions& o, const CLI::App& app) {
  const BatchSearch s = exit_if_thrown(kExitRefused, [&] { return batch_search(o, app); });
  if (s.dry_run) {
    print_dry_run(s);
    return kExitOk;
  }
  return search_here(s);
}

}  // namespace apsp::harness
