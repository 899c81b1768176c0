// What apsp_bench prints of a sweep besides core/tables.hpp's grids: a line per run as it
// finishes, the Markdown file, each multi-GPU run beside the model, and the variants' list.
#pragma once

#include <string>

#include "core/results.hpp"
#include "harness/pipeline/pipeline.hpp"

namespace apsp::harness {

// "device: NVIDIA H200 (cc 9.0, 132 SMs, 1980 MHz), driver ..., runtime ...; build ... (kernels
// ...)", or the host variants alone where the session has no device.
std::string session_line(const Session& session);

// "n = 1000: batched[batch2=2,batch3=5]: 1.234 ms (median of 10), 45.10x naive [44.02, 46.31],
// verified cpu-reference": a run as it finishes, so that a sweep stopped midway has printed it.
std::string finished_line(const RunResult& r);

// The --md file: the device and build, the ceilings, then the speedup and the detail tables.
std::string sweep_markdown(const Results& results);

// Lines: each multi-GPU run beside the model's prediction from the one-GPU rate measured in the
// same sweep; ranks on one GPU beside the same config solved whole on that GPU (the engine's own
// cost). "" when there is no such run.
std::string measured_and_model(const Results& r);

// --list: every variant (registered and run-time), its parameter space, defaults and constraints.
std::string variants_list();

}  // namespace apsp::harness
