// apsp_bench: sweeps n across variants through the harness (harness/pipeline/pipeline.hpp): every run
// verified bit-exact before it is timed; statistics, speedups over naive and the share of the
// measured min-plus ceiling; text tables on stdout, --json / --md / --gbench-json files.
// Every finished run is kept as it finishes: a line on stdout (line-buffered) and the --json file
// rewritten (marked incomplete until the sweep ends), so that a sweep stopped by SIGINT or
// SIGTERM (core/interrupt.hpp: exit 130 or 143) keeps what it measured.
// Exit codes: 0 all verified, 1 a run FAILED or could not run, 2 bad usage, 3 no CUDA device.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <optional>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/graph_formats.hpp"
#include "core/tables.hpp"
#include "harness/cli/batch_sweep.hpp"
#include "harness/cli/gbench_report.hpp"
#include "harness/cli/launched.hpp"
#include "harness/cli/program.hpp"
#include "harness/cli/sweep.hpp"
#include "harness/cli/sweep_text.hpp"
#include "harness/cli/user_kernels.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"

namespace apsp::bench {
namespace {

struct Options {
  std::string sizes = "1000,2500,5000,7500,10000";
  std::string variants;
  std::vector<std::string> configs;
  bool list = false, dry_run = false, warm = false, any_graph = false, any_build = false;
  harness::Plan plan;
  std::string graph_file, input_format = "auto", json_out, md_out, gbench_json, baseline, tuned;
  std::string gpus = "1";                              // --gpus, parsed into plan.gpus
  std::string transport = harness::kDefaultTransport;  // --transport, --ranks-on-one-gpu
  std::vector<std::string> kernels;                    // user kernel files (--kernel)
  harness::WorkerOptions workers;
  harness::UserKernels user_kernels;
  harness::GbenchFlags gbench;  // the --benchmark_* flags this program reads itself
  harness::BatchOptions batch;  // --graphs: batches of small graphs instead
  // Under a launcher (one process per GPU): the launched world; only its process 0 prints and
  // writes files.
  std::optional<harness::LaunchWorld> world;
  bool speaks() const { return !world || world->rank == 0; }
};

// What runs: sizes, variants, configs, user kernels, GPUs.
void add_run_options(CLI::App& app, Options& o) {
  app.add_option("--n", o.sizes, "sizes, comma separated");
  app.add_option("--variant", o.variants, "variants, comma separated, or 'all' (default: all)");
  app.add_option("--config", o.configs,
                 "a config as printed, e.g. 'batched[batch2=6,batch3=4]' (repeatable)");
  app.add_option("--kernel", o.kernels,
                 "a Floyd-Warshall kernel file to compile at run time (NVRTC) and run beside the "
                 "variants, named after the file (docs/kernel-contract.md; repeatable)")
      ->check(CLI::ExistingFile);
  app.add_option("--kernel-timeout", o.workers.timeout_s,
                 "seconds one solve of a --kernel may take before it is stopped and reported "
                 "FAILED")
      ->check(CLI::Range(0.1, 1e6));
  add_gpu_options(app, o.gpus, o.transport, harness::transports(),
                  "GPU counts the multi-GPU variants (sm90) run at, comma separated, each a run "
                  "of its own, or 'all' (every GPU here); the other variants run on one GPU. "
                  "Parallel efficiency is against the one-GPU run of the same config in the same "
                  "run (ask for 1 too: --gpus 1,8)");
  app.add_flag("--list", o.list,
               "list variants, their parameter spaces, defaults and constraints, and exit");
  app.add_flag("--dry-run", o.dry_run, "print the plan and validate it; needs no GPU");
  app.add_option("--model-link-gbs", o.plan.model_link_gbs,
                 "the multi-GPU model's link in GB/s (e.g. 50 for a 400 Gb/s NIC per GPU); "
                 "default: the NVLink figure")
      ->check(CLI::PositiveNumber);
  app.add_option("--model-latency-us", o.plan.model_latency_us,
                 "the multi-GPU model's fixed cost of one broadcast, in microseconds")
      ->check(CLI::NonNegativeNumber);
}

// How each run is sampled, and on which graph.
void add_sampling_options(CLI::App& app, Options& o) {
  harness::Plan& p = o.plan;
  add_integer_option(app, "--reps", p.sampling.max_reps, 1, 1 << 30, "most samples per run");
  add_integer_option(app, "--min-reps", p.sampling.min_reps, 1, 1 << 30, "fewest samples per run");
  app.add_option("--min-time", p.sampling.min_time_s,
                 "take samples until they add up to this many seconds (within --min-reps..--reps)")
      ->check(CLI::Range(0.0, 1e6));
  app.add_flag("--warm", o.warm, "do not flush L2 before each sample");
  app.add_flag("--cuda-graph", p.cuda_graph, "also time the replay of a CUDA graph of one solve");
  app.add_flag(
      "--phases", p.phases,
      "also time phases 1, 2 and 3 of one solve (summed over rounds) for the tiled variants");
  add_integer_option(app, "--seed", p.graph.spec.seed, uint64_t{0}, UINT64_MAX,
                     "graph generator seed");
  app.add_option("--density", p.graph.spec.density, "edge probability of the random graph")
      ->check(CLI::Range(0.0, 1.0));
  add_integer_option(app, "--wmax", p.graph.spec.wmax, 1, 1 << 30,
                     "largest edge weight (weights in [1, wmax])");
  app.add_option("--graph", o.graph_file,
                 "solve this graph file instead (n = its V): an edge list, DIMACS, SNAP or "
                 "Matrix Market, maybe gzipped (--input-format)");
  app.add_option("--input-format", o.input_format, "--graph's format: " + graph_formats_help())
      ->check(CLI::IsMember(graph_format_names()));
}

// What is written, what earlier files are read, and how results are checked.
void add_output_options(CLI::App& app, Options& o) {
  harness::Plan& p = o.plan;
  app.add_option("--json", o.json_out,
                 "write results JSON (schema apsp-bench/1), after every run (\"complete\": "
                 "false until the sweep ends)")
      ->check(file_to_write());
  app.add_option("--md", o.md_out, "write the markdown tables")->check(file_to_write());
  app.add_option("--gbench-json", o.gbench_json,
                 "write Google Benchmark's JSON (for its compare.py): a run's name is its config, "
                 "n, GPUs and graph, whatever its sample count; --benchmark_repetitions=K splits "
                 "each run's samples into K repetitions (needs --min-reps K or more)")
      ->check(file_to_write());
  app.add_option("--tuned", o.tuned,
                 "tuning database: each variant with parameters runs the database's fastest "
                 "config for the nearest tuned n, where it was measured faster than the shipped "
                 "default on this device, graph spec and build");
  app.add_flag("--tuned-any-graph", o.any_graph,
               "--tuned: also use entries measured on other graph specs");
  app.add_flag("--tuned-any-build", o.any_build,
               "--tuned: also use entries measured by other builds");
  app.add_option("--verify", p.reference,
                 "above n = 2048 (the CPU reference's range): 'certificate' checks every entry "
                 "against the graph's edges on the GPU (no second solve; O(E + n * E') a run, E' "
                 "the edges that are shortest paths themselves), 'naive' compares with the naive "
                 "variant's output, 'auto' naive up to n = 16384 (where it usually runs anyway, "
                 "as the speedup baseline) and the certificate above")
      ->check(CLI::IsMember({std::string(harness::kAutoReference),
                             std::string(harness::kCertificate), std::string("naive")}));
  app.add_option("--baseline", o.baseline,
                 "reuse naive timings from an earlier results JSON of the same device model");
  app.add_option("--ceiling-time", p.ceiling_s,
                 "seconds spent measuring each min-plus ceiling (int32, then packed 16-bit, "
                 "then int64 when an int64 variant runs)")
      ->check(CLI::Range(0.0, 1e6));
}

void add_options(CLI::App& app, Options& o) {
  app.option_defaults()->always_capture_default();
  add_run_options(app, o);
  add_sampling_options(app, o);
  add_output_options(app, o);
  harness::add_batch_options(app, o.batch);
  app.allow_extras();  // --benchmark_* flags go to Google Benchmark
}

// Each output can be written, and none is another or one of the files read; throws
// std::invalid_argument (one line).
void check_outputs(const Options& o) {
  std::vector<FileUse> files{{o.json_out, "--json"},
                             {o.md_out, "--md"},
                             {o.gbench_json, "--gbench-json"},
                             {o.graph_file, "--graph", false},
                             {o.baseline, "--baseline", false},
                             {o.tuned, "--tuned", false}};
  for (const FileUse& f : files)
    if (f.output && !f.path.empty()) check_output_path(f.path, f.option);
  for (const std::string& k : o.kernels) files.push_back({k, "--kernel", false});
  check_distinct_files(files);
}

// The plan from the options; throws std::invalid_argument (one line) on bad input.
void build_plan(Options& o, Results& baseline, TuningDb& tuned) {
  harness::Plan& p = o.plan;
  harness::read_tuned_and_baseline(o.tuned, o.baseline, tuned, baseline);
  if (!o.graph_file.empty()) {
    const auto say = [](const std::string& line) { fmt::print(stderr, "apsp_bench: {}\n", line); };
    p.graph.edges = std::make_shared<EdgeList>(read_graph(o.graph_file, o.input_format, 0, say));
    p.graph.file = o.graph_file;
  }
  p.transport = o.transport;
  p.sampling.flush_l2 = !o.warm;
  harness::BenchSelection s{o.variants, o.configs, o.user_kernels.variants, o.sizes};
  s.gpus = o.gpus;
  s.tuned = !o.tuned.empty();
  s.reuse_baseline = !o.baseline.empty();
  harness::select_runs(p, s);
}

void write_outputs(const Results& results, const Options& o) {
  if (!o.json_out.empty()) write_file_atomic(o.json_out, to_json(results).dump(2) + "\n");
  if (!o.md_out.empty()) write_file_atomic(o.md_out, harness::sweep_markdown(results));
  if (!o.gbench_json.empty())
    harness::write_gbench_json(results, o.gbench_json, o.gbench.repetitions);
}

// The sampling options against each other and --benchmark_repetitions, then the plan.
void check_and_plan(Options& o, const CLI::App& app, Results& baseline, TuningDb& tuned_db) {
  harness::check_reps(o.plan.sampling, app.count("--min-reps") > 0, app.count("--reps") > 0);
  if (const std::string why =
          harness::repetitions_problem(o.gbench.repetitions, o.plan.sampling.min_reps);
      !why.empty())
    throw std::invalid_argument(why);
  build_plan(o, baseline, tuned_db);
}

// Under a launcher (harness/cli/launched.hpp) only process 0 writes files.
void join_launched_world(Options& o) {
  try {
    o.world = harness::join_launched_world();
  } catch (const std::invalid_argument& e) {  // the launcher's variables
    throw harness::ProgramExit(kExitRefused, e.what());
  }
  if (o.speaks()) return;
  o.json_out.clear();
  o.md_out.clear();
  o.gbench_json.clear();
}

// The plan run here, its tables and files; the exit code.
int measure(const Options& o, const std::optional<harness::TunedSource>& tuned,
            const Results& baseline, const std::vector<std::string>& argv) {
  const harness::Session session = harness::Session::here(o.workers, o.plan.transport);
  if (const std::string why = harness::sweep_device_problem(o.plan, session, o.baseline, baseline);
      !why.empty())
    throw harness::ProgramExit(kExitRefused, why);
  const harness::Outcome out =
      harness::run_sweep(o.plan, session, tuned, o.baseline.empty() ? nullptr : &baseline,
                         {"apsp_bench", o.json_out, argv, o.speaks()});
  fmt::print("\n{}", render_text(speedup_grid(out.results)));
  fmt::print("\n{}", render_text(detail_grid(out.results)));
  fmt::print("{}", harness::measured_and_model(out.results));
  write_outputs(out.results, o);  // a fault: the scaffold's one line, exit 1
  if (out.any_failed)
    throw harness::ProgramExit(kExitFailed, "some runs FAILED or could not run (see the table)");
  return 0;
}

int run(Options& o, const CLI::App& app, int argc, char** argv) {
  o.gbench = harness::exit_if_thrown(
      kExitRefused, [&] { return harness::gbench_flags_of_extras(argv[0], app.remaining()); });
  join_launched_world(o);
  const std::optional<DeviceInfo> device =
      has_device() ? std::optional(query_device()) : std::nullopt;
  harness::exit_if_thrown(kExitRefused, [&] {
    check_outputs(o);
    o.user_kernels = harness::compile_user_kernels(o.kernels, {}, o.workers, device);
  });
  if (o.batch.asked()) return harness::run_batch_bench(o.batch, app, o.plan, {argv, argv + argc});
  if (o.list) {
    fmt::print("{}", harness::variants_list());
    return 0;
  }
  Results baseline;
  TuningDb tuned_db;
  harness::exit_if_thrown(kExitRefused, [&] { check_and_plan(o, app, baseline, tuned_db); });
  harness::resolve_gpu_counts(o.plan.gpus, o.world ? o.world->size : device_count());
  if (const std::string why = harness::launched_gpus_problem(o.world, o.plan.gpus, o.transport);
      !why.empty())
    throw harness::ProgramExit(kExitRefused, why);
  const auto tuned = harness::tuned_source(o.tuned, tuned_db, o.any_graph, o.any_build);
  if (o.dry_run) {
    harness::sweep_dry_run(o.plan, tuned, o.user_kernels.variants);
    return 0;
  }
  harness::check_sweep_device(o.plan, device.has_value(),
                              harness::transport_shares_device(o.transport) ? kMaxGpus
                              : o.world                                     ? o.world->size
                                                                            : device_count());
  return measure(o, tuned, baseline, std::vector<std::string>(argv, argv + argc));
}

std::string about() {
  return "apsp_bench: verify and time every APSP variant over a sweep of n.\n"
         "Every result is checked bit-exact (CPU reference up to n = 2048, the naive variant's\n"
         "output above) before it is timed. Speedups are against naive. A variant asked for by\n"
         "name runs its default for each n: this device's policy table (policies/), else the\n"
         "variant's heuristic, else its declared default (--dry-run shows which).\n" +
         exit_codes_help("a run FAILED or could not run, or a write failed") +
         "\nStopped by SIGINT (Ctrl-C) or SIGTERM, it exits 130 or 143 and keeps every run that\n"
         "finished: a line each on stdout, and the --json file (marked \"complete\": false).\n" +
         outputs_help() +
         "\n"
         "Your own kernel: --kernel my_fw.cu compiles it at run time and runs it like a variant\n"
         "(docs/kernel-contract.md); a kernel that faults or hangs is FAILED, the rest go on.";
}

}  // namespace
}  // namespace apsp::bench

int main(int argc, char** argv) {
  apsp::bench::Options o;
  return apsp::harness::run_program(
      {"apsp_bench", apsp::bench::about(), /*line_buffered=*/true}, argc, argv,
      [&](CLI::App& app) { apsp::bench::add_options(app, o); },
      [&](const CLI::App& app) { return apsp::bench::run(o, app, argc, argv); });
}
