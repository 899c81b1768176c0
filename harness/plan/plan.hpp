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
#include "core/tuning_db.hpp"
#include "harness/measure/sampler.hpp"
#include "harness/measure/workbench.hpp"
#include "harness/multigpu/transport.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

// A variant at the default for each n (policy, heuristic or declared; harness/tune/policy.hpp), or
// one config at every n (--config).
struct Request {
  const Variant* variant = nullptr;
  std::optional<Config> config;
  bool tuned = false;  // the tuning database's pick at each n, when it beats the default
  // Asked for by its own name or config; false for one that --variant all brought in, and for
  // the baseline added for the speedups: the baseline then runs only up to
  // Plan::baseline_max_n (runs_at).
  bool named = true;
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
  std::string baseline = "naive";  // every speedup is against it
  // Above the CPU range (--verify): "auto" (naive's output, the certificate above
  // kNaiveReferenceMaxN), "certificate", or a variant whose output is the reference ("naive").
  std::string reference = kAutoReference;
  // The baseline, when not asked for by name (added, or brought in by --variant all), is timed
  // up to this n: naive's time grows as n^3 (2.77 s a solve at n = 10000 on the H200, README),
  // so that above it one size would take minutes. Above it speedups are left out and the share
  // of the ceiling stands in.
  int baseline_max_n = 16384;
  SampleOptions sampling;
  // --gpus: the GPU counts each multi-GPU variant (Variant::multi_gpu) runs at, each a run of
  // its own; the other variants run on one GPU. kAllGpus until resolved.
  std::vector<int> gpus{1};
  // --transport: the registered transport the ranks of a multi-GPU run talk through
  // (harness/multigpu/transport.hpp; "single-device": every rank on one GPU).
  std::string transport = kDefaultTransport;
  // The link the multi-GPU model assumes (--model-link-gbs, --model-latency-us: another
  // network, hosts joined by NICs); unset: the NVLink figures (multi_gpu_model.hpp).
  std::optional<double> model_link_gbs, model_latency_us;
  bool cuda_graph = false, phases = false;
  // Seconds spent measuring each min-plus ceiling (int32, 16-bit, and int64 where an int64
  // variant runs: pipeline.hpp, ceiling_precisions); 0: none.
  double ceiling_s = 1.0;
};

// Parses "1000,2500,10000"; throws std::invalid_argument with one line on a bad value or a
// size given twice (its runs would be the same runs twice).
std::vector<int> parse_sizes(const std::string& text, const std::string& flag = "--n");

// --gpus: "1,2,8" (sorted, without repeats) or "all" ({kAllGpus}, resolved once the device
// count is known); throws std::invalid_argument with one line on a bad value.
inline constexpr int kAllGpus = 0;
std::vector<int> parse_gpu_counts(const std::string& text);
// Replaces kAllGpus by `present` (1 without a device), keeping the list sorted and unique.
void resolve_gpu_counts(std::vector<int>& counts, int present);
// "" when `present` GPUs are enough for every count; else "3 GPUs asked, 1 present".
std::string gpu_count_problem(const std::vector<int>& counts, int present);
// --min-reps above --reps: refused when both were given (std::invalid_argument, one line);
// when one was given, the other (a default) follows it.
void check_reps(SampleOptions& s, bool min_given, bool max_given);

// Requests from --variant (names or "all") and --config texts; throws std::invalid_argument.
std::vector<Request> select_requests(const std::string& variants,
                                     const std::vector<std::string>& configs);

// Puts the baseline variant first unless it is requested at its default or `reuse` says its
// samples come from an earlier results file.
void add_baseline(Plan& plan, bool reuse);

// What a bench run selects, as data: apsp_bench's options and the Python module's
// apsp_lab.bench both give it, and select_runs makes the same plan of it for both.
struct BenchSelection {
  std::string variants;                 // names or "all"; "" with no configs: all
  std::vector<std::string> configs;     // configs as apsp_bench prints them
  std::vector<const Variant*> kernels;  // user kernels, each at its file's values unless a
                                        // config names it
  std::string sizes;                    // "1000,2500"; unused where the plan's graph is a file's
  std::string sizes_name = "--n";       // what the caller calls the sizes, in its messages
  std::string gpus = "1";               // GPU counts: "1", "1,2,4", "all"
  bool tuned = false;                   // requests named alone run a tuning database's pick
  bool reuse_baseline = false;          // a baseline file's runs stand in for the baseline's
};
// p's requests, sizes (a file graph's V), GPU counts and baseline from s, the weights then
// checked; p's graph, sampling and transport are the caller's. Throws std::invalid_argument (one
// line).
void select_runs(Plan& p, const BenchSelection& s);

// Throws std::invalid_argument when the graph spec's weights could make a distance reach kInf
// at some size of the plan.
void check_weights(const Plan& plan);

// What one size of a plan holds at once. Device: the executor's pristine matrix and its work
// buffer in the widest layout a request solves in (Variant::pitch), the certificate's edges and flags.
// Host: the input matrix (and the CPU reference's copy), the graph and its edges by destination.
struct WorkingSet {
  uint64_t device = 0, host = 0;
};
// Device: zero when no run at n is on one GPU. Host: a multi-GPU run keeps the input and
// gathers its output on the host, two matrices more.
WorkingSet working_set(const Plan& plan, int n);
// Whether the plan runs request r at n: every request at every size, but the baseline not
// asked for by name (Request::named) only up to baseline_max_n. run_plan leaves the others out,
// and so does the dry run.
bool runs_at(const Plan& plan, const Request& r, int n);
// The GPU counts request r runs at, each a run of its own: the plan's for a multi-GPU variant,
// else one.
std::vector<int> gpu_counts(const Plan& plan, const Request& r);
// Whether request r runs on one GPU at n (a multi-GPU variant only when --gpus lists 1; the
// added baseline not above baseline_max_n).
bool runs_on_one_gpu(const Plan& plan, const Request& r, int n);
// The most device memory one GPU holds for a multi-GPU request at n on `gpus` GPUs (the engine's
// row block and panels, harness/multigpu/row_partition.hpp; where the transport's ranks share
// one GPU, every rank's).
uint64_t multi_gpu_bytes(const Plan& plan, int n, int gpus);
// The edges of the graph at size n: the file's count, or the generator's expected count.
uint64_t expected_edges(const GraphInput& graph, int n);
// "" when every size fits `device_free` and `host_free` bytes; else one line with the bytes
// needed and available for the first size that does not.
std::string memory_problem(const Plan& plan, uint64_t device_free, uint64_t host_free);

// The graph of size n: the file's, or the spec's generated with n vertices.
std::shared_ptr<const EdgeList> make_graph(const GraphInput& graph, int n);
// How results files describe the graph.
GraphDesc describe(const GraphInput& graph);
// The same graph as the tuning database keys it: the generator's kind, density and wmax, or the
// file's path, so that the tuner's entries on a file serve apsp_bench --graph on that file.
GraphKey tuning_key(const GraphInput& graph);

}  // namespace apsp::harness
