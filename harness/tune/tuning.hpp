// The tuner as a library: searches the parameters of a search group over each size, every
// point verified bit-exact before it is sampled (a wrong one is disqualified), every measured
// point written to the tuning database at once. At each size it always records the reference
// points: the baseline (naive), each tuned variant's shipped default, and the solver's shipped
// default (sm90's), so picks from the database can be checked against what runs without it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/generators.hpp"
#include "core/tuning_db.hpp"
#include "harness/measure/sampler.hpp"
#include "harness/pipeline/describe_plan.hpp"
#include "harness/pipeline/pipeline.hpp"

namespace apsp::harness {

struct TuneOptions {
  std::string group = "batch";    // the search group (Param::group), or "all"
  std::string strategy = "auto";  // grid, random, local; auto: grid when the space fits the budget
  int budget = 0;                 // most points per (variant, n); 0: the whole space
  uint64_t seed = 1;
  bool fresh = false;  // measure again points the database has
  SampleOptions sampling;
  GraphSpec graph;  // num_vertices set per n
  // A graph file instead (--graph): its path and its edges, read before the search; its V is
  // then the one size.
  std::string graph_file;
  std::shared_ptr<const EdgeList> graph_edges;
  int top = 5;                     // leaderboard rows
  std::string baseline = "naive";  // measured at every n: the leaderboards' "vs naive"
  std::string solver;              // its shipped default measured at every n; "": kSolverVariant
};

struct LeaderRow {
  TuningEntry entry;  // a copy: the database grows (and moves) while the search goes on
  std::pair<double, double> ci95;  // of its median
  std::optional<double> vs_default, vs_naive;
};

struct Leaderboard {
  std::string variant;
  int n = 0;
  std::string strategy;
  int evaluated = 0, measured_now = 0;
  std::string default_name;  // the shipped default it is compared with
  std::vector<LeaderRow> rows;
};

struct TuneReport {
  std::vector<Leaderboard> boards;
  bool disqualified = false;  // a candidate gave a wrong result
  // False in the reports told while the search goes on (tune's `board_done`): `boards` are the
  // searches that had finished.
  bool complete = true;
};

// The graph the options search on: the file's, else the generator spec's (num_vertices per n).
GraphInput tuning_graph(const TuneOptions& o);

// The variants with parameters in `group`, from `names` (comma separated; empty: all).
// Throws std::invalid_argument with one line when none qualifies or a name is unknown.
std::vector<const Variant*> tunable_variants(const std::string& names, const std::string& group);

// Strategy "auto" resolved for a space of `points` points.
std::string resolve_strategy(const TuneOptions& o, size_t points);
// The most points of a space of `points` a search visits: all of them for grid, else
// --budget (0: the whole space). The tuner's dry run and its progress line count with it.
size_t points_to_visit(const TuneOptions& o, size_t points);

// The points a search of v's `group` visits: the combinations of its parameters in the group
// (the others at `base`) that have a compiled kernel.
std::vector<Config> search_points(const Variant& v, const std::string& group, const Config& base);

// The space a search of v visits (from its declared defaults), as a dry run describes it
// (harness/pipeline/describe_plan.hpp).
SearchSpace search_space(const Variant& v, const TuneOptions& o);

// Runs the search on `session`'s device, saving `db` to `db_path` after every new point.
// The database's entries are keyed by this device, the graph (tuning_key) and the session's
// build. With a graph file, every size must be its V (else std::invalid_argument).
// `board_done` (may be empty) after each variant's search at each n: the report so far, its
// last board just finished, marked incomplete, so that a program can keep it before the next.
TuneReport tune(const std::vector<const Variant*>& variants, const std::vector<int>& sizes,
                const TuneOptions& options, const Session& session, TuningDb& db,
                const std::string& db_path, const Observer& observer,
                const std::function<void(const TuneReport&)>& board_done = {});

// The leaderboards as JSON (schema apsp-leaderboard/2; "complete" as the report's).
nlohmann::json leaderboards_json(const TuneReport& report, const Session& session);

}  // namespace apsp::harness
