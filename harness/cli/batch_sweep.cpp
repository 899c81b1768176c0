#include "harness/cli/batch_sweep.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/batch_tables.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/integer.hpp"
#include "core/memory.hpp"
#include "core/stats.hpp"
#include "harness/cli/batch_runs.hpp"
#include "harness/cli/program.hpp"
#include "harness/cli/sweep_text.hpp"
#include "harness/pipeline/pipeline.hpp"

namespace apsp::harness {

void add_batch_options(CLI::App& app, BatchOptions& o) {
  app.add_option("--graphs", o.graphs,
                 "sweep batches of this many small graphs, comma separated, across the batched "
                 "variants (each graph --n vertices, at most 512; default 16,32,64,128,256,512), "
                 "in place of single graphs");
  add_batch_shape_options(app, o.sizes, o.wmax,
                          "(every graph --n vertices) or 'molecules' (sizes N(15, 4) in 3..51, "
                          "gen_graph --kind molecules' batch of the same --seed)");
}

namespace {

// What apsp_bench's other options say to a batch sweep.
struct BatchBenchArgs {
  std::string sizes;  // --n, given: each graph's vertices, comma separated (fixed sizes)
  std::string variants;
  std::vector<std::string> configs;
  const Plan& plan;        // the seed, the ceiling's time
  SampleOptions sampling;  // the plan's, --min-reps and --reps checked against each other
  bool warm = false, dry_run = false;
  std::string json_out, md_out;
};

BatchBenchArgs args_of(const CLI::App& app, const Plan& plan) {
  const auto text = [&](const char* name) { return app.get_option(name)->as<std::string>(); };
  const auto given = [&](const char* name) { return app.get_option(name)->count() > 0; };
  return {given("--n") ? text("--n") : "",
          text("--variant"),
          app.get_option("--config")->results(),
          plan,
          plan.sampling,
          given("--warm"),
          given("--dry-run"),
          text("--json"),
          text("--md")};
}

constexpr const char* kBatchDefaultSizes = "16,32,64,128,256,512";
constexpr uint64_t kCopyBytes = uint64_t{256} << 20;  // each side of the bandwidth's copy

struct BatchSweep {
  std::vector<BatchShape> shapes;
  std::vector<BatchCase> cases;
};

// Options of single-graph sweeps that a batch sweep would silently ignore.
void refuse_single_graph_options(const CLI::App& app) {
  refuse_given_options(
      app,
      {"--graph", "--kernel", "--baseline", "--gbench-json", "--cuda-graph", "--phases", "--tuned",
       "--tuned-any-graph", "--tuned-any-build", "--verify", "--density", "--wmax", "--gpus"},
      " (batches are generated: --sizes, --seed, --batch-wmax)");
}

std::vector<int64_t> parse_graph_counts(const std::string& text) {
  std::vector<int64_t> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    try {
      out.push_back(parse_integer<int64_t>(text.substr(at, comma - at), 1, kMaxBatchGraphs));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--graphs: ") + e.what());
    }
    if (std::count(out.begin(), out.end(), out.back()) > 1)
      throw std::invalid_argument(fmt::format("--graphs {} is given twice", out.back()));
    at = comma + 1;
  }
  return out;
}

// Host bytes a shape needs at its peak: the batch (about 2.25 directed edges a vertex), the
// reference's distances and the device's copied back.
uint64_t host_bytes(const BatchShape& s) {
  const double n = s.sizes == "molecules" ? kMoleculeMeanN : s.n;
  const double n2 = s.sizes == "molecules" ? n * n + kMoleculeSdN * kMoleculeSdN : n * n;
  const double per_graph = 48 + n * 2.25 * (16 + (s.wmax > 1 ? 4 : 0)) + 2 * n2 * 4;
  return static_cast<uint64_t>(per_graph * static_cast<double>(s.graphs));
}

BatchSweep plan_batch_sweep(const BatchOptions& o, const CLI::App& app, const BatchBenchArgs& a) {
  refuse_single_graph_options(app);
  const bool sizes_given = !a.sizes.empty();
  if (o.sizes == "molecules" && sizes_given)
    throw std::invalid_argument("--n sets every graph's size; --sizes molecules draws them");
  BatchSweep sweep;
  const std::vector<int> sizes = o.sizes == "molecules"
                                     ? std::vector<int>{0}
                                     : parse_sizes(sizes_given ? a.sizes : kBatchDefaultSizes);
  const MemoryLimit memory = available_memory();
  for (const int64_t graphs : parse_graph_counts(o.graphs)) {
    for (const int n : sizes) {
      const BatchShape shape{graphs, o.sizes, n, a.plan.graph.spec.seed, o.wmax};
      if (const std::string why = batch_shape_problem(shape); !why.empty())
        throw std::invalid_argument(why);
      if (host_bytes(shape) > memory.bytes)
        throw std::invalid_argument(
            fmt::format("{} graphs of n = {} need about {} of host memory, more than {}: {}",
                        graphs, shape_max_n(shape), human_bytes(host_bytes(shape)), memory.source,
                        human_bytes(memory.bytes)));
      sweep.shapes.push_back(shape);
    }
  }
  sweep.cases = select_batch_cases(a.variants, a.configs);
  return sweep;
}

std::string shape_text(const BatchShape& s) {
  const std::string weights =
      s.wmax > 1 ? fmt::format("weights 1..{}", s.wmax) : std::string("hop distances");
  if (s.sizes == "molecules")
    return fmt::format("{} molecules (n ~ N({}, {}) in {}..{}), seed {}, {}", s.graphs,
                       kMoleculeMeanN, kMoleculeSdN, kMoleculeMinN, kMoleculeMaxN, s.seed, weights);
  return fmt::format("{} graphs of n = {}, seed {}, {}", s.graphs, s.n, s.seed, weights);
}

void print_dry_run(const BatchSweep& sweep, const BatchBenchArgs& a) {
  fmt::print(
      "apsp_bench --graphs: {} batch(es) x {} config(s); every graph verified against the "
      "CPU reference (solve_batch_host) before it is timed\n",
      sweep.shapes.size(), sweep.cases.size());
  for (const BatchShape& s : sweep.shapes)
    fmt::print("  batch: {}; about {} of host memory\n", shape_text(s), human_bytes(host_bytes(s)));
  for (const BatchCase& c : sweep.cases)
    fmt::print("  run:   {} ({}, {})\n", c.name, c.source,
               c.variant->target == Target::kDevice ? "GPU" : "CPU");
  const SampleOptions& s = a.sampling;
  fmt::print(
      "  samples: {}..{} a run, at least {} s, L2 {}; ceilings measured first: int32 "
      "min-plus ({} s), device memory bandwidth (a device-to-device copy of {})\n",
      s.min_reps, s.max_reps, s.min_time_s, a.warm ? "warm" : "flushed", a.plan.ceiling_s,
      human_bytes(kCopyBytes));
}

// The run's figures from its samples: statistics, rates and the two shares, and which bounds it.
RunResult batch_result(const BatchShape& shape, const BatchCase& c, const BatchMeasurement& m,
                       const GraphBatch& b, const Context& context) {
  RunResult run;
  run.variant = c.variant->name;
  run.config = c.config;
  run.name = c.name;
  run.config_source = c.source;
  run.n = 1;
  for (int64_t g = 0; g < b.graphs(); ++g)
    run.n = std::max(run.n, static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]));
  run.graph = {"molecules", shape.seed, 0, shape.wmax, ""};
  run.verified = m.verified;
  if (!m.error.empty()) run.error = m.error;
  run.samples_ms = m.samples_ms;
  BatchDesc d;
  d.graphs = b.graphs();
  d.sizes = shape.sizes;
  d.vertices = b.vertex_ptr.back();
  d.edges = static_cast<int64_t>(b.src.size());
  d.updates = batch_updates(b);
  d.bytes = batch_bytes(b, m.elements, m.type);
  d.dist_type = name_of(m.type);
  const double ceiling = context.ceiling_updates_per_s, hbm = context.hbm_bytes_per_s;
  d.bound = hbm <= 0 || ceiling <= 0              ? "none"
            : d.bytes / hbm > d.updates / ceiling ? "memory"
                                                  : "compute";
  if (!m.samples_ms.empty()) {
    const Summary s = summarize(m.samples_ms);
    run.median_ms = s.median;
    run.min_ms = s.min;
    run.stddev_ms = s.stddev;
    run.cv = s.cv;
    run.updates_per_s = d.updates / (s.median / 1000.0);
    run.pct_of_ceiling = ceiling > 0 ? 100.0 * run.updates_per_s / ceiling : 0.0;
    d.graphs_per_s = static_cast<double>(d.graphs) / (s.median / 1000.0);
    d.pct_of_hbm = hbm > 0 ? 100.0 * d.bytes / (s.median / 1000.0) / hbm : 0.0;
  }
  run.batch = d;
  return run;
}

