// apsp_bench: sweeps n across variants through the harness (harness/pipeline/pipeline.hpp): every run
// verified bit-exact before it is timed; statistics, speedups over naive and the share of the
// measured min-plus ceiling; text tables on stdout, --json / --md / --gbench-json files.
// Every finished run is kept as it finishes: a line on stdout (line-buffered) and the --json file
// rewritten (marked incomplete until the sweep ends), so that a sweep stopped by SIGINT or
// SIGTERM (core/interrupt.hpp: exit 130 or 143) keeps what it measured.
// Exit codes: 0 all verified, 1 a run FAILED or could not run, 2 bad usage, 3 no CUDA device.
#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "bench/gbench_report.hpp"
#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/cuda_check.hpp"
#include "core/graph_formats.hpp"
#include "core/interrupt.hpp"
#include "core/memory.hpp"
#include "core/tables.hpp"
#include "harness/measure/statistics.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/launch.hpp"
#include "harness/multigpu/multi_gpu_model.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/pipeline/describe_plan.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"
#include "harness/userkernel/user_kernel.hpp"

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
  GbenchFlags gbench;  // the --benchmark_* flags this program reads itself
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
  app.allow_extras();  // --benchmark_* flags go to Google Benchmark
}

void print_variant(const Variant& v) {
  fmt::print("{:<13} {}\n", v.name, v.summary);
  for (const Param& p : v.space) {
    fmt::print("{:<13}   {} in {{{}}} (declared default {}, search group '{}'): {}\n", "", p.name,
               fmt::join(p.values, ","), v.defaults.at(p.name), p.group, p.help);
  }
  for (const Constraint& c : v.constraints) fmt::print("{:<13}   constraint: {}\n", "", c.rule);
  fmt::print(
      "{:<13}   declared default: {}{}\n", "", config_name(v.name, v.defaults),
      v.space.empty() ? "" : " (a policy or heuristic may pick another per n: see --dry-run)");
}

