// Many small graphs timed as one run (apsp_bench --graphs, the tuner's batch bands): which
// batch, which batched variants and configs, and one measurement of (variant, config) on a
// batch: every graph checked bit-exact against the CPU reference (solve_batch_host), then the
// Sampler's samples (harness/measure/sampler.hpp), as a single graph's run is timed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/graph_batch.hpp"
#include "harness/measure/sampler.hpp"
#include "variants/batch_variant.hpp"

namespace CLI {
class App;
}

namespace apsp::harness {

struct BatchPlan;

// Which batch: `graphs` graphs of `n` vertices each ("fixed"), or with molecule-like sizes
// ("molecules": N(15, 4) rounded and clamped to [3, 51], gen_graph --kind molecules' defaults,
// n unused). Both from molecule_batch (core/graph_batch.hpp) and `seed`, so that
// `gen_graph --kind molecules --graphs B --seed S` writes the molecules batch measured here.
// wmax > 1: each edge weighs 1..wmax (from the seed); 1: hop distances.
struct BatchShape {
  int64_t graphs = 0;
  std::string sizes = "fixed";
  int n = 0;
  uint64_t seed = 1;
  int wmax = 1;
};
inline constexpr double kMoleculeMeanN = 15, kMoleculeSdN = 4;
inline constexpr int kMoleculeMinN = 3, kMoleculeMaxN = 51;

// "" when the shape can be made; else why not, one line.
std::string batch_shape_problem(const BatchShape& s);
GraphBatch make_batch(const BatchShape& s);
// The largest graph the shape can hold: n, or kMoleculeMaxN.
int shape_max_n(const BatchShape& s);

// One batched variant at one config, as apsp_bench prints it ("batch_shared[lanes=16,threads=256]").
struct BatchCase {
  const BatchVariant* variant = nullptr;
  Config config;
  std::string name;
  std::string source;  // why this config: "asked", "declared default", "tuned ..."
};
// "batch_shared[lanes=16]" (unnamed parameters at their defaults); std::invalid_argument, one
// line, for an unknown variant or parameter, a value outside the space, or a config not built.
BatchCase parse_batch_case(const std::string& text);
BatchCase default_batch_case(const BatchVariant& v);
// --variant (names, "all" or "": every batched GPU variant) and --config texts, in that order;
// std::invalid_argument, one line, for anything unknown.
std::vector<BatchCase> select_batch_cases(const std::string& variants,
                                          const std::vector<std::string>& configs);

// What one solve of a batch reads (its pointers, edges and weights, the output's offsets) and
// writes (the distances), in bytes: the least device memory traffic any variant can have.
double batch_bytes(const GraphBatch& b, int64_t elements, BatchDistType type);
// The min-plus updates of one solve: the sum of n^3 over the graphs.
double batch_updates(const GraphBatch& b);

struct BatchMeasurement {
  std::string verified;  // "cpu-reference", "FAILED" or "skipped"
  std::string error;     // why FAILED or skipped
  std::vector<double> samples_ms;
  BatchDistType type = BatchDistType::kI32;
  int64_t elements = 0;
  BatchFacts facts;
};

// "" when every graph's block of `got` equals the reference's `want` (both in `plan`'s host
// layout); else how many graphs differ and the first entry where the first of them does.
std::string compare_with_reference(const GraphBatch& b, const BatchPlan& plan, const uint8_t* got,
                                   const uint8_t* want);

// One batch, its CPU reference (made once, at the first measure) and what its GPU runs need.
class BatchBench {
 public:
  explicit BatchBench(const GraphBatch& batch);
  ~BatchBench();
  BatchBench(const BatchBench&) = delete;
  BatchBench& operator=(const BatchBench&) = delete;

  // Verifies c on every graph (that solve is the warm-up), then takes the Sampler's samples
  // (planned_reps of the warm-up's time). A device variant without a device: skipped.
  BatchMeasurement measure(const BatchCase& c, const SampleOptions& sampling);

 private:
  struct Device;
  // The CPU reference's distances in host's layout (made once, again only for another type).
  const std::vector<uint8_t>& reference(const BatchPlan& host);

  const GraphBatch& batch_;
  std::vector<uint8_t> reference_;
  BatchDistType reference_type_ = BatchDistType::kI32;
  std::unique_ptr<Device> device_;
};

// --sizes and --batch-wmax, as apsp_bench --graphs and tuner --graphs both take them;
// `molecules_help` says what --sizes molecules does there.
void add_batch_shape_options(CLI::App& app, std::string& sizes, int& wmax,
                             const std::string& molecules_help);
// std::invalid_argument, "NAME does not apply to --graphs<why>", for the first of `names` given.
void refuse_given_options(const CLI::App& app, const std::vector<const char*>& names,
                          const std::string& why);

// Device memory bandwidth, bytes read plus written a second: the median of a device-to-device
// copy of `bytes` (a few hundred MiB), timed by the Sampler. Needs a CUDA device.
double measure_copy_bandwidth(uint64_t bytes);

}  // namespace apsp::harness
