// The results file (schema "apsp-bench/1", documented in docs/results-schema.md): what the bench
// writes, and what the report and the tuner read.
#pragma once

#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/device_info.hpp"
#include "core/precision.hpp"

namespace apsp {

inline constexpr const char* kResultsSchema = "apsp-bench/1";
// The most a timed run's share of the measured ceiling may be: the ceiling is a measured rate,
// so a run can top it only by the noise of two measurements.
inline constexpr double kMaxPctOfCeiling = 105.0;
// The most GPUs one run may name (--gpus, a launcher's world): a cluster's, past any one host.
inline constexpr int kMaxGpus = 1024;
// What a reader takes as a value some run could have; beyond it the file is refused, so that no
// table shows a 300-digit cell. A time (a sample, a median, a phase): json_read::kMaxTimeMs. A
// rate (updates/s, a ceiling): at most 1e17, thousands of H200s' ceilings. A speedup: at most
// 1e6. A parallel efficiency: above 0 and at most 1.5 (a little more than linear: caches). A
// coefficient of variation: at most 1000.
inline constexpr double kMaxRate = 1e17;
inline constexpr double kMaxSpeedup = 1e6;
inline constexpr double kMaxParallelEfficiency = 1.5;
inline constexpr double kMaxCv = 1000;
// What `verified` may say (harness/measure/workbench.hpp, harness/pipeline): the CPU reference,
// the certificate, the naive variant's output, naive itself against its own output, FAILED, or
// skipped.
inline constexpr std::array<const char*, 6> kVerifiedValues = {
    "cpu-reference", "certificate", "naive", "baseline", "FAILED", "skipped"};

struct GraphDesc {
  std::string kind = "random";  // generator kind, or "file"
  uint64_t seed = 1;
  double density = 0;
  int wmax = 0;
  std::string file;  // kind == "file"
};

// A run of many small graphs at once (apsp_bench --graphs; harness/cli/batch_sweep.hpp): what the
// batch held, what one solve moved, and how its time compares with the device's two ceilings.
// Absent in single-graph runs and in files from before batches were measured.
struct BatchDesc {
  int64_t graphs = 0;
  std::string sizes;  // "fixed" (every graph the run's n vertices) or "molecules" (N(15, 4))
  int64_t vertices = 0, edges = 0;
  double updates = 0;       // min-plus updates of one solve: the sum of n^3 over the graphs
  double bytes = 0;         // device memory one solve reads (the batch) and writes (the output)
  std::string dist_type;    // the output's element type: "uint8", "int16" or "int32"
  double graphs_per_s = 0;  // graphs / median
  double pct_of_hbm = 0;    // bytes / median against /context/hbm_bytes_per_s
  std::string bound;        // "compute" or "memory": which ceiling the batch takes longer at
};
inline constexpr std::array<const char*, 2> kBatchSizes = {"fixed", "molecules"};
inline constexpr std::array<const char*, 3> kBatchDistTypes = {"uint8", "int16", "int32"};
// "none": neither ceiling was measured (a CPU run without a device).
inline constexpr std::array<const char*, 3> kBatchBounds = {"compute", "memory", "none"};
// The most a batch run's share of the measured bandwidth may be: a batch smaller than the L2, or
// timed warm, reads and writes partly in the L2, whose bandwidth is a few times the device
// memory's, so a share above 100% is real there; ten times is not.
inline constexpr double kMaxPctOfHbm = 1000.0;
// The most graphs a batch run may hold: a 2^40-element output would not fit any device.
inline constexpr int64_t kMaxBatchGraphs = int64_t{1} << 36;

struct RunResult {
  std::string variant;
  std::map<std::string, int> config;
  std::string name;                  // variant[param=value,...]
  std::optional<std::string> label;  // table column when it is not `name` ("batched (tuned)")
  // Why this config ran: "asked" (--config), "policy for n 1582..5000", "heuristic (...)",
  // "declared default", "tuned at n = ...". Absent in files from before it was recorded.
  std::optional<std::string> config_source;
  int n = 0;
  GraphDesc graph;
  std::string verified;  // "cpu-reference", "naive", "baseline", "FAILED", or "skipped"
  std::vector<double> samples_ms;
  double median_ms = 0, min_ms = 0, stddev_ms = 0, cv = 0;
  double updates_per_s = 0, pct_of_ceiling = 0;
  std::optional<double> speedup_vs_naive;
  std::optional<std::pair<double, double>> speedup_ci95;
  std::optional<double> graph_median_ms;  // --cuda-graph: replay of a captured solve
  // --phases: one solve's time per phase, summed over rounds: [0] outside phases 1-3, [1..3].
  std::optional<std::array<double, 4>> phases_ms;
  // Device memory of the verified solve (harness::DeviceMemory): the solve's own buffer and
  // scratch, and everything the harness held on the device for the run. GPU runs only.
  std::optional<uint64_t> solve_device_bytes, peak_device_bytes;
  // The GPUs the solve ran on (apsp_bench --gpus; harness/distributed): 1 unless asked.
  // Device memory is then the busiest GPU's, and the share of the ceiling is of gpus ceilings
  // (of one under the single-device transport, where every rank shares one GPU).
  int gpus = 1;
  // Over one GPU: t(1) / (gpus x t(gpus)), t(1) the same config's median at the same n in the
  // same results (absent without that run, and for one-GPU runs).
  std::optional<double> parallel_efficiency;
  std::optional<std::string> error;  // why it failed or was skipped
  // What the variant computed in (Variant::precision): "int32", "u16x2" (sm90_u16) or "int64"
  // (blocked_i64). Absent in files from before it was recorded: int32. pct_of_ceiling is against
  // this precision's.
  std::string precision = kPrecisionInt32;
  // A batch run: n is the batch's largest graph, updates_per_s and pct_of_ceiling count every
  // graph's n^3.
  std::optional<BatchDesc> batch;
};

struct Context {
  nlohmann::json device;  // DeviceInfo fields
  nlohmann::json build;
  std::string host, date;
  std::vector<std::string> argv;
  double ceiling_updates_per_s = 0;  // int32 min-plus (VIADDMNMX), measured by the bench
  // packed 16-bit (VIADDMNMX.U16x2, 2 updates each); 0: not measured
  double ceiling_u16_updates_per_s = 0;
  // int64 (blocked_i64's k step, the faster of its two update forms); 0: not measured (it is
  // measured only for a plan with an int64 variant)
  double ceiling_i64_updates_per_s = 0;
  // Device memory bandwidth (bytes read plus written a second) of a device-to-device copy, timed
  // by the Sampler: what a batch run's pct_of_hbm is against; 0: not measured (it is measured
  // only for batch runs).
  double hbm_bytes_per_s = 0;
  // The ceiling a run of `precision` is measured against.
  double ceiling_for(const std::string& precision) const {
    if (precision == kPrecisionU16x2) return ceiling_u16_updates_per_s;
    return precision == kPrecisionInt64 ? ceiling_i64_updates_per_s : ceiling_updates_per_s;
  }
  // Each GPU a multi-GPU run used (device_json), in rank order; empty when every run used one.
  std::vector<nlohmann::json> gpus;
  std::string transport;  // with gpus: "nccl", or "single-device" (every rank on one GPU)
};

struct Results {
  Context context;
  std::vector<RunResult> runs;
  // False while a sweep is going on, and in the file of a sweep that was stopped: `runs` are the
  // runs that had finished. Files from before it was recorded read as complete.
  bool complete = true;
};

nlohmann::json device_json(const DeviceInfo& d);
nlohmann::json to_json(const Context& c);
nlohmann::json to_json(const Results& r);
// Throws std::runtime_error with one line when the JSON is not a results file of this schema,
// or holds a value no run can have ("/runs/3/n: 1e+20 is not an integer in [1, 1048576]",
// negative, non-finite or absurd times and rates (the limits above), a median outside its
// samples' range, a share of the ceiling above kMaxPctOfCeiling, a `verified` not in
// kVerifiedValues), or the same run twice: the same name (variant and config), label, n, GPU
// count and graph.
Results results_from_json(const nlohmann::json& j);
// The results file at `path`, read and checked as above; std::runtime_error, one line that
// starts with the path ("r.json: /runs/3/median_ms: ..."), when it cannot be read or is refused.
Results load_results(const std::string& path);

}  // namespace apsp
