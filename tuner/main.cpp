// tuner: searches the declared parameter spaces of the variants on this GPU. Every candidate
// is verified bit-exact before it is timed (a wrong one is disqualified, loudly); every measured
// point goes to the tuning database at once (atomic write), so a rerun resumes where an
// interrupted one stopped. Exit codes: 0 done, 1 a candidate was disqualified or a write
// failed, 2 bad usage, 3 no CUDA device.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <set>

#include "bench/plan.hpp"
#include "core/generators.hpp"
#include "core/console.hpp"
#include "core/results.hpp"
#include "core/stats.hpp"
#include "core/tables.hpp"
#include "core/tuning_db.hpp"
#include "tuner/search.hpp"
#include "variants/workbench.hpp"

namespace apsp::tuning {
namespace {

constexpr int kExitFailed = 1, kExitUsage = 2, kExitNoDevice = 3;

struct Options {
  std::string search = "batch", variants, sizes = "2500,10000", strategy = "auto", db = "tuning.json";
  std::string json_out;
  int budget = 0, top = 5;
  uint64_t seed = 1;
  bool fresh = false, dry_run = false;
  MeasureOptions measure;
  double density = 0.1;
  int wmax = 1000;
};

std::vector<Param> search_space(const Variant& v, const std::string& search) {
  return params_in_group(v, search);
}

// The points a search of `space` visits: its combinations (v's other parameters at their
// defaults) that have a compiled kernel.
std::vector<Config> built_points(const Variant& v, const std::vector<Param>& space) {
  std::vector<Config> points = enumerate_space(space, v.defaults);
  std::erase_if(points, [&](const Config& c) { return !is_built(v, c); });
  return points;
}

// The limits of the H200 this project is tuned on, for --dry-run on a machine with no GPU.
DeviceInfo nominal_sm90() {
  DeviceInfo d;
  d.name = "(no device: sm_90 limits assumed)";
  d.cc_major = 9;
  d.sms = 132;
  d.max_threads_per_block = 1024;
  d.smem_per_block_optin = 232448;
  d.smem_per_sm = 233472;
  return d;
}

int run(int argc, char** argv) {
  Options o;
  o.measure.min_time_s = 0.5;
  CLI::App app{"tuner: search the variants' declared parameters on this GPU.\n"
               "Each point is verified bit-exact, then timed; the tuning database records every\n"
               "point as it is measured, and a rerun skips points already there (--fresh redoes)."};
  app.option_defaults()->always_capture_default();
  app.add_option("--search", o.search, "which parameters: batch (batch2, batch3), tile (the others: tile, chunk, per_thread, lookahead), all")
      ->check(CLI::IsMember({"batch", "tile", "all"}));
  app.add_option("--variant", o.variants, "variants to tune, comma separated (default: every variant with such parameters)");
  app.add_option("--n", o.sizes, "sizes, comma separated");
  app.add_option("--strategy", o.strategy, "grid, random, local (hill climbing), or auto: grid when the space fits the budget")
      ->check(CLI::IsMember({"auto", "grid", "random", "local"}));
  app.add_option("--budget", o.budget, "most points measured per (variant, n); 0: the whole space")->check(CLI::Range(0.0, 1e6));
  app.add_option("--seed", o.seed, "seed of the random and local strategies and of the graph");
  app.add_option("--db", o.db, "tuning database (JSON)");
  app.add_flag("--fresh", o.fresh, "measure again points the database already has");
  app.add_option("--json", o.json_out, "write the leaderboards as JSON");
  app.add_option("--top", o.top, "configs per leaderboard")->check(CLI::Range(1, 1 << 30));
  app.add_option("--reps", o.measure.max_reps, "most samples per point")->check(CLI::Range(1, 1 << 30));
  app.add_option("--min-time", o.measure.min_time_s, "seconds of samples per point (within 3..--reps)")->check(CLI::Range(0.0, 1e6));
  app.add_option("--density", o.density, "edge probability of the random graph")->check(CLI::Range(0.0, 1.0));
  app.add_option("--wmax", o.wmax, "largest edge weight")->check(CLI::Range(1, 1 << 30));
  app.add_flag("--dry-run", o.dry_run, "list the spaces and the points that would be rejected, and why; needs no GPU");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "tuner: {} (see --help)\n", e.what());  // one line, unlike CLI11's own
    return kExitUsage;
  }

