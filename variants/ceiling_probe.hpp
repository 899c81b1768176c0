// Measures this device's int32 min-plus rate (updates per second) with kernels/ceiling.cuh.
#pragma once

#include "core/device_info.hpp"

namespace apsp {

struct CeilingMeasurement {
  double updates_per_s = 0;
  double seconds = 0;  // time spent measuring
};

// About `budget_s` seconds: a calibration launch, then the median of 5 timed launches.
CeilingMeasurement measure_minplus_ceiling(const DeviceInfo& dev, double budget_s = 1.0);

}  // namespace apsp
