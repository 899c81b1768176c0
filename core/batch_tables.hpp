// The table of batch runs (RunResult::batch): what apsp_bench --graphs prints and apsp_report
// shows. Host-only, beside core/tables.hpp's single-graph grids.
#pragma once

#include <string>

#include "core/results.hpp"
#include "core/tables.hpp"

namespace apsp {

// Whether any run of r is a batch run.
bool has_batch_runs(const Results& r);
// A row per batch run: its config, the batch (sizes, graphs, largest n, output type), median ms,
// graphs/s, G updates/s and the share of the min-plus ceiling, GB/s and the share of the measured
// bandwidth, which of the two bounds it (marked with *), and how it was verified.
Grid batch_grid(const Results& r);
// "Measured: int32 min-plus 16.56 T updates/s, device memory 4.12 TB/s (a device-to-device copy,
// bytes read plus written)": the line under the batch table; "" when neither was measured.
std::string batch_ceilings_line(const Context& c);

}  // namespace apsp