std::string batch_line(const RunResult& r) {
  const std::string head = fmt::format("{} graphs, n <= {}: {}: ", r.batch->graphs, r.n, r.name);
  if (r.samples_ms.empty()) return head + r.verified + " " + r.error.value_or("");
  const std::string shares =
      r.batch->bound == "none" ? std::string("no ceilings measured")
                               : fmt::format("{:.1f}% of min-plus, {:.1f}% of HBM ({}-bound)",
                                             r.pct_of_ceiling, r.batch->pct_of_hbm, r.batch->bound);
  return head + fmt::format("{:.3f} ms (median of {}), {:.4g} graphs/s, {}, verified {}",
                            r.median_ms, r.samples_ms.size(), r.batch->graphs_per_s, shares,
                            r.verified);
}

// The two ceilings every share is against, measured once before the runs (on a device).
void measure_ceilings(const Session& session, const BatchSweep& sweep, const Plan& plan,
                      Context& context) {
  const bool any_device = std::any_of(sweep.cases.begin(), sweep.cases.end(), [](const auto& c) {
    return c.variant->target == Target::kDevice;
  });
  if (!session.device || !any_device) return;
  fmt::print("measuring the int32 min-plus ceiling and the device memory bandwidth\n");
  if (plan.ceiling_s > 0)
    context.ceiling_updates_per_s = session.ceiling(plan.ceiling_s, kPrecisionInt32);
  context.hbm_bytes_per_s = measure_copy_bandwidth(kCopyBytes);
}

