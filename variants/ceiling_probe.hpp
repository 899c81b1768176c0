// The probes of this device's min-plus rate (updates per second), kernels/ceiling.cuh: int32
// (VIADDMNMX, one update each), packed 16-bit pairs (VIADDMNMX.U16x2, two updates each) or int64
// (blocked_i64's k step, in each of its two update forms; the faster is the ceiling). Their
// launches only: harness/measure/ceiling.hpp times them through the Sampler.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/precision.hpp"

namespace apsp {

// One probe kernel on this device: its blocks (as many an SM as its __launch_bounds__ asks) of
// `threads` threads, and the updates one launch makes per repeat.
struct CeilingProbe {
  void (*kernel)(int repeats, int seed, int* out) = nullptr;
  int blocks = 0;
  int threads = 0;
  double updates_per_repeat = 0;
  // Enqueues one launch of `repeats` repeats on `stream`; `out` holds blocks x threads ints.
  void launch(int repeats, int* out, cudaStream_t stream) const;
};

// The probes of `precision` (kPrecisionInt32, kPrecisionU16x2 or kPrecisionInt64) on `dev`.
std::vector<CeilingProbe> ceiling_probes(const DeviceInfo& dev, const std::string& precision);

}  // namespace apsp