void print_list() {
  for (const Variant& v : registry()) print_variant(v);
  for (const Variant& v : runtime_variants()) print_variant(v);
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

// --tuned and --baseline, read and checked whole before anything else (the dry run too);
// throws std::invalid_argument, one line naming the option and the file.
void read_inputs(const Options& o, Results& baseline, TuningDb& tuned) {
  try {
    if (!o.tuned.empty()) {
      std::string note;
      tuned = TuningDb::load_existing(o.tuned, &note);
      if (!note.empty()) fmt::print("{}\n", note);
    }
  } catch (const std::runtime_error& e) {  // its line starts with the file's name
    throw std::invalid_argument(fmt::format("--tuned {}", e.what()));
  }
  try {
    if (!o.baseline.empty()) baseline = load_results(o.baseline);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(fmt::format("--baseline {}", e.what()));
  }
}

// The plan from the options; throws std::invalid_argument (one line) on bad input.
void build_plan(Options& o, Results& baseline, TuningDb& tuned) {
  harness::Plan& p = o.plan;
  read_inputs(o, baseline, tuned);
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

// Each multi-GPU run beside the model's prediction from the one-GPU rate measured in this run;
// ranks on one GPU beside the same config solved whole on that GPU (the engine's own cost).
void print_measured_and_model(const Results& r) {
  for (const RunResult& run : r.runs) {
    if (run.gpus == 1 || run.samples_ms.empty()) continue;
    if (harness::transport_shares_device(r.context.transport)) {
      if (const RunResult* one = harness::one_gpu_run(r, run))
        fmt::print(
            "{} at n = {} over {} ranks on one GPU: {:.3f} ms, {:+.1f}% against {:.3f} ms solved "
            "whole\n",
            run.name, run.n, run.gpus, run.median_ms, 100 * (run.median_ms / one->median_ms - 1),
            one->median_ms);
      continue;
    }
    if (!run.parallel_efficiency) continue;
    const double one_gpu_ms = run.gpus * run.median_ms * *run.parallel_efficiency;
    harness::LinkModel link = harness::h200_nvlink_model();
    link.rate_updates_per_s = static_cast<double>(run.n) * run.n * run.n / (one_gpu_ms / 1000);
    const Variant* v = find_variant(run.variant);
    if (!v) continue;
    const harness::Prediction p =
        harness::predict(run.n, run.gpus, harness::distributed_tile(*v, run.config), link);
    fmt::print(
        "{} at n = {} on {} GPUs: measured {:.3f} s ({:.1f}% parallel efficiency); model from this "
        "run's "
        "one-GPU rate: {:.3f} s ({:.1f}%)\n",
        run.name, run.n, run.gpus, run.median_ms / 1000, 100 * *run.parallel_efficiency, p.total_s,
        100 * p.efficiency);
  }
}

// Every request is a host variant (the tests' CPU-backed ones): the plan needs no CUDA device.
bool host_only(const harness::Plan& p) {
  return std::all_of(p.requests.begin(), p.requests.end(),
                     [](const harness::Request& r) { return r.variant->target == Target::kHost; });
}

// "" when the plan fits this device and the baseline file matches it; else the reason.
std::string device_problem(const harness::Plan& p, const harness::Session& session,
                           const Results& baseline, const Options& o) {
  const std::string here = harness::make_context(session).device.value("name", "?");
  if (!o.baseline.empty() && baseline.context.device.value("name", "") != here)
    return fmt::format("--baseline {} was measured on '{}', this is '{}': refusing to mix devices",
                       o.baseline, baseline.context.device.value("name", "?"), here);
  return harness::memory_problem(p, session.device ? device_free_bytes() : UINT64_MAX,
                                 available_memory().bytes);
}

void write_outputs(const Results& results, const Options& o) {
  if (!o.json_out.empty()) write_file_atomic(o.json_out, to_json(results).dump(2) + "\n");
  if (!o.md_out.empty()) {
    const nlohmann::json& dev = results.context.device;
    const std::string name = dev.value("name", "?");
    std::string md = fmt::format(
        "# apsp_bench on {}\n\n{} (cc {}, {} SMs), driver {}, runtime {}, git {}, {}\n\n", name,
        name, dev.value("cc", "?"), dev.value("sms", 0), dev.value("driver", "?"),
        dev.value("runtime", "?"), results.context.build.value("git", "?"), results.context.date);
    if (const std::string line = ceilings_line(results.context); !line.empty()) md += line + "\n\n";
    md += "## Time and speedup over naive\n\n" + render_markdown(speedup_grid(results));
    md += "\n## Every run\n\n" + render_markdown(detail_grid(results));
    write_file_atomic(o.md_out, md);
  }
}

// 0, or the exit code and its line: no CUDA device (3), fewer GPUs than --gpus asks (4).
int device_refusal(const Options& o, bool has_gpu) {
  if (!has_gpu && host_only(o.plan)) return 0;
  if (!has_gpu) {
    fmt::print(stderr,
               "apsp_bench: no CUDA device found (the bench needs a GPU; --dry-run and --list work "
               "without one)\n");
    return kExitNoDevice;
  }
  const int gpus = harness::transport_shares_device(o.transport) ? kMaxGpus
                   : o.world                                     ? o.world->size
                                                                 : device_count();
  if (const std::string why = harness::gpu_count_problem(o.plan.gpus, gpus); !why.empty()) {
    fmt::print(stderr, "apsp_bench: {} (--gpus)\n", why);
    return kExitTooFewGpus;
  }
  return 0;
}

// --tuned: the database the requests marked tuned pick from (run_plan fills in the device, graph
// and build of the match).
std::optional<harness::TunedSource> tuned_source(const Options& o, const TuningDb& db) {
  if (o.tuned.empty()) return std::nullopt;
  harness::TunedSource t;
  t.db = &db;
  t.path = o.tuned;
  t.match.any_graph = o.any_graph;
  t.match.any_build = o.any_build;
  return t;
}

// The dry run's plan on stdout; exit 1 with one line when a --kernel cannot run at any n of it
// on the dry run's device (its threads or shared memory), or when a size does not fit that
// device's memory (a real run there refuses the plan), else 0.
int dry_run(const Options& o, const TuningDb& tuned_db) {
  bool fits = true;
  fmt::print("{}", harness::describe_plan(
                       o.plan, harness::PlanNotes{tuned_source(o, tuned_db), std::nullopt}, &fits));
  std::string assumed;
  const DeviceInfo dev = harness::dry_run_device(assumed);
  for (const Variant* v : o.user_kernels.variants) {
    std::vector<std::pair<Config, int>> runs;
    for (const harness::Request& r : o.plan.requests)
      if (r.variant == v)
        for (int n : o.plan.sizes)
          runs.emplace_back(harness::resolve_config({v, r.config, nullptr}, n, &dev).config, n);
    if (const std::string why = harness::kernel_never_runs(*v, runs, dev); !why.empty()) {
      fmt::print(stderr, "apsp_bench: {}\n", why);
      return kExitFailed;
    }
  }
  if (fits) return 0;
  fmt::print(stderr,
             "apsp_bench: the plan does not fit the device's memory (see the plan's warnings): a "
             "run there refuses it\n");
  return kExitFailed;
}

// The command line: CLI11's options, then the extras, which only Google Benchmark's --benchmark_*
// flags may be. Returns the exit code to stop with, or nothing to go on.
std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv, GbenchFlags& gbench) {
  if (const std::optional<int> rc = apsp::parse_command_line(app, argc, argv, "apsp_bench"))
    return rc;
  std::vector<std::string> gbench_flags;
  for (const std::string& extra : app.remaining()) {
    if (extra.rfind("--benchmark_", 0) != 0) {
      fmt::print(stderr, "apsp_bench: unknown option '{}' (see --help)\n", extra);
      return kExitRefused;
    }
    gbench_flags.push_back(extra);
  }
  try {
    gbench = init_gbench_flags(argv[0], gbench_flags);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "apsp_bench: {}\n", failure_text(e));
    return kExitRefused;
  }
  return std::nullopt;
}

