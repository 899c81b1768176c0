// What a run of the harness does: sizes x one graph spec x the (variant, config) requests,
// parsed and validated before any GPU work (apsp_bench --dry-run prints it).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/edge_list.hpp"
#include "core/generators.hpp"
#include "core/results.hpp"
#include "harness/sampler.hpp"
#include "harness/workbench.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

// A variant at the default for each n (policy, heuristic or declared; harness/policy.hpp), or
// one config at every n (--config).
struct Request {
  const Variant* variant = nullptr;
  std::optional<Config> config;
  bool tuned = false;  // the tuning database's pick at each n, when it beats the default
};

// The graph of every size: a generator spec (num_vertices set per n), or one file (one size).
struct GraphInput {
  GraphSpec spec;
  std::string file;
  std::shared_ptr<const EdgeList> edges;  // the file, read before any GPU work
};

struct Plan {
  std::vector<int> sizes;
  std::vector<Request> requests;
  bool baseline_added = false;  // the baseline variant was not asked for but is timed
  GraphInput graph;
  int cpu_reference_max_n = kCpuReferenceMaxN;
  std::string baseline = "naive";  // every speedup is against it; the reference above the CPU range
  SampleOptions sampling;
  bool cuda_graph = false, phases = false;
  double ceiling_s = 1.0;  // seconds spent measuring the device's min-plus ceiling; 0: none
};

// Parses "1000,2500,10000"; throws std::invalid_argument with one line on a bad value.
std::vector<int> parse_sizes(const std::string& text, const std::string& flag = "--n");
// --min-reps above --reps: refused when both were given (std::invalid_argument, one line);
// when one was given, the other (a default) follows it.
void check_reps(SampleOptions& s, bool min_given, bool max_given);

// Requests from --variant (names or "all") and --config texts; throws std::invalid_argument.
std::vector<Request> select_requests(const std::string& variants, const std::vector<std::string>& configs);

// Puts the baseline variant first unless it is requested at its default or `reuse` says its
// samples come from an earlier results file.
void add_baseline(Plan& plan, bool reuse);

// Throws std::invalid_argument when the graph spec's weights could make a distance reach kInf
// at some size of the plan.
void check_weights(const Plan& plan);

// The input matrix of size n.
DistMatrix make_input(const GraphInput& graph, int n);
// How results files describe the graph.
GraphDesc describe(const GraphInput& graph);

}  // namespace apsp::harness
