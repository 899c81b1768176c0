// tuner: searches the variants' declared parameters on this GPU through the harness
// (harness/tune/tuning.hpp): every candidate verified bit-exact before it is timed (a wrong one is
// disqualified, loudly); every measured point written to the tuning database at once, so a rerun
// resumes where an interrupted one stopped; the shipped defaults always measured beside.
// --emit-policy writes a policy table (policies/) from the database.
// Each leaderboard is printed (stdout line-buffered) and the --json file rewritten (marked
// incomplete) as its search finishes, so that a search stopped by SIGINT or SIGTERM
// (core/interrupt.hpp: exit 130 or 143) keeps what it measured; a rerun resumes from the database.
// Exit codes: 0 done, 1 a candidate was disqualified or a write failed, 2 bad usage, 3 no device.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/graph_formats.hpp"
#include "core/interrupt.hpp"
#include "core/tables.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/tuning.hpp"
#include "harness/userkernel/user_kernel.hpp"

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
};

// "batch (batched: batch2, batch3; ...), tile (sm90: tile, chunk, ...), all": from the registry.
std::string groups_help() {
  std::vector<std::string> parts;
  for (const std::string& g : search_groups()) {
    std::vector<std::string> owners;
    for (const Variant& v : registry()) {
      std::vector<std::string> names;
      for (const Param& p : params_in_group(v, g)) names.push_back(p.name);
      if (!names.empty()) owners.push_back(fmt::format("{}: {}", v.name, fmt::join(names, ", ")));
    }
    parts.push_back(fmt::format("{} ({})", g, fmt::join(owners, "; ")));
  }
  return fmt::format("which parameters: {}, or all", fmt::join(parts, ", "));
}

void add_options(CLI::App& app, Options& o) {
  harness::TuneOptions& t = o.tune;
  std::vector<std::string> groups = search_groups();
  groups.push_back("all");
  app.option_defaults()->always_capture_default();
  app.add_option("--search", t.group, groups_help())->check(CLI::IsMember(groups));
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
}

// The search as a plan: each variant at each size, on the options' graph. Returns the exit
// code: 1, with one line, when no point of a --kernel's search can run at any size on the dry
// run's device (its threads or shared memory), or when a size does not fit that device's
// memory, else 0.
int print_dry_run(const std::vector<const Variant*>& variants, const std::vector<int>& sizes,
                  const Options& o) {
  harness::Plan plan;
  plan.sizes = sizes;
  plan.graph = harness::tuning_graph(o.tune);
  harness::PlanNotes notes;
  notes.searches.emplace();
  for (const Variant* v : variants) {
    plan.requests.push_back(harness::Request{v, std::nullopt});
    notes.searches->push_back(harness::search_space(*v, o.tune));
  }
  bool fits = true;
  fmt::print("{}", harness::describe_plan(plan, notes, &fits));
  std::string assumed;
  const DeviceInfo dev = harness::dry_run_device(assumed);
  for (size_t i = 0; i < variants.size(); ++i) {
    if (variants[i]->kernel_hash.empty()) continue;
    std::vector<std::pair<Config, int>> runs;
    for (const Config& c : notes.searches->at(i).points)
      for (int n : sizes) runs.emplace_back(c, n);
    if (const std::string why = harness::kernel_never_runs(*variants[i], runs, dev); !why.empty()) {
      fmt::print(stderr, "tuner: {}\n", why);
      return kExitFailed;
    }
  }
  if (fits) return 0;
  fmt::print(stderr, "tuner: a size does not fit the device's memory (see the plan's warnings)\n");
  return kExitFailed;
}

void print_leaderboard(const harness::Leaderboard& b, const std::string& db) {
  fmt::print("\n{} at n = {}: {} search evaluated {} point(s), {} measured now, the rest from {}\n",
             b.variant, b.n, b.strategy, b.evaluated, b.measured_now, db);
  Grid g{{"rank", "config", "median ms", "95% CI", "vs default", "vs naive"}};
  int rank = 0;
  for (const harness::LeaderRow& r : b.rows) {
    g.push_back({std::to_string(++rank), r.entry.name, fmt::format("{:.3f}", r.entry.median_ms),
                 fmt::format("[{:.3f}, {:.3f}]", r.ci95.first, r.ci95.second),
                 r.vs_default ? fmt::format("{:.2f}x", *r.vs_default) : "-",
                 r.vs_naive ? fmt::format("{:.1f}x", *r.vs_naive) : "-"});
  }
  fmt::print("{}(vs default: against {}, the shipped default at this n)\n", render_text(g),
             b.default_name);
}

