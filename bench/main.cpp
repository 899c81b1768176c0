// apsp_bench: sweeps n across variants; every run verified bit-exact before it is timed;
// statistics, speedups over naive and the share of the measured min-plus ceiling; text table on
// stdout, --json / --md / --gbench-json files. Exit codes: 0 all verified, 1 a run FAILED or
// could not run, 2 bad usage, 3 no CUDA device.
#include <CLI/CLI.hpp>
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include "bench/plan.hpp"
#include "core/console.hpp"
#include "core/device_buffer.hpp"
#include "core/edge_list.hpp"
#include "core/measure.hpp"
#include "core/phase_timer.hpp"
#include "core/reference.hpp"
#include "core/stats.hpp"
#include "core/tables.hpp"
#include "core/tuning_db.hpp"
#include "variants/ceiling_probe.hpp"
#include "variants/workbench.hpp"

namespace apsp::bench {
namespace {

constexpr int kExitFailed = 1, kExitUsage = 2, kExitNoDevice = 3;

struct Options {
  std::string sizes = "1000,2500,5000,7500,10000";
  std::string variants;
  std::vector<std::string> configs;
  bool list = false, dry_run = false, warm = false, cuda_graph = false, phases = false;
  MeasureOptions measure;
  uint64_t seed = 1;
  double density = 0.1;
  int wmax = 1000;
  std::string graph_file, json_out, md_out, gbench_json, baseline, tuned;
  double ceiling_s = 1.0;
};

void print_list() {
  for (const Variant& v : registry()) {
    fmt::print("{:<13} {}\n", v.name, v.summary);
    for (const Param& p : v.space) {
      fmt::print("{:<13}   {} in {{{}}} (default {}): {}\n", "", p.name, fmt::join(p.values, ","),
                 v.defaults.at(p.name), p.help);
    }
    fmt::print("{:<13}   default: {}\n", "", config_name(v.name, v.defaults));
  }
}

struct Problem {  // one size
  int n = 0;
  std::unique_ptr<Workbench> bench;
};

struct Slot {  // one (entry, n)
  const Entry* entry;
  Problem* problem;
  RunResult result;
  int reps = 0;
};

GraphDesc graph_desc(const Plan& plan) {
  GraphDesc g;
  if (!plan.graph_file.empty()) {
    g.kind = "file";
    g.file = plan.graph_file;
    return g;
  }
  g.kind = std::string(to_string(plan.graph.kind));
  g.seed = plan.graph.seed;
  g.density = plan.graph.density;
  g.wmax = plan.graph.wmax;
  return g;
}

// Tuning entries whose config this build does not compile (a database written before a
// parameter was added or a value dropped) are skipped by --tuned; one line says so.
bool current_config(const TuningEntry& e) { return config_problem(e.variant, e.config).empty(); }
void report_stale_entries(const TuningDb& db, const std::string& path) {
  int stale = 0;
  std::string first;
  for (const TuningEntry& e : db.entries()) {
    const std::string why = config_problem(e.variant, e.config);
    if (why.empty()) continue;
    if (stale++ == 0) first = fmt::format("{} ({})", e.name, why);
  }
  if (stale > 0) {
    fmt::print("tuned: {} skips {} entries whose config this build does not compile, e.g. {}; "
               "rerun the tuner to measure the current ones\n", path, stale, first);
  }
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{"apsp_bench: verify and time every APSP variant over a sweep of n.\n"
               "Every result is checked bit-exact (CPU reference up to n = 2048, the naive\n"
               "variant's output above) before it is timed. Speedups are against naive."};
  app.option_defaults()->always_capture_default();
  app.add_option("--n", o.sizes, "sizes, comma separated");
  app.add_option("--variant", o.variants, "variants, comma separated, or 'all' (default: all)");
  app.add_option("--config", o.configs, "a config as printed, e.g. 'batched[batch2=6,batch3=4]' (repeatable)");
  app.add_flag("--list", o.list, "list variants, their parameter spaces and defaults, and exit");
  app.add_flag("--dry-run", o.dry_run, "print the plan and validate it; needs no GPU");
  app.add_option("--reps", o.measure.max_reps, "most samples per run")->check(CLI::Range(1, 1 << 30));
  app.add_option("--min-reps", o.measure.min_reps, "fewest samples per run")->check(CLI::Range(1, 1 << 30));
  app.add_option("--min-time", o.measure.min_time_s, "take samples until they add up to this many seconds (within --min-reps..--reps)")
      ->check(CLI::Range(0.0, 1e6));
  app.add_flag("--warm", o.warm, "do not flush L2 before each sample");
  app.add_flag("--cuda-graph", o.cuda_graph, "also time the replay of a CUDA graph of one solve");
  app.add_flag("--phases", o.phases, "also time phases 1, 2 and 3 of one solve (summed over rounds) for the tiled variants");
  app.add_option("--seed", o.seed, "graph generator seed");
  app.add_option("--density", o.density, "edge probability of the random graph")->check(CLI::Range(0.0, 1.0));
  app.add_option("--wmax", o.wmax, "largest edge weight (weights in [1, wmax])")->check(CLI::Range(1, 1 << 30));
  app.add_option("--graph", o.graph_file, "solve this edge-list file instead (n = its V)");
  app.add_option("--json", o.json_out, "write results JSON (schema apsp-bench/1)");
  app.add_option("--md", o.md_out, "write the markdown tables");
  app.add_option("--gbench-json", o.gbench_json, "write Google Benchmark's JSON (for its compare.py)");
  app.add_option("--tuned", o.tuned, "tuning database: each variant with parameters runs its best config for the nearest tuned n on this device model");
  app.add_option("--baseline", o.baseline, "reuse naive timings from an earlier results JSON of the same device model");
  app.add_option("--ceiling-time", o.ceiling_s, "seconds spent measuring the min-plus ceiling")->check(CLI::Range(0.0, 1e6));
  app.allow_extras();  // --benchmark_* flags go to Google Benchmark
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    fmt::print(stderr, "apsp_bench: {} (see --help)\n", e.what());  // one line, unlike CLI11's own
    return kExitUsage;
  }
  std::vector<std::string> gbench_args{argv[0]};
  for (const std::string& extra : app.remaining()) {
    if (extra.rfind("--benchmark_", 0) != 0) {
      fmt::print(stderr, "apsp_bench: unknown option '{}' (see --help)\n", extra);
      return kExitUsage;
    }
    gbench_args.push_back(extra);
  }
  if (o.list) {
    print_list();
    return 0;
  }
  o.measure.flush_l2 = !o.warm;
  if (o.measure.min_reps > o.measure.max_reps) o.measure.max_reps = o.measure.min_reps;

