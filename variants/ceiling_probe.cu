#include "core/cuda_check.hpp"
#include "kernels/ceiling.cuh"
#include "variants/ceiling_probe.hpp"

namespace apsp {

void CeilingProbe::launch(int repeats, int* out, cudaStream_t stream) const {
  kernel<<<blocks, threads, 0, stream>>>(repeats, 1, out);
  APSP_CUDA_CHECK_LAUNCH();
}

std::vector<CeilingProbe> ceiling_probes(const DeviceInfo& dev, const std::string& precision) {
  using namespace kernels;
  static_assert(kCeilThreads == blocked_i64::kThreads, "every probe runs blocks of one size");
  // int32 and 16-bit pairs: 8 x 8 words a thread, each one update an element it holds, two
  // blocks an SM; int64: 4 x 4 elements a thread, three blocks an SM, in both update forms.
  constexpr double kWords = 64.0 * kCeilK, kWide = blocked_i64::kPer * blocked_i64::kPer * kCeilK;
  const auto probe = [&](void (*kernel)(int, int, int*), int blocks_per_sm,
                         double updates_per_thread_repeat) {
    return CeilingProbe{kernel, dev.sms * blocks_per_sm, kCeilThreads,
                        updates_per_thread_repeat * dev.sms * blocks_per_sm * kCeilThreads};
  };
  if (precision == kPrecisionInt64) {
    const int bps = blocked_i64::kPhase3BlocksPerSm;
    return {probe(minplus_ceiling_i64<blocked_i64::Fp64Pipe>, bps, kWide),
            probe(minplus_ceiling_i64<blocked_i64::IntegerPipes>, bps, kWide)};
  }
  if (precision == kPrecisionU16x2)
    return {probe(minplus_ceiling<U16x2Elements>, 2, kWords * U16x2Elements::kPerWord)};
  return {probe(minplus_ceiling<Int32Elements>, 2, kWords)};
}

}  // namespace apsp
