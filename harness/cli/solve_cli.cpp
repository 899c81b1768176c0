#include "harness/cli/solve_cli.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "core/console.hpp"
#include "core/integer.hpp"
#include "harness/cli/program.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

namespace {

// --path's vertices; throws std::invalid_argument.
std::pair<int64_t, int64_t> path_vertices(const std::vector<std::string>& text) {
  const auto vertex = [](const std::string& t) {
    try {
      return parse_integer<int64_t>(t, 0, INT64_MAX);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("--path: {}", e.what()));
    }
  };
  return {vertex(text[0]), vertex(text[1])};
}

// Who has standard output; throws std::invalid_argument.
void check_standard_output(const SolveOutputs& o, bool path) {
  if (path && o.output == "-")
    throw std::invalid_argument(
        "--path prints on standard output: give -o a file for the distances");
  if (o.paths == "-" && (path || o.output == "-"))
    throw std::invalid_argument(
        fmt::format("--paths - and {} both write standard output", path ? "--path" : "-o -"));
  if (o.row_ids == "-" && (path || o.output == "-" || o.paths == "-" || o.summary))
    throw std::invalid_argument(fmt::format(
        "--row-ids - and {} both write standard output",
        path ? "--path"
             : (o.output == "-" ? "-o -" : (o.paths == "-" ? "--paths -" : "--summary"))));
  if (!o.summary) return;
  if (!o.sources.empty())
    throw std::invalid_argument("--summary and --sources both decide what -o writes");
  if (o.output == "-" || path || o.paths == "-")
    throw std::invalid_argument(
        fmt::format("--summary prints on standard output, and so does {}: give it a file",
                    o.output == "-" ? "-o -" : (path ? "--path" : "--paths -")));
}

int exit_code(SolveFault fault) {
  switch (fault) {
    case SolveFault::kRefused:
      return kExitRefused;
    case SolveFault::kNoDevice:
      return kExitNoDevice;
    case SolveFault::kTooFewGpus:
      return kExitTooFewGpus;
    case SolveFault::kFailed:
      break;
  }
  return kExitFailed;
}

}  // namespace

void set_outputs(SolveOutputs& o, SolveRequest& r) {
  if (!o.path_text.empty()) r.path = path_vertices(o.path_text);
  if (!o.summary_json.empty()) o.summary = true;
  check_standard_output(o, r.path.has_value());
  const bool writes_distances =
      !o.summary && !o.no_output &&
      (!o.output.empty() || (o.path_text.empty() && o.paths != "-" && o.row_ids != "-"));
  if (writes_distances) r.distances_to = o.output.empty() ? "-" : o.output;
  if (!o.paths.empty()) r.next_hops_to = o.paths;
  if (!o.row_ids.empty()) r.row_ids_to = o.row_ids;
  r.sources = o.sources;
  r.summary = o.summary;
  if (o.summary && !o.output.empty()) r.per_vertex_to = o.output;
  if (!o.summary_json.empty()) r.summary_json_to = o.summary_json;
}

std::unique_ptr<Solver> solve_or_exit(const std::function<SolveRequest()>& make_request) {
  FieldNames names;
  try {
    SolveRequest request = make_request();
    names = request.names;
    auto solver = std::make_unique<Solver>(std::move(request));
    solver->run();
    return solver;
  } catch (const std::invalid_argument& e) {
    throw ProgramExit(kExitRefused, e.what());
  } catch (const CompileError& e) {
    throw ProgramExit(kExitRefused, e.what(), e.log);
  } catch (const SolveError& e) {
    throw ProgramExit(exit_code(e.fault), e.line(names));
  }
}

void print_out(const std::function<std::string()>& text) {
  try {
    fmt::print("{}", text());
    if (std::fflush(stdout) != 0) throw std::runtime_error(std::strerror(errno));
  } catch (const std::exception& e) {
    throw ProgramExit(kExitFailed, "standard output: " + failure_text(e));
  }
}

void print_timing(const Solver& s, double total_ms) {
  const uint64_t out = s.distances_bytes();
  for (const auto& [name, ms] : s.timing().steps) {
    std::string rate;
    if (name == "read" || name == "parse")
      rate = fmt::format("  {:.0f} MB/s", s.input_bytes() / 1e3 / ms);
    if (name == "write") rate = fmt::format("  {:.0f} MB/s ({:.1f} MB)", out / 1e3 / ms, out / 1e6);
    fmt::print(stderr, "  {:<22} {:>9.1f} ms{}\n", name, ms, rate);
  }
  fmt::print(stderr, "  {:<22} {:>9.1f} ms  (V = {}, E = {})\n", "total", total_ms, s.vertices(),
             s.edges());
}

}  // namespace apsp::harness