// The user kernels compiled, then --list, or the plan built and checked. Returns the exit code
// to stop with (--list: 0, bad input: 2), or nothing to go on.
std::optional<int> prepare(Options& o, const CLI::App& app, const std::optional<DeviceInfo>& device,
                           Results& baseline, TuningDb& tuned_db) {
  try {
    check_outputs(o);
    // Compiled before anything runs: a file that does not compile stops here, with exit 2.
    o.workers.compile.arch = device ? harness::arch_of(*device) : "sm_90";
    o.user_kernels =
        harness::register_user_kernels(o.kernels, {}, Target::kIsolated, o.workers.compile);
    for (const auto& k : o.user_kernels.kernels) fmt::print("{}\n", harness::describe_compile(*k));
    if (o.list) {
      print_list();
      return 0;
    }
    harness::check_reps(o.plan.sampling, app.count("--min-reps") > 0, app.count("--reps") > 0);
    if (const std::string why = repetitions_problem(o.gbench.repetitions, o.plan.sampling.min_reps);
        !why.empty())
      throw std::invalid_argument(why);
    build_plan(o, baseline, tuned_db);
  } catch (const harness::CompileError& e) {
    fmt::print(stderr, "{}\n", harness::compile_failure_text("apsp_bench", e));
    return kExitRefused;
  } catch (
      const std::exception& e) {  // InputError, invalid_argument, runtime_error: one line, exit 2
    fmt::print(stderr, "apsp_bench: {}\n", failure_text(e));
    return kExitRefused;
  }
  return std::nullopt;
}

// "n = 1000: batched[batch2=2,batch3=5]: 1.234 ms (median of 10), 45.10x naive [44.02, 46.31],
// verified cpu-reference": a run as it finishes, so that a sweep stopped midway has printed it.
std::string finished_line(const RunResult& r) {
  std::string line = fmt::format("n = {}: {}{}: ", r.n, r.name,
                                 r.gpus > 1 ? fmt::format(" on {} GPUs", r.gpus) : "");
  if (r.verified == "FAILED") return line + "FAILED: " + r.error.value_or("");
  if (r.error || r.samples_ms.empty()) return line + "skipped: " + r.error.value_or("");
  line += fmt::format("{:.3f} ms (median of {})", r.median_ms, r.samples_ms.size());
  if (r.speedup_vs_naive) {
    line += fmt::format(", {:.2f}x naive", *r.speedup_vs_naive);
    if (r.speedup_ci95)
      line += fmt::format(" [{:.2f}, {:.2f}]", r.speedup_ci95->first, r.speedup_ci95->second);
  }
  return line + ", verified " + r.verified;
}

void print_line(const std::string& line) {
  progress_done();
  fmt::print("{}\n", line);
}

// The --json file of the runs finished so far, as they are (incomplete while the sweep goes on).
// A FIFO or pipe gets the one whole file at the end instead: its reader would read every version.
void keep(const Results& so_far, const Options& o, const std::vector<std::string>& argv) {
  if (o.json_out.empty() || written_as_stream(o.json_out)) return;
  Results kept = so_far;
  kept.context.argv = argv;
  write_file_atomic(o.json_out, to_json(kept).dump(2) + "\n");
}

// What the program says it kept when SIGINT or SIGTERM stops it.
std::string kept_on_interrupt(const Options& o) {
  return o.json_out.empty() ? "the finished runs are printed above (no --json file)"
                            : "the finished runs are in " + o.json_out;
}

