// apsp's command line around the Solver (harness/solve/solver.hpp): the outputs as options name
// them, who has standard output, the solve whose faults end the program with their exit codes,
// and what it prints after. A step that ends the program throws ProgramExit
// (harness/cli/program.hpp).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/solve/solver.hpp"

namespace apsp::harness {

// What a solve writes, as the command line names it: each a file, "-" for standard output, ""
// for none.
struct SolveOutputs {
  std::string output;                  // -o: the distances, or with --summary each vertex's values
  std::string paths;                   // --paths: the next hops
  std::string row_ids;                 // --row-ids: the file's id of each row
  std::string summary_json;            // --summary-json (implies --summary)
  std::string sources;                 // --sources: only these rows of the distances
  std::vector<std::string> path_text;  // --path S T, as given
  bool summary = false;                // --summary
  bool no_output = false;  // --no-output: solve (and --verify) without writing the distances
};

// The outputs into the request (its path, sources, summary and files), checked among
// themselves. Standard output carries one thing: the path line (--path), the next hops (--paths
// -), the rows' ids (--row-ids -), the summary (its lines, or its JSON with --summary-json -), or
// else the distances, which are written unless the summary is asked for (-o then takes the
// per-vertex values), or another takes standard output and -o names no file. Throws
// std::invalid_argument (one line naming the options).
void set_outputs(SolveOutputs& o, SolveRequest& r);

// The request `make_request` builds, solved: the Solver after run(). ProgramExit when it is
// refused (std::invalid_argument: 2), a kernel file does not compile (2, with the compiler's
// log), or the Solver's fault (SolveError, its line naming the request's fields as its `names`
// do): 2 refused, 3 no device, 4 too few GPUs, 1 failed.
std::unique_ptr<Solver> solve_or_exit(const std::function<SolveRequest()>& make_request);

// Text for standard output (the path line, the summary), written and flushed; ProgramExit (1)
// "standard output: why" when it cannot be made or written.
void print_out(const std::function<std::string()>& text);

// --timing's table on stderr: each step's time (read and parse with their rate, the write with
// its size), then the total.
void print_timing(const Solver& s, double total_ms);

}  // namespace apsp::harness