void write_batch_outputs(const Results& results, const BatchBenchArgs& a) {
  if (!a.json_out.empty()) write_file_atomic(a.json_out, to_json(results).dump(2) + "\n");
  if (!a.md_out.empty())
    write_file_atomic(a.md_out, "# Batches\n\n" + batch_ceilings_line(results.context) + "\n" +
                                    render_markdown(batch_grid(results)));
}

// Every shape's batch made once, every case measured on it; the JSON rewritten after each run.
Results run_sweep_of_batches(const BatchSweep& sweep, const BatchBenchArgs& a,
                             const Session& session, const std::vector<std::string>& argv) {
  Results results;
  results.context = make_context(session);
  results.context.argv = argv;
  results.complete = false;
  measure_ceilings(session, sweep, a.plan, results.context);
  SampleOptions sampling = a.sampling;
  sampling.flush_l2 = !a.warm;
  for (const BatchShape& shape : sweep.shapes) {
    fmt::print("batch: {}\n", shape_text(shape));
    const GraphBatch batch = make_batch(shape);
    BatchBench bench(batch);
    for (const BatchCase& c : sweep.cases) {
      const BatchMeasurement m = bench.measure(c, sampling);
      results.runs.push_back(batch_result(shape, c, m, batch, results.context));
      fmt::print("{}\n", batch_line(results.runs.back()));
      if (!a.json_out.empty()) write_file_atomic(a.json_out, to_json(results).dump(2) + "\n");
    }
  }
  results.complete = true;
  return results;
}

}  // namespace

int run_batch_bench(const BatchOptions& o, const CLI::App& app, const Plan& plan,
                    const std::vector<std::string>& argv) {
  BatchBenchArgs a = args_of(app, plan);
  const BatchSweep sweep = exit_if_thrown(kExitRefused, [&] {
    check_reps(a.sampling, app.get_option("--min-reps")->count() > 0,
               app.get_option("--reps")->count() > 0);
    return plan_batch_sweep(o, app, a);
  });
  if (a.dry_run) {
    print_dry_run(sweep, a);
    return kExitOk;
  }
  const bool needs_gpu = std::any_of(sweep.cases.begin(), sweep.cases.end(), [](const auto& c) {
    return c.variant->target == Target::kDevice;
  });
  if (needs_gpu && !has_device())
    throw ProgramExit(kExitNoDevice,
                      "no CUDA device: a batch sweep of GPU variants needs one (--variant "
                      "batch_cpu runs on the CPU; --dry-run shows the plan)");
  const Session session = Session::here();
  fmt::print("{}\n", session_line(session));
  const Results results = run_sweep_of_batches(sweep, a, session, argv);
  fmt::print("\n{}{}", render_text(batch_grid(results)), batch_ceilings_line(results.context));
  write_batch_outputs(results, a);
  const bool failed = std::any_of(results.runs.begin(), results.runs.end(),
                                  [](const auto& r) { return r.verified != "cpu-reference"; });
  if (failed) throw ProgramExit(kExitFailed, "some runs FAILED or could not run (see the table)");
  return kExitOk;
}

}  // namespace apsp::harness
