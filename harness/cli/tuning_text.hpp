// The tuner's search between its options and its output: --search's help from the registry, the
// database read, the dry run, and the search that prints each leaderboard as it finishes.
#pragma once

#include <string>
#include <vector>

#include "core/tuning_db.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/tune/tuning.hpp"

namespace apsp::harness {

// "which parameters: batch (batched: batch2, batch3; ...), tile (sm90: tile, chunk, ...), or all".
std::string search_groups_help();

// A leaderboard as it finishes: its heading (the search, the points measured now and those read
// from `db_path`), the table, and what "vs default" is against.
std::string leaderboard_text(const Leaderboard& b, const std::string& db_path);

// The search as a plan on stdout: each variant at each size, on the options' graph, with its
// space. ProgramExit (1) when no point of a user kernel's search (a variant with a kernel hash)
// can run at any size on the dry run's device (its threads or shared memory), or when a size does
// not fit that device's memory.
void tuning_dry_run(const std::vector<const Variant*>& variants, const std::vector<int>& sizes,
                    const TuneOptions& tune);

// --db, read and checked whole (the dry run too): a search starts an absent one, --emit-policy
// alone needs it there; a migration note printed. Throws std::invalid_argument, one line naming
// the option and the file.
TuningDb read_tuning_db(const std::string& path, bool searching);

// Where a search keeps what it measured: every point in the database as it is measured, each
// finished leaderboard in the --json file ("": none).
struct SearchKeeping {
  std::string program;  // the name SIGINT's and SIGTERM's line starts with
  std::string db_path, json_path;
};

// The search in `session`: the session's line, then each leaderboard printed and the --json file
// rewritten as it finishes ("complete": false until the end; a FIFO or pipe gets the one whole
// file at the end, its reader would read every version). SIGINT and SIGTERM exit at once, saying
// what was kept. Returns the report.
TuneReport run_search(const std::vector<const Variant*>& variants, const std::vector<int>& sizes,
                      const TuneOptions& options, const Session& session, TuningDb& db,
                      const SearchKeeping& keeping);

}  // namespace apsp::harness