  Plan plan;
  std::optional<EdgeList> file_graph;
  Results baseline;
  TuningDb tuned;
  try {
    if (!o.tuned.empty()) {
      if (access(o.tuned.c_str(), R_OK) != 0) throw std::invalid_argument(fmt::format("--tuned {}: cannot read", o.tuned));
      tuned = TuningDb::load(o.tuned);
      report_stale_entries(tuned, o.tuned);
    }
    if (o.variants.empty() && o.configs.empty()) o.variants = "all";
    plan.entries = select_entries(o.variants, o.configs);
    plan.graph.density = o.density;
    plan.graph.wmax = o.wmax;
    plan.graph.seed = o.seed;
    if (!o.graph_file.empty()) {
      file_graph = read_edge_list(o.graph_file);
      plan.graph_file = o.graph_file;
      plan.sizes = {file_graph->num_vertices};
    } else {
      plan.sizes = parse_sizes(o.sizes);
      for (int n : plan.sizes) {
        if (static_cast<int64_t>(n - 1) * o.wmax >= kInf)
          throw std::invalid_argument(fmt::format("--wmax {} with n = {}: distances could reach the unreachable value", o.wmax, n));
      }
    }
    if (!o.baseline.empty()) {
      std::ifstream in(o.baseline);
      if (!in) throw std::invalid_argument(fmt::format("--baseline {}: cannot open", o.baseline));
      try {
        baseline = results_from_json(nlohmann::json::parse(in));
      } catch (const std::exception& e) {
        throw std::invalid_argument(fmt::format("--baseline {}: {}", o.baseline, e.what()));
      }
    }
  } catch (const std::exception& e) {  // InputError, invalid_argument: one line, exit 2
    fmt::print(stderr, "apsp_bench: {}\n", e.what());
    return kExitUsage;
  }
  const bool have_naive = std::any_of(plan.entries.begin(), plan.entries.end(),
                                      [](const Entry& e) { return e.variant->name == "naive"; });
  if (!have_naive && o.baseline.empty()) {
    const Variant* naive = find_variant("naive");
    plan.entries.insert(plan.entries.begin(), Entry{naive, naive->defaults, "naive"});
    plan.naive_added = true;
  }

