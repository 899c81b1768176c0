// apsp: the contest-format solver's command line. Reads a graph file (the contest's edge list,
// DIMACS, SNAP, Matrix Market, maybe gzipped: core/graph_formats.hpp) and writes the V x V
// distances; --paths and --path add the next hops; --summary and --sources answer without the
// whole matrix. The work is the solver's (harness/solve/solver.hpp), so that another front end
// solves the same way; this file turns arguments into a request (harness/cli/solve_cli.hpp: the
// outputs, the faults' exit codes), with the exit codes --help lists.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string_view>

#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/graph_formats.hpp"
#include "core/matrix_io.hpp"
#include "harness/cli/program.hpp"
#include "harness/cli/solve_cli.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/plan/plan.hpp"
#include "harness/solve/solver.hpp"

namespace apsp {
namespace {

using Clock = std::chrono::steady_clock;

// The solver's messages name its request's fields (harness/solve/request.hpp: mention); apsp's
// user knows them by its options: --sources for sources, --input-format for input_format.
std::string option_of(std::string_view field) {
  static const std::map<std::string_view, std::string_view> named = {
      {"distances_to", "-o"},
      {"per_vertex_to", "-o"},
      {"next_hops_to", "--paths"},
      {"row_ids_to", "--row-ids"},
      {"summary_json_to", "--summary-json"},
      {"db_path", "--db"},
      {"predecessors", "predecessors"}};  // no option: the library's word
  if (const auto it = named.find(field); it != named.end()) return std::string(it->second);
  std::string option = "--" + std::string(field);
  std::replace(option.begin(), option.end(), '_', '-');
  return option;
}

struct Options {
  std::string input, input_format = "auto", variant = "auto", config, db_path, kernel,
                     format = "text";
  harness::SolveOutputs out;  // -o, --paths, --row-ids, --path, --summary(-json), --sources
  bool timing = false, no_warm_up = false, verify = false;
  int threads = 0;
  std::string gpus = "1";                              // --gpus: one count, or all
  std::string transport = harness::kDefaultTransport;  // --transport, --ranks-on-one-gpu
};

// --gpus as one count (all: kAllGpus, which the solver resolves); 1 when not given. Throws
// std::invalid_argument.
int one_gpu_count(const std::string& gpus) {
  std::vector<int> counts = harness::parse_gpu_counts(gpus);
  if (counts.size() != 1)
    throw std::invalid_argument(fmt::format("--gpus {}: apsp solves on one GPU count", gpus));
  return counts[0];
}

// The solver's request from the options, checked among themselves before anything is read or
// compiled (the outputs by the solver's own check); throws std::invalid_argument (one line).
harness::SolveRequest request_of(Options& o) {
  harness::SolveRequest r;
  harness::set_outputs(o.out, r);
  r.input = o.input;
  r.input_format = o.input_format;
  r.variant = o.variant;
  r.config = o.config;
  r.kernel = o.kernel;
  r.db_path = o.db_path;
  r.gpus = one_gpu_count(o.gpus);
  r.transport = o.transport;
  r.verify = o.verify;
  r.format = parse_matrix_format(o.format);  // --format's check admits only registered names
  r.threads = o.threads;
  r.warm_up = !o.no_warm_up;
  r.log = [](const std::string& line) { fmt::print(stderr, "apsp: {}\n", line); };
  r.names = option_of;
  return r;
}

std::string help_text() {
  return R"(apsp: all-pairs shortest paths of a graph file.
Input: 'V E', then E lines 'src dst w' (0-based, 0 <= w <= 2^31-1); or DIMACS .gr, a SNAP
edge list or Matrix Market .mtx (--input-format), any of them gzipped. Output: V lines of
V distances separated by one space; unreachable = 1073741823, whatever precision solved the
graph (a distance of 1073741823 or more, which this format cannot hold, is written as that and
counted on stderr; --format npy or bin writes every distance exactly).
A SNAP list's rows are its ids in increasing order (ids 0..V-1: row k is id k); --sources,
--path and the next hops speak the file's ids; --row-ids FILE writes the id of every row.
--variant auto (the default) solves with sm90 at this device's policy config for V (see
policies/), or with sm90_u16 (16-bit distances, about twice the rate) where the weights are
below 32767 and one sweep from a vertex does not show a distance that rules 16 bits out; every
result is proven exact after the solve and solved again wider (int32, then 64 bits) where the
proof fails, so the output is the same either way. With --db it takes a tuning database's pick where the
database measured it faster than that default. No database is read unless --db names one.
Paths: --paths FILE writes the next-hop matrix (next[i][j]: the first vertex after i on a
shortest path, -1 when unreachable or i == j) in --format; --path S T prints one path and its
length on standard output, and the distances then go only to -o FILE. Standard output takes
one of: the distances (no -o, or -o -), the next hops (--paths -), the path line (--path),
the summary (--summary).
-o, --paths and the input must be different files.
Answers without the V x V matrix (reduced where the distances are, on the GPUs or the CPU):
--summary prints the diameter, the radius, the average shortest path length and the reachable
pairs, each over the reachable pairs only (an unreachable pair is left out; NetworkX raises
where the graph is not strongly connected); with -o FILE it writes a CSV of each vertex's
eccentricity (over the vertices it reaches) and closeness centrality (NetworkX's, from the
distances into it) instead of the distances. --summary-json FILE (implies --summary) writes the
summary as JSON; - puts it on standard output in place of the lines. --sources 0,5,17 (or
@FILE: ids separated by spaces, commas or lines, '#' comments) writes only those rows of the
distances, in that order, in --format. Vertex ids are the file's (0-based for the contest's
edge list, its own ids for a SNAP list).
)" + exit_codes_help("a solve or a write; no file is replaced") +
         " 3: a GPU variant was asked for (without one, auto solves on the CPU).\n" +
         outputs_help();
}

