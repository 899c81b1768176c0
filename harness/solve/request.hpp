// What the solver behind apsp is asked, and how it ends when it does not finish. A program (or
// a binding) fills the request from its own arguments: nothing here parses a command line.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/matrix_io.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/solve/solve_input.hpp"

namespace apsp::harness {

// The solver's messages speak of the request: where one names a field of SolveRequest
// ("sources", "next_hops_to", "gpus", "db_path"), the field is marked (mention), and whoever shows
// the line names it as its user knows it: a program by its option (apsp: --sources, --paths),
// a binding by its keyword. Unnamed, a field reads as its own name.
std::string mention(std::string_view field);
using FieldNames = std::function<std::string(std::string_view field)>;
// `marked` with each mention replaced by name(field), or by the field's name where name is empty.
std::string with_field_names(std::string_view marked, const FieldNames& name = {});

struct SolveRequest {
  std::string input;  // a graph file (core/graph_formats.hpp), maybe gzipped; "-": stdin
  // A graph already in memory (the Python module's arrays), solved instead of reading `input`;
  // the result is then read from the Solver (Solver::each_band) rather than written.
  std::shared_ptr<const SolveInput> graph;
  std::string input_format = "auto";  // auto or a graph format's name (--input-format)
  std::string variant = "auto";       // auto, cpu, a variant's name (its default here) or a config
  std::string config;                 // a config as apsp_bench prints it; "": none
  std::string kernel;   // a kernel file compiled at run time (docs/kernel-contract.md); "": none
  std::string db_path;  // a tuning database auto, or the kernel, may pick from; "": none is read
  int gpus = 1;  // above 1: the distributed engine over this many GPUs; kAllGpus: every GPU here,
                 // or under a launcher every process's
  std::string transport = kDefaultTransport;  // how those ranks exchange panels (registered name)
  bool verify = false;  // the shortest-path certificate, before anything is written
  // One shortest path (s, t), read from the next hops after the solve (Solver::path_line); s and
  // t, as `sources` and the vertices the next hops name, are the file's ids (a SNAP list's ids,
  // EdgeList::ids; the vertex numbers of every other input).
  std::optional<std::pair<int64_t, int64_t>> path;
  // Where the distances and the next-hop matrix go: a file (it appears only when whole), or "-"
  // for standard output; nullopt: not written. row_ids_to: the file's id of each row, one a line.
  std::optional<std::string> distances_to, next_hops_to, row_ids_to;
  // The predecessor matrix, for Solver::each_predecessor_band (harness/solve/paths.hpp).
  bool predecessors = false;
  // False: distances past int32 are refused (std::range_error, one line) rather than solved
  // again in 64 bits, for a caller that can only take int32 (a device array's result).
  bool allow_64_bits = true;
  const MatrixFormat* format = &text_matrix_format();
  // Only these rows of the distances go to distances_to, in this order: "0,5,17" or "@FILE"
  // (harness/solve/summary.hpp: parse_sources); "": every row.
  std::string sources;
  // Answers without the matrix (harness/solve/summary.hpp), reduced where the distances are:
  // Solver::summary_lines(); per_vertex_to gets each vertex's eccentricity and closeness (CSV),
  // summary_json_to the summary as JSON; each a file, or "-" for standard output.
  bool summary = false;
  std::optional<std::string> per_vertex_to, summary_json_to;
  int threads = 0;      // CPU threads for parsing, output and the CPU solver (0: all)
  bool warm_up = true;  // run the chosen solve on a small matrix while the input is parsed
  // Lines for the user, without a program name ("solving with sm90[...] on ..."); may be empty.
  std::function<void(const std::string& line)> log;
  // How those lines name the request's fields (mention); empty: by the fields' names.
  FieldNames names;
};

// Why a request stopped: the classes a program tells apart (apsp's exit codes 2, 3, 4 and 1).
enum class SolveFault {
  kRefused,     // before the solve: the request, the input, or a graph too large for this machine
  kNoDevice,    // a GPU solve asked for, and no CUDA device
  kTooFewGpus,  // more GPUs asked for than there are
  kFailed,      // the solve, the certificate or a write failed; no file was replaced
};

// One line, without a program name. A kernel file that does not compile stops the solver with
// harness::CompileError instead (it carries the compiler's log), before the input is read.
// what() names the request's fields by their names; line() as a program names them.
class SolveError : public std::runtime_error {
 public:
  SolveError(SolveFault fault, const std::string& marked)
      : std::runtime_error(with_field_names(marked)), fault(fault), marked_(marked) {}
  std::string line(const FieldNames& name) const { return with_field_names(marked_, name); }
  SolveFault fault;

 private:
  std::string marked_;
};

}  // namespace apsp::harness
