#include "harness/measure/ceiling.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/device_buffer.hpp"
#include "core/stats.hpp"
#include "harness/measure/sampler.hpp"
#include "variants/ceiling_probe.hpp"

namespace apsp::harness {

namespace {

// The probe as the Sampler's executor: no input to restore (the probe reads none) and nothing to
// flush; a sample is one launch of Config "repeats" repeats on its own stream, timed by events.
class CeilingExecutor final : public LocalExecutor {
 public:
  explicit CeilingExecutor(const CeilingProbe& probe)
      : probe_(probe),
        out_(static_cast<size_t>(probe.blocks) * probe.threads),
        clock_(stream_.get()) {}

  void load(const DistMatrix&) override {}
  void reserve(const Variant&, const Config&) override {}
  void restore() override {}
  void flush_l2() override {}
  void run(const Variant&, const Config& c, PhaseTimer*) override {
    probe_.launch(c.at("repeats"), out_.get(), stream_.get());
  }
  SampleClock& clock() override { return clock_; }
  cudaStream_t stream() override { return stream_.get(); }
  DistMatrix output() override { return {}; }
  std::string certify(const InEdges&) override { return ""; }

 private:
  const CeilingProbe& probe_;
  DeviceBuffer<int> out_;
  CudaStream stream_;
  StreamClock clock_;
};

// `reps` samples of one launch of `repeats` repeats, in milliseconds.
std::vector<double> sample_launches(CeilingExecutor& ex, int repeats, int reps) {
  Variant probe;
  probe.name = "minplus_ceiling";
  return Sampler(ex, probe, {{"repeats", repeats}})
      .take({Mode::kStream, reps, /*flush_l2=*/false})
      .samples_ms;
}

// The probe's rate in about `budget_s` seconds: a calibration launch, then the median of 5 timed
// launches.
double probe_rate(const CeilingProbe& p, double budget_s) {
  CeilingExecutor ex(p);
  sample_launches(ex, 16, 1);  // load the module
  const int probe = 1000;
  const double probe_ms = sample_launches(ex, probe, 1).at(0);
  // Five timed launches in the budget (less the probe).
  const int repeats = std::max(probe, static_cast<int>(probe * (budget_s * 1000 / 6) / probe_ms));
  const double ms = median(sample_launches(ex, repeats, 5));
  return p.updates_per_repeat * repeats / (ms / 1000.0);
}

}  // namespace

CeilingMeasurement measure_minplus_ceiling(const DeviceInfo& dev, double budget_s,
                                           const std::string& precision) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<CeilingProbe> probes = ceiling_probes(dev, precision);
  CeilingMeasurement m;
  for (const CeilingProbe& p : probes)
    m.updates_per_s = std::max(m.updates_per_s, probe_rate(p, budget_s / probes.size()));
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

}  // namespace apsp::harness