// --summary, --summary-json and --sources: answers without the whole matrix.
void add_answer_options(CLI::App& app, Options& o) {
  app.add_flag("--summary", o.out.summary,
               "print the diameter, radius, average shortest path length and reachable pairs "
               "(over reachable pairs only); -o FILE then takes each vertex's eccentricity and "
               "closeness (CSV), not the distances");
  app.add_option("--summary-json", o.out.summary_json,
                 "write the summary as JSON here (implies --summary); - : standard output, in "
                 "place of the lines")
      ->check(file_to_write());
  app.add_option("--sources", o.out.sources,
                 "write only these rows of the distances, in this order: 0,5,17 or @FILE (ids "
                 "separated by spaces, commas or lines; '#' comments)")
      ->type_name("LIST|@FILE")
      ->check(CLI::Validator(
          [](const std::string& s) { return s.empty() ? std::string("an empty list") : ""; }, ""));
}

void add_options(CLI::App& app, Options& o) {
  app.option_defaults()->always_capture_default();
  app.add_option("input", o.input, "graph file (maybe gzipped), or - for standard input")
      ->required();
  app.add_option("--input-format", o.input_format, graph_formats_help())
      ->check(CLI::IsMember(graph_format_names()));
  app.add_option("-o,--output", o.out.output,
                 "output file (a regular file appears only when whole, the old one stays "
                 "otherwise: see Outputs); - or none: standard output")
      ->check(file_to_write());
  app.add_option("--variant", o.variant,
                 "auto (the shipped default, or --db's pick), cpu, a variant name (its default "
                 "for this device and V), or a config");
  app.add_option("--config", o.config,
                 "a config as apsp_bench prints it, e.g. 'sm90[tile=64,chunk=8]'");
  app.add_option("--format", o.format, matrix_formats_help())
      ->check(CLI::IsMember(matrix_format_names()));
  app.add_option("--kernel", o.kernel,
                 "solve with a Floyd-Warshall kernel file compiled at run time "
                 "(docs/kernel-contract.md), at the file's macro values (or --config "
                 "NAME[MACRO=value,...])")
      ->check(CLI::ExistingFile);
  app.add_option("--paths", o.out.paths,
                 "write the next-hop matrix here, in --format (as -o); - : standard output")
      ->check(file_to_write());
  app.add_option("--path", o.out.path_text,
                 "print a shortest path from S to T and its length on standard output")
      ->expected(2)
      ->type_name("S T")
      ->default_str("");
  app.add_option("--row-ids", o.out.row_ids,
                 "write the file's id of each row of the outputs here, one a line (a SNAP list's "
                 "ids; 0..V-1 for other inputs); - : standard output")
      ->check(file_to_write());
  app.add_option("--db", o.db_path,
                 "a tuning database for --variant auto, or for --kernel: the tuner's pick for the "
                 "file (none is read unless given)");
  add_answer_options(app, o);
  add_integer_option(app, "--threads", o.threads, 0, 4096,
                     "CPU threads for parsing, output and the CPU solver (0: all)");
  app.add_flag("--timing", o.timing, "print read, parse, build, solve and write times to stderr");
  app.add_flag("--no-output", o.out.no_output,
               "solve (and --verify) without writing the distances: for timing a graph whose "
               "matrix is larger than the disk")
      ->excludes("-o");
  app.add_flag("--verify", o.verify,
               "check the result with the shortest-path certificate (every entry against the "
               "edges, on the GPU after a GPU solve) before anything is written; a fault exits 1");
  add_gpu_options(app, o.gpus, o.transport, harness::transports(),
                  "solve over this many GPUs (or 'all') with the distributed engine "
                  "(docs/multi-gpu.md): sm90's config, row blocks per GPU, the pivot panel "
                  "broadcast over NCCL; --verify runs on each GPU over its rows and the distances "
                  "go to the writer in bands (only --paths gathers them on the host)");
  app.add_flag(
      "--no-warm-up", o.no_warm_up,
      "do not run the chosen solve once on a small matrix while the input is parsed (it loads "
      "the kernels off the clock; --timing's solve then includes that first-launch cost)");
}

// The solve and its outputs; the exit code.
int solve(Options& o) {
  const auto start = Clock::now();
  const std::unique_ptr<harness::Solver> solver =
      harness::solve_or_exit([&] { return request_of(o); });
  if (!o.out.path_text.empty()) harness::print_out([&] { return solver->path_line() + "\n"; });
  if (o.out.summary && o.out.summary_json != "-")
    harness::print_out([&] { return solver->summary_lines(); });
  if (o.timing && solver->speaks())
    harness::print_timing(*solver,
                          std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  return 0;
}

}  // namespace
}  // namespace apsp

int main(int argc, char** argv) {
  apsp::Options o;
  return apsp::harness::run_program(
      {"apsp", apsp::help_text()}, argc, argv, [&](CLI::App& app) { apsp::add_options(app, o); },
      [&](const CLI::App&) { return apsp::solve(o); });
}
