// tuner: searches the variants' declared parameters on this GPU through the harness
// (harness/tune/tuning.hpp, harness/cli/tuning_text.hpp): every candidate verified bit-exact
// before it is timed, every point written to the tuning database as it is measured (a rerun
// resumes there), the shipped defaults measured beside; --emit-policy writes a policy table
// (policies/) from the database. Exit codes: --help's.
#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/graph_formats.hpp"
#include "harness/cli/batch_tune.hpp"
#include "harness/cli/policy_emit.hpp"
#include "harness/cli/program.hpp"
#include "harness/cli/tuning_text.hpp"
#include "harness/cli/user_kernels.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/tuning.hpp"

namespace apsp::tuner {
namespace {

struct Options {
  std::string variants, sizes = "2500,10000", db = "tuning.json", json_out, emit_policy;
  std::string input_format = "auto";
  bool dry_run = false;
  harness::TuneOptions tune;
  std::vector<std::string> kernels, params;  // --kernel files, --param NAME=VALUES
  harness::WorkerOptions workers;
  harness::UserKernels user_kernels;
  harness::BatchTuneOptions batch;  // --graphs: the batched variants per size band instead
  Options() {
    tune.sampling.min_time_s = 0.5;
  }  // a point's samples: half a second, not the bench's
};

void add_options(CLI::App& app, Options& o) {
  harness::TuneOptions& t = o.tune;
  std::vector<std::string> groups = search_groups();
  groups.push_back("all");
  app.option_defaults()->always_capture_default();
  app.add_option("--search", t.group, harness::search_groups_help())->check(CLI::IsMember(groups));
  app.add_option("--variant", o.variants,
                 "variants to tune, comma separated (default: every variant with such parameters)");
  app.add_option("--n", o.sizes, "sizes, comma separated");
  app.add_option(
         "--strategy", t.strategy,
         "grid, random, local (hill climbing), or auto: grid when the space fits the budget")
      ->check(CLI::IsMember({"auto", "grid", "random", "local"}));
  add_integer_option(app, "--budget", t.budget, 0, 1000000,
                     "most points measured per (variant, n); 0: the whole space");
  add_integer_option(app, "--seed", t.seed, uint64_t{0}, UINT64_MAX,
                     "seed of the random and local strategies and of the graph");
  app.add_option("--db", o.db, "tuning database (JSON, schema apsp-tuning/2)");
  app.add_flag("--fresh", t.fresh, "measure again points the database already has");
  app.add_option("--json", o.json_out, "write the leaderboards as JSON")->check(file_to_write());
  app.add_option("--emit-policy", o.emit_policy,
                 "write a policy table (schema apsp-policy/1) from --db: each variant's fastest "
                 "config per tuned n on this device (alone and without a GPU: the database's one "
                 "device model), where the database also holds the default it replaces; commit the "
                 "file under policies/. With --variant (and a search), only those variants: a "
                 "second table for the device (sm90_u16, tuned on --wmax 1)")
      ->check(file_to_write());
  add_integer_option(app, "--top", t.top, 1, 1 << 30, "configs per leaderboard");
  add_integer_option(app, "--reps", t.sampling.max_reps, 1, 1 << 30, "most samples per point");
  app.add_option("--min-time", t.sampling.min_time_s,
                 "seconds of samples per point (within 3..--reps)")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--density", t.graph.density, "edge probability of the random graph")
      ->check(CLI::Range(0.0, 1.0));
  add_integer_option(app, "--wmax", t.graph.wmax, 1, 1 << 30, "largest edge weight");
  app.add_option("--graph", t.graph_file,
                 "tune on this graph file instead (n = its V): an edge list, DIMACS, SNAP or "
                 "Matrix Market, maybe gzipped (--input-format); the database keys its entries by "
                 "the path as given, as apsp_bench --graph --tuned looks them up");
  app.add_option("--input-format", o.input_format, "--graph's format: " + graph_formats_help())
      ->check(CLI::IsMember(graph_format_names()));
  app.add_option("--kernel", o.kernels,
                 "tune a Floyd-Warshall kernel file compiled at run time (docs/kernel-contract.md) "
                 "over the --param parameters instead of the variants (repeatable)")
      ->check(CLI::ExistingFile);
  app.add_option("--param", o.params,
                 "with --kernel: a parameter of the file (TILE, BATCH2, BATCH3, or a macro it "
                 "defines as #ifndef NAME / #define NAME <positive integer>) and the values to "
                 "search, set with -D: NAME=FIRST:LAST or NAME=V1,V2,... (repeatable)");
  app.add_option(
         "--kernel-timeout", o.workers.timeout_s,
         "seconds one solve of a --kernel may take before it is stopped and counted as failed")
      ->check(CLI::Range(0.1, 1e6));
  app.add_flag("--dry-run", o.dry_run,
               "list the spaces and the points that would be rejected, and why; needs no GPU");
  harness::add_batch_tune_options(app, o.batch);
}

// --kernel: each file compiled (exit 2 if it does not) and tuned over the --param macros, in
// the worker processes that isolate user kernels.
std::vector<const Variant*> user_kernels(Options& o, bool variants_asked) {
  if (variants_asked)
    throw std::invalid_argument(
        "--kernel tunes the files' --param macros: tune --variant / --search in another run");
  if (o.params.empty())
    throw std::invalid_argument("--kernel: give the macros to search with --param NAME=VALUES");
  std::vector<Param> params;
  for (const std::string& text : o.params) params.push_back(harness::parse_kernel_param(text));
  o.user_kernels = harness::compile_user_kernels(
      o.kernels, params, o.workers, has_device() ? std::optional(query_device()) : std::nullopt);
  o.tune.group = "kernel";  // the --param macros' search group
  return o.user_kernels.variants;
}

// What the options ask for, checked: the sizes, the variants to search (none: --emit-policy
// alone) and the database.
struct Search {
  std::vector<int> sizes;
  std::vector<const Variant*> variants;
  TuningDb db;
};

// The variants the options ask to search: --kernel's files, or the registry's; throws
// std::invalid_argument (one line) on options that do not go together.
std::vector<const Variant*> searched_variants(Options& o, const CLI::App& app) {
  if (!o.kernels.empty()) return user_kernels(o, app.count("--search") || app.count("--variant"));
  if (!o.params.empty())
    throw std::invalid_argument(
        "--param sets the macros of a --kernel file: give the file with --kernel");
  if (o.emit_policy.empty() || app.count("--search") || app.count("--variant"))
    return harness::tunable_variants(o.variants, o.tune.group);
  return {};
}

// Each output can be written, and none is another or a --kernel file; throws
// std::invalid_argument (one line). The database is read and rewritten in place by design: as
// an output it must differ from --json and --emit-policy.
void check_outputs(const Options& o) {
  std::vector<FileUse> files{{o.json_out, "--json"}, {o.emit_policy, "--emit-policy"}};
  for (const FileUse& f : files)
    if (!f.path.empty()) check_output_path(f.path, f.option);
  files.push_back({o.db, "--db"});
  files.push_back({o.tune.graph_file, "--graph", false});
  for (const std::string& k : o.kernels) files.push_back({k, "--kernel", false});
  check_distinct_files(files);
}

// --graph read whole and checked (InputError: one line, its line and column); returns the one
// size, its V.
std::vector<int> read_graph_file(Options& o) {
  const auto say = [](const std::string& line) { fmt::print(stderr, "tuner: {}\n", line); };
  o.tune.graph_edges =
      std::make_shared<const EdgeList>(read_graph(o.tune.graph_file, o.input_format, 0, say));
  return {o.tune.graph_edges->num_vertices};
}

// The search checked and its database loaded; any fault is a refusal (exit 2).
void prepare(Options& o, const CLI::App& app, Search& s) {
  check_outputs(o);
  s.sizes = o.tune.graph_file.empty() ? harness::parse_sizes(o.sizes) : read_graph_file(o);
  harness::Plan weights;
  weights.sizes = s.sizes;
  weights.graph = harness::tuning_graph(o.tune);
  harness::check_weights(weights);
  s.variants = searched_variants(o, app);
  if (!s.variants.empty()) check_output_path(o.db, "--db");  // a search writes it after every point
  s.db = harness::read_tuning_db(o.db, !s.variants.empty());
}

harness::PolicyOutput policy_output(const Options& o, int argc, char** argv) {
  return {o.emit_policy, o.db, o.variants, std::vector<std::string>(argv, argv + argc)};
}

// The search on this GPU, then the policy if asked for; returns the exit code.
int tune_here(const Options& o, Search& s, int argc, char** argv) {
  if (!has_device())
    throw harness::ProgramExit(
        kExitNoDevice, "no CUDA device found (--dry-run and --emit-policy alone work without one)");
  const harness::Session session = harness::Session::here(o.workers);
  try {
    const harness::TuneReport report = harness::run_search(s.variants, s.sizes, o.tune, session,
                                                           s.db, {"tuner", o.db, o.json_out});
    if (!o.emit_policy.empty())
      harness::emit_policy(policy_output(o, argc, argv), s.db, o.tune, *session.device,
                           session.build);
    if (report.disqualified)
      throw harness::ProgramExit(
          kExitFailed, "some candidates gave wrong results and were disqualified (see above)");
    return 0;
  } catch (const harness::ProgramExit&) {
    throw;
  } catch (const std::runtime_error& e) {  // a database or output write
    throw harness::ProgramExit(kExitFailed, e.what());
  }
}

int run(Options& o, const CLI::App& app, int argc, char** argv) {
  if (o.batch.asked()) return harness::run_batch_tune(o.batch, app);
  o.tune.graph.seed = o.tune.seed;
  Search s;
  harness::exit_if_thrown(kExitRefused, [&] { prepare(o, app, s); });
  if (o.dry_run) {
    harness::tuning_dry_run(s.variants, s.sizes, o.tune);
    return 0;
  }
  if (s.variants.empty()) {
    harness::emit_policy_alone(policy_output(o, argc, argv), s.db, o.tune);
    return 0;
  }
  return tune_here(o, s, argc, argv);
}

std::string about() {
  return "tuner: search the variants' declared parameters on this GPU.\n"
         "Each point is verified bit-exact, then timed; the tuning database records every point "
         "as it\n"
         "is measured (keyed by device, graph spec and build), and a rerun skips points already "
         "there\n"
         "(--fresh redoes). At each n the shipped defaults are measured too, so that picks can be\n"
         "checked against them. Your own kernel: tuner --kernel my_fw.cu --param BATCH2=1:8 "
         "searches\n"
         "any integer values of its macros, each point compiled at run time and verified.\n" +
         exit_codes_help(
             "a candidate was disqualified (wrong result), --emit-policy found no "
             "usable entries, or a write failed") +
         "\nStopped by SIGINT (Ctrl-C) or SIGTERM, it exits 130 or 143 and keeps what finished:\n"
         "every point measured in the database, every finished leaderboard on stdout and in "
         "--json\n"
         "(\"complete\": false).\n" +
         outputs_help();
}

}  // namespace
}  // namespace apsp::tuner

int main(int argc, char** argv) {
  apsp::tuner::Options o;
  return apsp::harness::run_program(
      {"tuner", apsp::tuner::about(), /*line_buffered=*/true}, argc, argv,
      [&](CLI::App& app) { apsp::tuner::add_options(app, o); },
      [&](const CLI::App& app) { return apsp::tuner::run(o, app, argc, argv); });
}