  if (o.dry_run) {
    fmt::print("plan: {} run(s) = {} config(s) x {} size(s); {} samples each ({}..{}, at least {} s), L2 {}\n",
               plan.entries.size() * plan.sizes.size(), plan.entries.size(), plan.sizes.size(),
               "adaptive", o.measure.min_reps, o.measure.max_reps, o.measure.min_time_s,
               o.warm ? "warm" : "flushed before each sample");
    fmt::print("graph: {}\n", plan.graph_file.empty()
                                  ? fmt::format("random, density {}, weights [1, {}], seed {}", o.density, o.wmax, o.seed)
                                  : plan.graph_file);
    const bool device = has_device();
    std::optional<DeviceInfo> dev;
    if (device) dev = query_device();
    for (const Entry& e : plan.entries) {
      fmt::print("  {}{}\n", e.name, plan.naive_added && e.variant->name == "naive" ? "  (added: the speedup baseline)" : "");
      if (dev) {
        for (int n : plan.sizes) {
          const std::string why = e.variant->check(e.config, n, *dev);
          if (!why.empty()) fmt::print("    n = {}: cannot run: {}\n", n, why);
        }
      }
    }
    for (int n : plan.sizes) {
      fmt::print("  n = {:>6}: verified against {}; device memory {:.1f} MB\n", n,
                 reference_kind(n, plan.cpu_reference_max_n), 2.0 * matrix_bytes(n) / 1e6);
    }
    if (!device) fmt::print("no CUDA device here: configs validated, device limits not checked\n");
    return 0;
  }

  if (!has_device()) {
    fmt::print(stderr, "apsp_bench: no CUDA device found (the bench needs a GPU; --dry-run and --list work without one)\n");
    return kExitNoDevice;
  }
  const DeviceInfo dev = query_device();
  if (!o.baseline.empty() && baseline.context.device.value("name", "") != dev.name) {
    fmt::print(stderr, "apsp_bench: --baseline {} was measured on '{}', this is '{}': refusing to mix devices\n",
               o.baseline, baseline.context.device.value("name", "?"), dev.name);
    return kExitUsage;
  }
  for (int n : plan.sizes) {
    const uint64_t need = 2 * matrix_bytes(n);
    if (need > dev.memory_bytes * 9 / 10) {
      fmt::print(stderr, "apsp_bench: n = {} needs {:.1f} GB of device memory, {} has {:.1f} GB\n", n,
                 need / 1e9, dev.name, dev.memory_bytes / 1e9);
      return kExitUsage;
    }
  }

  Results results;
  results.context.device = device_json(dev);
  const BuildInfo b = build_info();
  results.context.build = {{"git", b.git}, {"nvcc", b.nvcc}, {"archs", b.archs}, {"flags", "-O3 -lineinfo"}};
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  results.context.host = host;
  results.context.date = now_iso();
  for (int i = 0; i < argc; ++i) results.context.argv.push_back(argv[i]);

  fmt::print("device: {} (cc {}, {} SMs, {} MHz), driver {}, runtime {}\n", dev.name, dev.cc(),
             dev.sms, dev.clock_mhz, dev.driver, dev.runtime);
  double ceiling = 0;
  if (o.ceiling_s > 0) {
    progress("measuring the min-plus ceiling");
    const CeilingMeasurement c = measure_minplus_ceiling(dev, o.ceiling_s);
    ceiling = c.updates_per_s;
    progress_done();
    fmt::print("int32 min-plus ceiling: {:.2f} T updates/s (measured in {:.1f} s)\n", ceiling / 1e12, c.seconds);
  }
  results.context.ceiling_updates_per_s = ceiling;