// The device a policy is emitted for: this machine's, else the one device model of the
// database (H200 limits assumed for the checks). Throws std::invalid_argument otherwise.
DeviceInfo policy_device(const TuningDb& db, const std::string& path) {
  if (has_device()) return query_device();
  std::vector<DeviceModel> models;
  for (const TuningEntry& e : db.entries())
    if (std::find(models.begin(), models.end(), e.device) == models.end())
      models.push_back(e.device);
  if (models.size() != 1)
    throw std::invalid_argument(
        fmt::format("--emit-policy without a GPU needs a database of one device model; {} "
                    "holds {}",
                    path, models.size()));
  DeviceInfo d = harness::nominal_h200();
  d.name = models[0].name;
  d.sms = models[0].sms;
  d.cc_major = models[0].cc.empty() ? 0 : models[0].cc[0] - '0';
  d.cc_minor = models[0].cc.size() < 3 ? 0 : models[0].cc[2] - '0';
  return d;
}

// Writes the policy table of the database's device; returns the exit code.
int emit_policy(const Options& o, const DeviceInfo& dev, const BuildId& build, const TuningDb& db,
                int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  TuningMatch match;
  match.device = DeviceModel::of(dev);
  match.graph = harness::tuning_key(harness::tuning_graph(o.tune));
  match.kernels = build.kernels;
  const nlohmann::json provenance{
      {"date", now_iso()},        {"commit", build.commit},
      {"kernels", build.kernels}, {"command", fmt::format("{}", fmt::join(args, " "))},
      {"database", o.db},         {"graph", graph_key_json(match.graph)}};
  std::vector<std::string> skipped;
  harness::Policy p =
      harness::policy_from_db(db, match, dev, provenance, harness::shipped_policies(), &skipped);
  // With --variant, only those: a table of its own beside the device's main one (a variant tuned
  // on another graph spec: sm90_u16 on unweighted graphs), which must not repeat its variants.
  if (!o.variants.empty()) {
    const std::vector<const Variant*> kept = harness::tunable_variants(o.variants, "all");
    std::erase_if(p.variants, [&](const auto& entry) {
      return std::none_of(kept.begin(), kept.end(),
                          [&](const Variant* v) { return v->name == entry.first; });
    });
  }
  for (const std::string& line : skipped) fmt::print("emit-policy: skipped {}\n", line);
  if (p.variants.empty()) {
    fmt::print(
        stderr,
        "tuner: {} has no usable entries for this device, graph and build: no policy written\n",
        o.db);
    return kExitFailed;
  }
  write_file_atomic(o.emit_policy, harness::to_json(p).dump(1) + "\n");
  for (const auto& [variant, ranges] : p.variants)
    for (const harness::PolicyRange& r : ranges)
      fmt::print("policy: {} for n {}..{}: {} ({:.3f} ms at n = {}{})\n", variant, r.n_min,
                 r.n_max == INT_MAX ? std::string() : std::to_string(r.n_max),
                 config_name(variant, r.config), r.median_ms, r.tuned_n,
                 r.default_ms > 0 ? fmt::format(", the default took {:.3f} ms", r.default_ms) : "");
  fmt::print("policy written to {}\n", o.emit_policy);
  return 0;
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
  o.workers.compile.arch = has_device() ? harness::arch_of(query_device()) : "sm_90";
  o.user_kernels =
      harness::register_user_kernels(o.kernels, params, Target::kIsolated, o.workers.compile);
  for (const auto& k : o.user_kernels.kernels) fmt::print("{}\n", harness::describe_compile(*k));
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

// --db, read and checked whole (the dry run too): a search starts an absent one, --emit-policy
// alone needs it there. Throws std::invalid_argument, one line naming the option and the file.
TuningDb read_database(const std::string& path, bool searching) {
  try {
    std::string note;
    TuningDb db = searching ? TuningDb::load(path, &note) : TuningDb::load_existing(path, &note);
    if (!note.empty()) fmt::print("{}\n", note);
    return db;
  } catch (const std::runtime_error& e) {  // its line starts with the file's name
    throw std::invalid_argument(fmt::format("--db {}", e.what()));
  }
}

// --graph read whole and checked (InputError: one line, its line and column); returns the one
// size, its V.
std::vector<int> read_graph_file(Options& o) {
  const auto say = [](const std::string& line) { fmt::print(stderr, "tuner: {}\n", line); };
  o.tune.graph_edges =
      std::make_shared<const EdgeList>(read_graph(o.tune.graph_file, o.input_format, 0, say));
  return {o.tune.graph_edges->num_vertices};
}

// The search checked and its database loaded; returns the exit code to stop with (2: bad input),
// or nothing to go on.
std::optional<int> prepare(Options& o, const CLI::App& app, Search& s) {
  try {
    check_outputs(o);
    s.sizes = o.tune.graph_file.empty() ? harness::parse_sizes(o.sizes) : read_graph_file(o);
    harness::Plan weights;
    weights.sizes = s.sizes;
    weights.graph = harness::tuning_graph(o.tune);
    harness::check_weights(weights);
    s.variants = searched_variants(o, app);
    if (!s.variants.empty())
      check_output_path(o.db, "--db");  // a search writes it after every point
    s.db = read_database(o.db, !s.variants.empty());
  } catch (const harness::CompileError& e) {
    fmt::print(stderr, "{}\n", harness::compile_failure_text("tuner", e));
    return kExitRefused;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tuner: {}\n", failure_text(e));
    return kExitRefused;
  }
  return std::nullopt;
}

// --emit-policy alone: from the database, no GPU needed; returns the exit code.
int emit_policy_alone(const Options& o, const TuningDb& db, int argc, char** argv) {
  try {
    return emit_policy(o, policy_device(db, o.db), harness::current_build(), db, argc, argv);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "tuner: {}\n", e.what());
    return kExitRefused;
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "tuner: {}\n", e.what());
    return kExitFailed;
  }
}