// The plan run in the session that fits it: a line per run as it finishes, the --json file
// rewritten after each (incomplete), then the tables and the files asked for; returns the exit
// code.
int measure(const Options& o, const harness::Session& session, const Results& baseline,
            const TuningDb& tuned_db, const std::vector<std::string>& argv) {
  if (session.device) {
    const DeviceInfo& dev = *session.device;
    fmt::print("device: {} (cc {}, {} SMs, {} MHz), driver {}, runtime {}; build {} (kernels {})\n",
               dev.name, dev.cc(), dev.sms, dev.clock_mhz, dev.driver, dev.runtime,
               session.build.commit, session.build.kernels);
  } else {
    fmt::print("device: none, host variants only; build {} (kernels {})\n", session.build.commit,
               session.build.kernels);
  }
  exit_on_interrupt("apsp_bench", kept_on_interrupt(o));
  Results none_yet;  // until the first run finishes: a file of an earlier sweep is not this one's
  none_yet.context = harness::make_context(session);
  none_yet.complete = false;
  keep(none_yet, o, argv);
  const auto status = [&o](const std::string& line) {
    if (o.speaks()) progress(line);
  };
  const harness::Observer observer{status, print_line, [&](const Results& so_far) {
                                     print_line(finished_line(so_far.runs.back()));
                                     keep(so_far, o, argv);
                                   }};
  harness::Outcome out = harness::run_plan(o.plan, session, observer, tuned_source(o, tuned_db),
                                           o.baseline.empty() ? nullptr : &baseline);
  progress_done();
  out.results.context.argv = argv;
  fmt::print("\n{}", render_text(speedup_grid(out.results)));
  fmt::print("\n{}", render_text(detail_grid(out.results)));
  print_measured_and_model(out.results);
  try {
    write_outputs(out.results, o);
    if (!o.gbench_json.empty()) write_gbench_json(out.results, o.gbench_json, o.gbench.repetitions);
  } catch (const std::exception& e) {
    fmt::print(stderr, "apsp_bench: {}\n", failure_text(e));
    return kExitFailed;
  }
  if (out.any_failed)
    fmt::print(stderr, "apsp_bench: some runs FAILED or could not run (see the table)\n");
  return out.any_failed ? kExitFailed : 0;
}

// Under a launcher (harness/multigpu/launch.hpp): this process's GPU (its local rank, modulo the
// GPUs it sees), and on every process but 0 no stdout and no files. Every process runs the same
// plan; the multi-GPU runs are collective, each process its own rank. Returns the exit code to
// stop with (2: the launcher's variables are malformed), or nothing to go on.
std::optional<int> join_launched_world(Options& o) {
  try {
    o.world = harness::launch_world();
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "apsp_bench: {}\n", e.what());
    return kExitRefused;
  }
  if (!o.world) return std::nullopt;
  if (const int count = device_count(); count > 0)
    APSP_CUDA_CHECK(cudaSetDevice(o.world->local_rank % count));
  if (o.speaks()) return std::nullopt;
  o.json_out.clear();
  o.md_out.clear();
  o.gbench_json.clear();
  if (!std::freopen("/dev/null", "w", stdout)) {
    fmt::print(stderr, "apsp_bench: process {}: cannot silence stdout\n", o.world->rank);
    return kExitFailed;
  }
  return std::nullopt;
}

// "" unless, under a launcher, a --gpus count is neither 1 (each process alone on its GPU) nor
// the number of processes (one GPU a process).
std::string launched_gpus_problem(const Options& o) {
  if (!o.world || harness::transport_shares_device(o.transport)) return "";
  for (int g : o.plan.gpus)
    if (g != 1 && g != o.world->size)
      return fmt::format(
          "--gpus {} under {} with {} processes: one GPU a process, so each count is 1 or {}", g,
          o.world->launcher, o.world->size, o.world->size);
  return "";
}

int run(int argc, char** argv) {
  // Line by line into a file or a pipe too, so that every line printed survives a stop.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options o;
  CLI::App app{
      "apsp_bench: verify and time every APSP variant over a sweep of n.\n"
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
      "(docs/kernel-contract.md); a kernel that faults or hangs is FAILED, the rest go on."};
  add_options(app, o);
  if (const std::optional<int> rc = parse_command_line(app, argc, argv, o.gbench)) return *rc;
  if (const std::optional<int> rc = join_launched_world(o)) return *rc;
  const std::optional<DeviceInfo> device =
      has_device() ? std::optional(query_device()) : std::nullopt;
  Results baseline;
  TuningDb tuned_db;
  if (const std::optional<int> rc = prepare(o, app, device, baseline, tuned_db)) return *rc;
  harness::resolve_gpu_counts(o.plan.gpus, o.world ? o.world->size : device_count());
  if (const std::string why = launched_gpus_problem(o); !why.empty()) {
    fmt::print(stderr, "apsp_bench: {}\n", why);
    return kExitRefused;
  }
  if (o.dry_run) return dry_run(o, tuned_db);
  if (const int rc = device_refusal(o, device.has_value()); rc != 0) return rc;
  const harness::Session session = harness::Session::here(o.workers, o.plan.transport);
  if (const std::string why = device_problem(o.plan, session, baseline, o); !why.empty()) {
    fmt::print(stderr, "apsp_bench: {}\n", why);
    return kExitRefused;
  }
  return measure(o, session, baseline, tuned_db, std::vector<std::string>(argv, argv + argc));
}

}  // namespace
}  // namespace apsp::bench

int main(int argc, char** argv) {
  return apsp::run_program("apsp_bench", apsp::bench::run, argc, argv);
}