  // Pass 1, per n: input, expected output, then each run verified (its first solve doubles as
  // the warm-up) and its sample count planned from that solve's time.
  CudaStream stream;
  std::vector<std::unique_ptr<Problem>> problems;
  std::vector<Slot> slots;
  std::deque<Entry> tuned_entries;  // --tuned configs; a deque keeps their addresses
  const GraphDesc gdesc = graph_desc(plan);
  bool any_failed = false;
  for (int n : plan.sizes) {
    auto p = std::make_unique<Problem>();
    p->n = n;
    progress(fmt::format("n = {}: generating the graph", n));
    DistMatrix input;
    if (file_graph) {
      input = DistMatrix::from_edges(*file_graph);
    } else {
      GraphSpec spec = plan.graph;
      spec.num_vertices = n;
      input = DistMatrix::from_edges(generate(spec));
    }
    if (reference_kind(n, plan.cpu_reference_max_n) == "naive") {
      progress(fmt::format("n = {}: the naive output, the reference above n = {}", n, plan.cpu_reference_max_n));
    } else {
      progress(fmt::format("n = {}: CPU reference", n));
    }
    p->bench = std::make_unique<Workbench>(std::move(input), dev, stream.get(), plan.cpu_reference_max_n);
    for (const Entry& planned : plan.entries) {
      const Entry* entry = &planned;
      std::optional<std::string> label;
      if (!o.tuned.empty() && !planned.variant->space.empty()) {
        // The tuned config may differ per n; the column stays "variant (tuned)".
        label = planned.variant->name + " (tuned)";
        if (const TuningEntry* best = tuned.best(DeviceModel::of(dev), planned.variant->name, n, current_config)) {
          tuned_entries.push_back(Entry{planned.variant, best->config, best->name});
          entry = &tuned_entries.back();
          fmt::print("tuned: {} at n = {} runs {} (best at tuned n = {}, {:.3f} ms, {})\n",
                     planned.variant->name, n, best->name, best->n, best->median_ms, o.tuned);
        } else {
          fmt::print("tuned: no entry for {} on this device model in {}; n = {} runs the default {}\n",
                     planned.variant->name, o.tuned, n, planned.name);
        }
      }
      const Entry& e = *entry;
      Slot s{&e, p.get(), {}, 0};
      RunResult& r = s.result;
      r.variant = e.variant->name;
      r.config = e.config;
      r.name = e.name;
      r.label = label;
      r.n = n;
      r.graph = gdesc;
      progress(fmt::format("n = {}: verifying {}", n, e.name));
      const std::string why = e.variant->check(e.config, n, dev);
      if (!why.empty()) {
        r.verified = "skipped";
        r.error = why;
        any_failed = true;
        slots.push_back(std::move(s));
        continue;
      }
      const Workbench::Verdict v = p->bench->verify(*e.variant, e.config, o.measure.flush_l2);
      r.verified = v.verified;
      if (v.ok()) {
        s.reps = planned_reps(v.first_ms, o.measure);
      } else {
        r.error = v.error;
        any_failed = true;
      }
      slots.push_back(std::move(s));
    }
    p->bench->drop_expected();  // host memory: only pass 1 needs it
    problems.push_back(std::move(p));
  }
  progress_done();

  // Pass 2: Google Benchmark drives the timed samples, one benchmark per verified run.
  int done = 0, total = 0;
  for (const Slot& s : slots) total += s.reps > 0;
  for (Slot& s : slots) {
    if (s.reps == 0) continue;
    const std::string name = fmt::format("{}/n={}", s.entry->name, s.problem->n);
    benchmark::RegisterBenchmark(name.c_str(), [&s, &done, total, &o](benchmark::State& state) {
      progress(fmt::format("[{}/{}] timing {} at n = {}", done + 1, total, s.entry->name, s.problem->n));
      const SolveFn solve = solver(*s.entry->variant, s.entry->config);
      s.result.samples_ms.clear();
      for (auto _ : state) {
        const double ms = s.problem->bench->timer().sample(solve, o.measure.flush_l2);
        state.SetIterationTime(ms / 1000.0);
        s.result.samples_ms.push_back(ms);
      }
      const double n = s.problem->n;
      state.counters["updates_per_s"] = benchmark::Counter(n * n * n, benchmark::Counter::kIsRate);
      ++done;
    })->UseManualTime()->Iterations(s.reps)->Unit(benchmark::kMillisecond);
  }
  if (!o.gbench_json.empty()) {
    gbench_args.push_back("--benchmark_out=" + o.gbench_json);
    gbench_args.push_back("--benchmark_out_format=json");
  }
  std::vector<char*> gargv;
  for (std::string& a : gbench_args) gargv.push_back(a.data());
  int gargc = static_cast<int>(gargv.size());
  benchmark::Initialize(&gargc, gargv.data());
  class Quiet : public benchmark::BenchmarkReporter {  // our table replaces gbench's console output
   public:
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>&) override {}
  } quiet;
  benchmark::RunSpecifiedBenchmarks(&quiet);
  progress_done();

