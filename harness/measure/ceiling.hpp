// This device's min-plus rate (updates per second), the ceiling every run's pct_of_ceiling is
// against: the probes of variants/ceiling_probe.hpp, timed by the Sampler like every solve.
#pragma once

#include <string>

#include "core/device_info.hpp"
#include "core/precision.hpp"

namespace apsp::harness {

struct CeilingMeasurement {
  double updates_per_s = 0;
  double seconds = 0;  // time spent measuring
};

// About `budget_s` seconds: a calibration launch, then the median of 5 timed launches (of each
// form, in a share of the budget, for int64; the faster form's rate).
// `precision`: kPrecisionInt32, kPrecisionU16x2 or kPrecisionInt64.
CeilingMeasurement measure_minplus_ceiling(const DeviceInfo& dev, double budget_s = 1.0,
                                           const std::string& precision = kPrecisionInt32);

}  // namespace apsp::harness
