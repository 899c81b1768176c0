// Measures this device's min-plus rate (updates per second) with kernels/ceiling.cuh: int32
// (VIADDMNMX, one update each), packed 16-bit pairs (VIADDMNMX.U16x2, two updates each) or int64
// (blocked_i64's k step, the faster of its two update forms).
#pragma once

#include <string>

#include "core/device_info.hpp"
#include "core/precision.hpp"

namespace apsp {

struct CeilingMeasurement {
  double updates_per_s = 0;
  double seconds = 0;  // time spent measuring
};

// About `budget_s` seconds: a calibration launch, then the median of 5 timed launches (of each
// form, in a share of the budget, for int64).
// `precision`: kPrecisionInt32, kPrecisionU16x2 or kPrecisionInt64.
CeilingMeasurement measure_minplus_ceiling(const DeviceInfo& dev, double budget_s = 1.0,
                                           const std::string& precision = kPrecisionInt32);

}  // namespace apsp