// What the tuner says it kept when SIGINT or SIGTERM stops it.
std::string kept_on_interrupt(const Options& o) {
  std::string kept = "every point measured is in " + o.db + " (a rerun resumes there)";
  if (!o.json_out.empty()) kept += ", the finished leaderboards in " + o.json_out;
  return kept;
}

// The search on this GPU, each leaderboard printed and --json rewritten as it finishes, then the
// policy if asked for; returns the exit code.
int tune_here(const Options& o, Search& s, int argc, char** argv) {
  if (!has_device()) {
    fmt::print(
        stderr,
        "tuner: no CUDA device found (--dry-run and --emit-policy alone work without one)\n");
    return kExitNoDevice;
  }
  const harness::Session session = harness::Session::here(o.workers);
  const DeviceInfo& dev = *session.device;
  fmt::print("device: {} (cc {}, {} SMs); database {}; build {} (kernels {})\n", dev.name, dev.cc(),
             dev.sms, o.db, session.build.commit, session.build.kernels);
  exit_on_interrupt("tuner", kept_on_interrupt(o));
  const harness::Observer observer{progress, [](const std::string& line) {
                                     progress_done();
                                     fmt::print("{}\n", line);
                                   }};
  // A FIFO or pipe gets the one whole file at the end: its reader would read every version.
  const auto write_json = [&](const harness::TuneReport& report) {
    if (!o.json_out.empty() && (report.complete || !written_as_stream(o.json_out)))
      write_file_atomic(o.json_out, harness::leaderboards_json(report, session).dump(2) + "\n");
  };
  try {
    harness::TuneReport none_yet;  // a file of an earlier search is not this one's
    none_yet.complete = false;
    write_json(none_yet);
    const harness::TuneReport report =
        harness::tune(s.variants, s.sizes, o.tune, session, s.db, o.db, observer,
                      [&](const harness::TuneReport& so_far) {
                        progress_done();
                        print_leaderboard(so_far.boards.back(), o.db);
                        write_json(so_far);
                      });
    progress_done();
    write_json(report);
    if (!o.emit_policy.empty() && emit_policy(o, dev, session.build, s.db, argc, argv) != 0)
      return kExitFailed;
    if (report.disqualified)
      fmt::print(stderr,
                 "tuner: some candidates gave wrong results and were disqualified (see above)\n");
    return report.disqualified ? kExitFailed : 0;
  } catch (const std::runtime_error& e) {  // a database or output write
    fmt::print(stderr, "tuner: {}\n", e.what());
    return kExitFailed;
  }
}

int run(int argc, char** argv) {
  // Line by line into a file or a pipe too, so that every line printed survives a stop.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options o;
  o.tune.sampling.min_time_s = 0.5;
  CLI::App app{
      "tuner: search the variants' declared parameters on this GPU.\n"
      "Each point is verified bit-exact, then timed; the tuning database records every point as "
      "it\n"
      "is measured (keyed by device, graph spec and build), and a rerun skips points already "
      "there\n"
      "(--fresh redoes). At each n the shipped defaults are measured too, so that picks can be\n"
      "checked against them. Your own kernel: tuner --kernel my_fw.cu --param BATCH2=1:8 searches\n"
      "any integer values of its macros, each point compiled at run time and verified.\n" +
      exit_codes_help("a candidate was disqualified (wrong result), --emit-policy found no usable "
                      "entries, or a write failed") +
      "\nStopped by SIGINT (Ctrl-C) or SIGTERM, it exits 130 or 143 and keeps what finished:\n"
      "every point measured in the database, every finished leaderboard on stdout and in --json\n"
      "(\"complete\": false).\n" +
      outputs_help()};
  add_options(app, o);
  if (const std::optional<int> rc = parse_command_line(app, argc, argv, "tuner")) return *rc;
  o.tune.graph.seed = o.tune.seed;
  Search s;
  if (const std::optional<int> rc = prepare(o, app, s)) return *rc;
  if (o.dry_run) return print_dry_run(s.variants, s.sizes, o);
  if (s.variants.empty()) return emit_policy_alone(o, s.db, argc, argv);
  return tune_here(o, s, argc, argv);
}

}  // namespace
}  // namespace apsp::tuner

int main(int argc, char** argv) { return apsp::run_program("tuner", apsp::tuner::run, argc, argv); }