  std::vector<int> sizes;
  std::vector<const Variant*> variants;
  TuningDb db;
  try {
    sizes = bench::parse_sizes(o.sizes);
    for (int n : sizes)
      if (static_cast<int64_t>(n - 1) * o.wmax >= kInf)
        throw std::invalid_argument(fmt::format("--wmax {} with n = {}: distances could reach the unreachable value", o.wmax, n));
    if (!o.variants.empty()) {
      for (const bench::Entry& e : bench::select_entries(o.variants, {})) variants.push_back(e.variant);
    } else {
      for (const Variant& v : registry()) variants.push_back(&v);
    }
    std::erase_if(variants, [&](const Variant* v) { return search_space(*v, o.search).empty(); });
    if (variants.empty()) throw std::invalid_argument(fmt::format("no selected variant has {} parameters", o.search));
    db = TuningDb::load(o.db);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tuner: {}\n", e.what());
    return kExitUsage;
  }
  auto strategy_for = [&](size_t points) {
    if (o.strategy != "auto") return o.strategy;
    return (o.budget == 0 || points <= static_cast<size_t>(o.budget)) ? std::string("grid") : std::string("local");
  };

  const bool device = has_device();
  if (o.dry_run) {
    const DeviceInfo dev = device ? query_device() : nominal_sm90();
    fmt::print("device: {}\n", dev.name);
    for (const Variant* v : variants) {
      const auto space = search_space(*v, o.search);
      const auto points = built_points(*v, space);
      size_t combinations = 1;
      for (const Param& p : space) combinations *= p.values.size();
      fmt::print("{}: {} point(s) over", v->name, points.size());
      for (const Param& p : space) fmt::print(" {}={{{}}}", p.name, fmt::join(p.values, ","));
      fmt::print("; strategy {}", strategy_for(points.size()));
      if (points.size() < combinations)
        fmt::print(" ({} combinations without a compiled kernel left out)", combinations - points.size());
      fmt::print("\n");
      for (int n : sizes) {
        int rejected = 0;
        for (const Config& c : points) {
          const std::string why = v->check(c, n, dev);
          if (why.empty()) continue;
          ++rejected;
          fmt::print("  n = {}: rejected {}: {}\n", n, config_name(v->name, c), why);
        }
        int known = 0;
        if (device)
          for (const Config& c : points) known += db.find(DeviceModel::of(dev), config_name(v->name, c), n) != nullptr;
        fmt::print("  n = {}: {} to measure, {} rejected{}\n", n, points.size() - rejected, rejected,
                   device ? fmt::format(", {} already in {}", known, o.db) : "");
      }
    }
    return 0;
  }
  if (!device) {
    fmt::print(stderr, "tuner: no CUDA device found (--dry-run works without one)\n");
    return kExitNoDevice;
  }
  const DeviceInfo dev = query_device();
  const DeviceModel model = DeviceModel::of(dev);
  const std::string git = build_info().git;
  fmt::print("device: {} (cc {}, {} SMs); database {}\n", dev.name, dev.cc(), dev.sms, o.db);
  CudaStream stream;
  bool disqualified = false;
  nlohmann::json boards = nlohmann::json::array();

