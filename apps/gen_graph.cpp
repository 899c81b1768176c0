// gen_graph: writes a seeded graph in the edge-list format (the generators of core/), or a
// batch of molecule-like graphs as NumPy's .npz (core/graph_batch.hpp).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/edge_list.hpp"
#include "core/generators.hpp"
#include "core/graph_batch.hpp"
#include "core/memory.hpp"
#include "harness/cli/program.hpp"

namespace apsp {
namespace {

// A batch of molecule-like graphs (--kind molecules): how many, and their sizes' distribution.
struct MoleculeOptions {
  int64_t graphs = -1;
  double mean_n = 15, sd_n = 4;
  int min_n = 3, max_n = 51;
};

struct Options {
  GraphSpec spec;
  std::string kind = "random", output;
  int64_t edges = -1;
  bool has_density = false;
  MoleculeOptions molecules;
};

void add_molecule_options(CLI::App& app, MoleculeOptions& m) {
  add_integer_option(app, "--graphs", m.graphs, int64_t{1}, int64_t{1} << 31,
                     "molecules: how many graphs");
  app.add_option("--mean-n", m.mean_n, "molecules: the sizes' mean")->check(CLI::Range(1.0, 512.0));
  app.add_option("--sd-n", m.sd_n, "molecules: the sizes' standard deviation")
      ->check(CLI::Range(0.0, 512.0));
  add_integer_option(app, "--min-n", m.min_n, 1, kMaxBatchGraphVertices,
                     "molecules: the smallest graph");
  add_integer_option(app, "--max-n", m.max_n, 1, kMaxBatchGraphVertices,
                     "molecules: the largest graph");
}

void add_options(CLI::App& app, Options& o) {
  GraphSpec& s = o.spec;
  app.option_defaults()->always_capture_default();
  app.add_option("--kind", o.kind,
                 graph_kind_names() + "|molecules (a batch of small graphs, as .npz)")
      ->check(CLI::IsMember(
          {"random", "chain", "grid", "components", "star", "road", "social", "molecules"}));
  CLI::Option* vertices = add_integer_option(app, "--V", s.num_vertices, 1, 1 << 30, "vertices");
  // Required of every kind but molecules, whose sizes --mean-n and --sd-n draw.
  app.callback([&o, vertices] {
    if (o.kind != "molecules" && vertices->count() == 0) throw CLI::RequiredError("--V");
  });
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
  add_molecule_options(app, o.molecules);
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

void check_molecule_options(const Options& o) {
  const MoleculeOptions& m = o.molecules;
  if (o.kind != "molecules") {
    if (m.graphs >= 0)
      throw harness::ProgramExit(kExitRefused, "--graphs applies to --kind molecules only");
    return;
  }
  if (m.graphs < 0) throw harness::ProgramExit(kExitRefused, "--kind molecules needs --graphs");
  if (o.output.empty() || o.output == "-")
    throw harness::ProgramExit(kExitRefused, "--kind molecules writes an .npz: give -o FILE");
  if (m.min_n > m.max_n)
    throw harness::ProgramExit(kExitRefused, "--min-n must not exceed --max-n");
}

// The batch (its arrays and the archive, `need` bytes at most), written whole or not at all.
int write_molecules(const Options& o) {
  const MoleculeOptions& m = o.molecules;
  // About 2.2 directed edges a vertex (a tree's bonds and the rings', both ways), 16 bytes each,
  // held twice (the arrays and the archive): 80 bytes a vertex is ample.
  const double mean = std::clamp(m.mean_n, double(m.min_n), double(m.max_n));
  const auto need = static_cast<uint64_t>(static_cast<double>(m.graphs) * (mean * 80 + 32));
  const Doing doing(fmt::format("generating {} molecule-like graphs", m.graphs), need);
  if (const MemoryLimit left = available_memory(); need > left.bytes)
    throw harness::ProgramExit(
        kExitRefused,
        fmt::format("{} graphs of up to {} vertices need about {}, more "
                    "than {}: {}",
                    m.graphs, m.max_n, human_bytes(need), left.source, human_bytes(left.bytes)));
  const GraphBatch batch =
      molecule_batch(m.graphs, m.mean_n, m.sd_n, m.min_n, m.max_n, o.spec.seed);
  AtomicFile f(o.output);
  f.write(format_batch_npz(batch));
  f.commit(/*sync=*/false);
  return 0;
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
  check_molecule_options(o);
  if (o.kind == "molecules") return write_molecules(o);
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
      "gen_graph: a seeded graph in the edge-list format ('V E', then 'src dst w'), or with\n"
      "--kind molecules a batch of molecule-like graphs as NumPy's .npz (ptr, edge_index).\n"
      "The same arguments give the same file on every platform.\n" +
          apsp::exit_codes_help("the output could not be written, or memory ran out", false) +
          "\n" + apsp::outputs_help()};
  return apsp::harness::run_program(
      program, argc, argv, [&](CLI::App& app) { apsp::add_options(app, o); },
      [&](const CLI::App&) { return apsp::run(o); });
}