  if (o.cuda_graph) {
    for (Slot& s : slots) {
      if (s.result.samples_ms.empty()) continue;
      progress(fmt::format("CUDA graph: {} at n = {}", s.entry->name, s.problem->n));
      const SolveFn solve = solver(*s.entry->variant, s.entry->config);
      std::vector<double> ms;
      for (int i = 0; i < static_cast<int>(s.result.samples_ms.size()); ++i)
        ms.push_back(s.problem->bench->timer().sample_graph(s.entry->name, solve, o.measure.flush_l2));
      s.result.graph_median_ms = median(ms);
    }
    progress_done();
  }

  if (o.phases) {
    PhaseTimer phases(stream.get());
    for (Slot& s : slots) {
      if (s.result.samples_ms.empty() || s.entry->variant->name == "naive") continue;
      progress(fmt::format("phases: {} at n = {}", s.entry->name, s.problem->n));
      s.problem->bench->timer().restore();
      phases.mark(0);
      s.entry->variant->run(s.problem->bench->work(), s.problem->n, s.entry->config, stream.get(), &phases);
      s.result.phases_ms = phases.totals_ms();
    }
    progress_done();
  }

  // Statistics and speedups.
  for (Slot& s : slots) {
    RunResult& r = s.result;
    if (r.samples_ms.empty()) {
      results.runs.push_back(r);
      continue;
    }
    const Summary sum = summarize(r.samples_ms);
    r.median_ms = sum.median;
    r.min_ms = sum.min;
    r.stddev_ms = sum.stddev;
    r.cv = sum.cv;
    const double n = r.n;
    r.updates_per_s = n * n * n / (sum.median / 1000.0);
    r.pct_of_ceiling = ceiling > 0 ? 100.0 * r.updates_per_s / ceiling : 0.0;
    std::vector<double> naive_samples;
    for (const Slot& t : slots)
      if (t.problem->n == r.n && t.entry->variant->name == "naive" && !t.result.samples_ms.empty())
        naive_samples = t.result.samples_ms;
    if (naive_samples.empty()) {
      for (const RunResult& old : baseline.runs)
        if (old.variant == "naive" && old.n == r.n && old.graph.kind == gdesc.kind &&
            old.graph.seed == gdesc.seed && old.graph.density == gdesc.density &&
            old.graph.wmax == gdesc.wmax && !old.samples_ms.empty())
          naive_samples = old.samples_ms;
    }
    if (!naive_samples.empty()) {
      r.speedup_vs_naive = median(naive_samples) / sum.median;
      r.speedup_ci95 = bootstrap_ratio_ci95(naive_samples, r.samples_ms);
    }
    results.runs.push_back(r);
  }

  fmt::print("\n{}", render_text(speedup_grid(results)));
  fmt::print("\n{}", render_text(detail_grid(results)));
  const nlohmann::json j = to_json(results);
  try {
    if (!o.json_out.empty()) write_file_atomic(o.json_out, j.dump(2) + "\n");
    if (!o.md_out.empty()) {
      std::string md = fmt::format("# apsp_bench on {}\n\n{} (cc {}, {} SMs), driver {}, runtime {}, git {}, {}\n\n",
                                   dev.name, dev.name, dev.cc(), dev.sms, dev.driver, dev.runtime, b.git,
                                   results.context.date);
      if (ceiling > 0) md += fmt::format("Measured int32 min-plus ceiling: {:.2f} T updates/s.\n\n", ceiling / 1e12);
      md += "## Time and speedup over naive\n\n" + render_markdown(speedup_grid(results));
      md += "\n## Every run\n\n" + render_markdown(detail_grid(results));
      write_file_atomic(o.md_out, md);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "apsp_bench: {}\n", e.what());
    return kExitFailed;
  }
  if (any_failed) fmt::print(stderr, "apsp_bench: some runs FAILED or could not run (see the table)\n");
  return any_failed ? kExitFailed : 0;
}

}  // namespace
}  // namespace apsp::bench

int main(int argc, char** argv) {
  try {
    return apsp::bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "apsp_bench: %s\n", e.what());
    return 1;
  }
}