  for (int n : sizes) {
    GraphSpec spec;
    spec.num_vertices = n;
    spec.density = o.density;
    spec.wmax = o.wmax;
    spec.seed = o.seed;
    progress(fmt::format("n = {}: graph and reference output", n));
    Workbench bench(DistMatrix::from_edges(generate(spec)), dev, stream.get());
    int fresh_points = 0;
    std::set<std::string> measured_here;  // --fresh remeasures a point once, not once per visit

    // Measures one point, or takes it from the database; nullopt when rejected or wrong.
    auto measure_point = [&](const Variant& v, const Config& c) -> std::optional<double> {
      const std::string name = config_name(v.name, c);
      if (!o.fresh || measured_here.count(name)) {
        if (const TuningEntry* e = db.find(model, name, n)) {
          return e->status == "ok" ? std::optional(e->median_ms) : std::nullopt;
        }
      }
      TuningEntry e{model, v.name, n, c, name, "ok", "", {}, 0, now_iso(), git};
      if (const std::string why = v.check(c, n, dev); !why.empty()) {
        e.status = "rejected";
        e.reason = why;
        progress_done();
        fmt::print("  n = {}: rejected {}: {}\n", n, name, why);
      } else {
        progress(fmt::format("n = {}: {}", n, name));
        const Workbench::Verdict verdict = bench.verify(v, c, o.measure.flush_l2);
        if (!verdict.ok()) {
          e.status = "failed";
          e.reason = verdict.error;
          disqualified = true;
          progress_done();
          fmt::print("  !! n = {}: {} DISQUALIFIED, wrong result: {}\n", n, name, verdict.error);
        } else {
          Timer& timer = bench.timer();
          const SolveFn solve = solver(v, c);
          const int reps = planned_reps(verdict.first_ms, o.measure);
          for (int r = 0; r < reps; ++r) e.samples_ms.push_back(timer.sample(solve, o.measure.flush_l2));
          e.median_ms = median(e.samples_ms);
        }
      }
      ++fresh_points;
      measured_here.insert(name);
      db.upsert(e);
      db.save(o.db);  // after every point: an interrupted search loses nothing
      return e.status == "ok" ? std::optional(e.median_ms) : std::nullopt;
    };

    const Variant& naive = *find_variant("naive");
    const std::optional<double> naive_ms = measure_point(naive, naive.defaults);
    for (const Variant* v : variants) {
      const auto space = search_space(*v, o.search);
      const auto points = built_points(*v, space);
      const std::string strategy = strategy_for(points.size());
      const int budget = o.budget > 0 ? o.budget : static_cast<int>(points.size());
      const int before = fresh_points;
      const Objective f = [&](const Config& c) { return measure_point(*v, c); };
      // Combinations without a compiled kernel are not points: never measured or recorded.
      const Exists built = [&](const Config& c) { return is_built(*v, c); };
      const std::optional<double> default_ms = f(v->defaults);
      SearchResult r = strategy == "grid"     ? grid_search(space, v->defaults, f, built)
                       : strategy == "random" ? random_search(space, v->defaults, budget, o.seed, f, built)
                                              : hill_climb(space, v->defaults, budget, o.seed, f, built);
      progress_done();
      fmt::print("\n{} at n = {}: {} search evaluated {} point(s), {} measured now, the rest from {}\n",
                 v->name, n, r.strategy, r.evaluated, fresh_points - before, o.db);

      // Leaderboard: the fastest verified configs of this variant at this n.
      std::vector<const TuningEntry*> ok;
      for (const TuningEntry& e : db.entries())
        if (e.device == model && e.variant == v->name && e.n == n && e.status == "ok") ok.push_back(&e);
      std::sort(ok.begin(), ok.end(), [](auto* a, auto* b) { return a->median_ms < b->median_ms; });
      Grid g{{"rank", "config", "median ms", "95% CI", "vs default", "vs naive"}};
      nlohmann::json board{{"variant", v->name}, {"n", n}, {"strategy", r.strategy},
                           {"evaluated", r.evaluated}, {"top", nlohmann::json::array()}};
      for (size_t i = 0; i < ok.size() && i < static_cast<size_t>(o.top); ++i) {
        const TuningEntry& e = *ok[i];
        const auto ci = bootstrap_ratio_ci95(e.samples_ms, {1.0});  // the median's own interval
        const double vs_default = default_ms ? *default_ms / e.median_ms : 0;
        const double vs_naive = naive_ms ? *naive_ms / e.median_ms : 0;
        g.push_back({std::to_string(i + 1), e.name, fmt::format("{:.3f}", e.median_ms),
                     fmt::format("[{:.3f}, {:.3f}]", ci.first, ci.second),
                     default_ms ? fmt::format("{:.2f}x", vs_default) : "-",
                     naive_ms ? fmt::format("{:.1f}x", vs_naive) : "-"});
        board["top"].push_back({{"config", e.config}, {"name", e.name}, {"median_ms", e.median_ms},
                                {"ci95", {ci.first, ci.second}}, {"speedup_vs_default", vs_default},
                                {"speedup_vs_naive", vs_naive}});
      }
      fmt::print("{}", render_text(g));
      boards.push_back(board);
    }
  }
  if (!o.json_out.empty()) {
    try {
      write_file_atomic(o.json_out, nlohmann::json{{"schema", "apsp-leaderboard/1"},
                                                   {"device", device_json(dev)},
                                                   {"leaderboards", boards}}.dump(2) + "\n");
    } catch (const std::exception& e) {
      fmt::print(stderr, "tuner: {}\n", e.what());
      return kExitFailed;
    }
  }
  if (disqualified) fmt::print(stderr, "tuner: some candidates gave wrong results and were disqualified (see above)\n");
  return disqualified ? kExitFailed : 0;
}

}  // namespace
}  // namespace apsp::tuning

int main(int argc, char** argv) {
  try {
    return apsp::tuning::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tuner: %s\n", e.what());
    return 1;
  }
}
