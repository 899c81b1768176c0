// What a measurement asks for and what comes back: the spec the Sampler takes
// (harness/measure/sampler.hpp). The isolated worker (harness/userkernel/isolated_executor.hpp)
// receives the same spec as JSON and returns the measurement so, its own Sampler having taken it.
#pragma once

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <vector>

namespace apsp::harness {

// How a sample runs the solve.
enum class Mode {
  kStream,     // its launches on the executor's stream(s)
  kCudaGraph,  // the replay of a CUDA graph captured from one solve (apsp_bench --cuda-graph);
               // plain launches where a solve is not one stream's (the host, the ranks)
  kPhases,     // one solve with each phase's time summed over rounds (apsp_bench --phases);
               // zeros where a solve is not one stream's
};

struct MeasureSpec {
  Mode mode = Mode::kStream;
  int reps = 1;          // samples to take (kPhases: one solve whatever it says)
  bool flush_l2 = true;  // flush L2 before each sample (not timed)
};

struct Measurement {
  std::vector<double> samples_ms;     // kStream, kCudaGraph: one per sample, in order
  std::array<double, 4> phases_ms{};  // kPhases: [0] outside phases 1-3, [1..3] the phases
};

// nlohmann::json's conversions (found by argument lookup). A spec read from JSON is checked:
// an unknown mode or reps below 1 throws std::invalid_argument.
void to_json(nlohmann::json& j, const MeasureSpec& s);
void from_json(const nlohmann::json& j, MeasureSpec& s);
void to_json(nlohmann::json& j, const Measurement& m);
void from_json(const nlohmann::json& j, Measurement& m);

}  // namespace apsp::harness
