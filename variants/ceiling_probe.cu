#include <algorithm>
#include <chrono>
#include <vector>

#include "core/device_buffer.hpp"
#include "kernels/ceiling.cuh"
#include "variants/ceiling_probe.hpp"

namespace apsp {

namespace {

// One probe kernel: its blocks of kCeilThreads threads an SM (as its __launch_bounds__ asks) and
// the updates one thread makes a repeat.
struct Probe {
  void (*kernel)(int repeats, int seed, int* out);
  int blocks_per_sm;
  double updates_per_thread_repeat;
};

// The probe's rate in about `budget_s` seconds: a calibration launch, then the median of 5 timed
// launches.
double probe_rate(const Probe& p, const DeviceInfo& dev, double budget_s) {
  using namespace kernels;
  static_assert(kCeilThreads == blocked_i64::kThreads, "every probe runs blocks of one size");
  const int blocks = dev.sms * p.blocks_per_sm;
  DeviceBuffer<int> out(static_cast<size_t>(blocks) * kCeilThreads);
  CudaStream stream;
  CudaEvent start, stop;
  auto run = [&](int repeats) {
    start.record(stream.get());
    p.kernel<<<blocks, kCeilThreads, 0, stream.get()>>>(repeats, 1, out.get());
    APSP_CUDA_CHECK_LAUNCH();
    stop.record(stream.get());
    return elapsed_ms(start, stop);
  };
  run(16);  // load the module
  const int probe = 1000;
  const double probe_ms = run(probe);
  // Five timed launches in the budget (less the probe).
  const int repeats = std::max(probe, static_cast<int>(probe * (budget_s * 1000 / 6) / probe_ms));
  std::vector<double> ms;
  for (int i = 0; i < 5; ++i) ms.push_back(run(repeats));
  std::nth_element(ms.begin(), ms.begin() + 2, ms.end());
  const double updates =
      static_cast<double>(blocks) * kCeilThreads * p.updates_per_thread_repeat * repeats;
  return updates / (ms[2] / 1000.0);
}

}  // namespace

CeilingMeasurement measure_minplus_ceiling(const DeviceInfo& dev, double budget_s,
                                           const std::string& precision) {
  using namespace kernels;
  const auto t0 = std::chrono::steady_clock::now();
  // int32 and 16-bit pairs: 8 x 8 words a thread, each one update an element it holds, two
  // blocks an SM; int64: 4 x 4 elements a thread, three blocks an SM, in both update forms.
  constexpr double kWords = 64.0 * kCeilK, kWide = blocked_i64::kPer * blocked_i64::kPer * kCeilK;
  std::vector<Probe> probes;
  if (precision == kPrecisionInt64) {
    const int bps = blocked_i64::kPhase3BlocksPerSm;
    probes = {{minplus_ceiling_i64<blocked_i64::Fp64Pipe>, bps, kWide},
              {minplus_ceiling_i64<blocked_i64::IntegerPipes>, bps, kWide}};
  } else if (precision == kPrecisionU16x2) {
    probes = {{minplus_ceiling<U16x2Elements>, 2, kWords * U16x2Elements::kPerWord}};
  } else {
    probes = {{minplus_ceiling<Int32Elements>, 2, kWords}};
  }
  CeilingMeasurement m;
  for (const Probe& p : probes)
    m.updates_per_s = std::max(m.updates_per_s, probe_rate(p, dev, budget_s / probes.size()));
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

}  // namespace apsp
