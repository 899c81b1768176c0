// gen_graph: writes a seeded graph in the edge-list format (the generators of core/).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "core/atomic_file.hpp"
#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/edge_list.hpp"
#include "core/generators.hpp"
#include "core/memory.hpp"

int main(int argc, char** argv) {
  using namespace apsp;
  GraphSpec s;
  std::string kind = "random", output;
  int64_t edges = -1;
  bool has_density = false;
  CLI::App app{"gen_graph: a seeded graph in the edge-list format ('V E', then 'src dst w').\n"
               "The same arguments give the same file on every platform.\n" +
               exit_codes_help("the output could not be written, or memory ran out", false)};
  app.option_defaults()->always_capture_default();
  app.add_option("--kind", kind, "random|chain|grid|components|star")
      ->check(CLI::IsMember({"random", "chain", "grid", "components", "star"}));
  add_integer_option(app, "--V", s.num_vertices, 1, 1 << 30, "vertices")->required();
  add_integer_option(app, "--E", edges, int64_t{0}, int64_t{1} << 40, "random: exactly this many edges (drawn with replacement)");
  app.add_option_function<double>("--density", [&](double p) { s.density = p; has_density = true; },
                                  "random, components: probability of each ordered pair (default 0.01)")
      ->check(CLI::Range(0.0, 1.0));
  add_integer_option(app, "--wmin", s.wmin, 0, 1073741822, "smallest weight");
  add_integer_option(app, "--wmax", s.wmax, 0, 1073741822, "largest weight");
  add_integer_option(app, "--seed", s.seed, uint64_t{0}, UINT64_MAX, "seed");
  add_integer_option(app, "--components", s.components, 1, 1 << 30, "components: how many");
  app.add_option("-o,--output", output, "output file (appears only when whole); - or none: standard output");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    fmt::print(stderr, "gen_graph: {} (see --help)\n", e.what());
    return kExitRefused;
  }
  try {
    if (!output.empty()) check_output_path(output, "-o", /*dash_is_stdout=*/true);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "gen_graph: {}\n", e.what());
    return kExitRefused;
  }
  if (edges >= 0 && has_density) {
    fmt::print(stderr, "gen_graph: give --E or --density, not both\n");
    return kExitRefused;
  }
  if (edges >= 0 && kind != "random") {
    fmt::print(stderr, "gen_graph: --E applies to --kind random only\n");
    return kExitRefused;
  }
  s.kind = *parse_graph_kind(kind);
  s.num_edges = edges;
  if (!has_density) s.density = 0.01;
  // Checked before any work: --E 2^40 (the largest it takes) needs tens of terabytes.
  const uint64_t need = generation_bytes(s);
  if (const MemoryLimit left = available_memory(); need > left.bytes) {
    fmt::print(stderr, "gen_graph: {} needs about {} for its {} edges and their text, more than {}: {}\n",
               describe(s), human_bytes(need), expected_edges(s), left.source, human_bytes(left.bytes));
    return kExitRefused;  // too large for this machine: refused, as apsp refuses such a graph
  }
  try {
    const Doing doing(fmt::format("generating {}", describe(s)), need);
    const std::string text = format_edge_list(generate(s));
    if (output.empty() || output == "-") {
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
        fmt::print(stderr, "gen_graph: standard output: write failed\n");
        return kExitFailed;
      }
    } else {
      AtomicFile f(output);
      f.write(text);
      f.commit(/*sync=*/false);
    }
  } catch (const std::invalid_argument& e) {  // a spec generate() refuses
    fmt::print(stderr, "gen_graph: {}\n", e.what());
    return kExitRefused;
  } catch (const std::exception& e) {  // the output could not be written, or memory ran out
    fmt::print(stderr, "gen_graph: {}\n", failure_text(e));
    return kExitFailed;
  }
  return 0;
}
