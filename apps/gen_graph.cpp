// gen_graph: writes a seeded graph in the edge-list format (the generators of core/).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/edge_list.hpp"
#include "core/generators.hpp"
#include "core/memory.hpp"
#include "harness/cli/program.hpp"

namespace apsp {
namespace {

struct Options {
  GraphSpec spec;
  std::string kind = "random", output;
  int64_t edges = -1;
  bool has_density = false;
};

void add_options(CLI::App& app, Options& o) {
  GraphSpec& s = o.spec;
  app.option_defaults()->always_capture_default();
  app.add_option("--kind", o.kind, graph_kind_names())
      ->check(CLI::IsMember({"random", "chain", "grid", "components", "star", "road", "social"}));
  add_integer_option(app, "--V", s.num_vertices, 1, 1 << 30, "vertices")->required();
  add_integer_option(app, "--E", o.edges, int64_t{0}, int64_t{1} << 40,
                     "random: exactly this many edges (drawn with replacement)");
  app.add_option_function<double>(
         "--density",
         [&o](double p) {
           o.spec.density = p;
           o.has_density = true;
         },
         "random, components: probability of each ordered pair (default 0.01)")
      ->check(CLI::Range(0.0, 1.0));
  add_integer_option(app, "--wmin", s.wmin, 0, 1073741822, "smallest weight");
  add_integer_option(app, "--wmax", s.wmax, 0, 1073741822,
                     "largest weight (road: of a grid edge, the longest weighing it)");
  add_integer_option(app, "--seed", s.seed, uint64_t{0}, UINT64_MAX, "seed");
  add_integer_option(app, "--components", s.components, 1, 1 << 30, "components: how many");
  add_integer_option(app, "--long-edges", s.long_edges, int64_t{0}, int64_t{1} << 40,
                     "road: random long edges, each both ways, at 1 to 1.5 times their metric "
                     "length (so they may weigh more than --wmax)");
  add_integer_option(app, "--attach", s.attach, 1, 1 << 20,
                     "social: edges from each new vertex to earlier ones, by their degree");
  app.add_option("-o,--output", o.output,
                 "output file (a regular file appears only when whole: see Outputs); - or none: "
                 "standard output")
      ->check(file_to_write());
}

// The options CLI11 cannot check alone: a refusal (exit 2) with the reason.
void check_options(const Options& o) {
  try {
    if (!o.output.empty()) check_output_path(o.output, "-o", /*dash_is_stdout=*/true);
  } catch (const std::invalid_argument& e) {
    throw harness::ProgramExit(kExitRefused, e.what());
  }
  if (o.edges >= 0 && o.has_density)
    throw harness::ProgramExit(kExitRefused, "give --E or --density, not both");
  if (o.edges >= 0 && o.kind != "random")
    throw harness::ProgramExit(kExitRefused, "--E applies to --kind random only");
  if (o.spec.long_edges > 0 && o.kind != "road")
    throw harness::ProgramExit(kExitRefused, "--long-edges applies to --kind road only");
}

// Generates the graph (`need` bytes at most) and writes it; a fault of the output or of memory is
// the scaffold's one line and exit 1.
void write_graph(const GraphSpec& s, const std::string& output, uint64_t need) {
  const Doing doing(fmt::format("generating {}", describe(s)), need);
  std::string text;
  try {
    text = format_edge_list(generate(s));
  } catch (const std::invalid_argument& e) {  // a spec generate() refuses
    throw harness::ProgramExit(kExitRefused, e.what());
  }
  if (!output.empty() && output != "-") {
    AtomicFile f(output);
    f.write(text);
    f.commit(/*sync=*/false);
  } else if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
             std::fflush(stdout) != 0) {
    throw harness::ProgramExit(kExitFailed, "standard output: write failed");
  }
}

int run(Options& o) {
  check_options(o);
  GraphSpec& s = o.spec;
  s.kind = *parse_graph_kind(o.kind);
  s.num_edges = o.edges;
  if (!o.has_density) s.density = 0.01;
  // Checked before any work: --E 2^40 (the largest it takes) needs tens of terabytes.
  const uint64_t need = generation_bytes(s);
  if (const MemoryLimit left = available_memory(); need > left.bytes)
    // too large for this machine: refused, as apsp refuses such a graph
    throw harness::ProgramExit(
        kExitRefused,
        fmt::format("{} needs about {} for its {} edges and their text, more than {}: {}",
                    describe(s), human_bytes(need), expected_edges(s), left.source,
                    human_bytes(left.bytes)));
  write_graph(s, o.output, need);
  return 0;
}

}  // namespace
}  // namespace apsp

int main(int argc, char** argv) {
  apsp::Options o;
  const apsp::harness::Program program{
      "gen_graph",
      "gen_graph: a seeded graph in the edge-list format ('V E', then 'src dst w').\n"
      "The same arguments give the same file on every platform.\n" +
          apsp::exit_codes_help("the output could not be written, or memory ran out", false) +
          "\n" + apsp::outputs_help()};
  return apsp::harness::run_program(
      program, argc, argv, [&](CLI::App& app) { apsp::add_options(app, o); },
      [&](const CLI::App&) { return apsp::run(o); });
}
