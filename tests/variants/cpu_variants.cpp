// CPU-backed test variants (Target::kHost): the harness's whole pipeline runs through them in the
// CPU tests, with a slow baseline, a fast solver, a tunable one, a wrong one and one that refuses
// large n. Test-only: listed when APSP_TEST_VARIANTS is set (pipeline_main.cpp sets it).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/reference.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

void plain_fw(int* d, int n) {
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        d[size_t(i) * n + j] =
            std::min(d[size_t(i) * n + j], d[size_t(i) * n + k] + d[size_t(k) * n + j]);
}

void blocked_fw(int* d, int n) {
  DistMatrix m(n);
  std::memcpy(m.data(), d, m.bytes());
  floyd_warshall_blocked(m, 1);
  std::memcpy(d, m.data(), m.bytes());
}

std::string any_n(const Config&, int n, const DeviceInfo&) {
  return n >= 1 ? "" : "n must be positive";
}

Variant host_variant(const std::string& name, const std::string& summary) {
  Variant v;
  v.name = name;
  v.summary = summary;
  v.target = Target::kHost;
  v.test_only = true;
  v.check = any_n;
  return v;
}

Variant make_cpu_naive() {
  Variant v = host_variant("cpu_naive",
                           "TEST ONLY: the textbook triple loop on the host (the tests' baseline)");
  v.run = [](int* d, int n, const Config&, cudaStream_t, PhaseTimer*) { plain_fw(d, n); };
  return v;
}

Variant make_cpu_fw() {
  Variant v = host_variant(
      "cpu_fw", "TEST ONLY: the CPU reference (blocked, one thread) behind the variant interface");
  v.run = [](int* d, int n, const Config&, cudaStream_t, PhaseTimer*) { blocked_fw(d, n); };
  return v;
}

// Solves slow^2 times over (a config that costs more the larger it is, by a wide margin); slow = 4 plants a wrong
// element; slow = 5 is ruled out by a constraint; slow = 3 cannot run above n = 140.
Variant make_cpu_tunable() {
  Variant v = host_variant("cpu_tunable", "TEST ONLY: the CPU reference repeated slow^2 times");
  v.space = {Param{"slow", {1, 2, 3, 4, 5}, "solves per run", "cpu"}};
  v.defaults = {{"slow", 2}};
  v.constraints = {Constraint{"slow <= 4", [](const Config& c) { return c.at("slow") <= 4; }}};
  v.check = [](const Config& c, int n, const DeviceInfo&) -> std::string {
    return c.at("slow") == 3 && n > 140 ? "slow=3 runs only up to n = 140" : "";
  };
  v.heuristic = [](int n, const DeviceInfo&) { return Config{{"slow", n < 30 ? 1 : 2}}; };
  v.run = [](int* d, int n, const Config& c, cudaStream_t, PhaseTimer*) {
    std::vector<int> input(d, d + size_t(n) * n);
    for (int r = 0; r < c.at("slow") * c.at("slow"); ++r) {
      std::copy(input.begin(), input.end(), d);
      blocked_fw(d, n);
    }
    if (c.at("slow") == 4 && n >= 2) d[size_t(n - 1) * n] = -1;
  };
  return v;
}

Variant make_cpu_wrong() {
  Variant v =
      host_variant("cpu_wrong", "TEST ONLY: the CPU reference with d[n-1][0] overwritten by 0");
  v.run = [](int* d, int n, const Config&, cudaStream_t, PhaseTimer*) {
    blocked_fw(d, n);
    if (n >= 2) d[size_t(n - 1) * n] = 0;
  };
  return v;
}

Variant make_cpu_small() {
  Variant v = host_variant("cpu_small", "TEST ONLY: the CPU reference, refusing n > 50");
  v.check = [](const Config&, int n, const DeviceInfo&) -> std::string {
    return n > 50 ? "needs n <= 50" : "";
  };
  v.run = [](int* d, int n, const Config&, cudaStream_t, PhaseTimer*) { blocked_fw(d, n); };
  return v;
}

// Floyd-Warshall in 16-bit distances on the host, as sm90_u16 computes them: unreachable is
// 0x7FFF, sums are taken modulo 2^16 (as add.u16x2), a finite input entry is cut to 16 bits on
// the way in. Exact only on the graphs its admission rule lets through (the same as sm90_u16's,
// core/precision.hpp); elsewhere its answers are wrong, which is what the harness's refusal to
// run it there (skipped, with the reason) is tested against.
Variant make_cpu_u16() {
  Variant v = host_variant(
      "cpu_u16", "TEST ONLY: Floyd-Warshall in 16-bit distances on the host (sm90_u16's rule)");
  v.admits = [](int n, int64_t max_weight) { return u16_admission(n, max_weight); };
  v.precision = kPrecisionU16x2;
  v.run = [](int* d, int n, const Config&, cudaStream_t, PhaseTimer*) {
    const size_t cells = size_t(n) * n;
    std::vector<uint16_t> h(cells);
    for (size_t e = 0; e < cells; ++e) h[e] = d[e] >= kInf ? kInf16 : static_cast<uint16_t>(d[e]);
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const uint16_t via = static_cast<uint16_t>(h[size_t(i) * n + k] + h[size_t(k) * n + j]);
          h[size_t(i) * n + j] = std::min(h[size_t(i) * n + j], via);
        }
    for (size_t e = 0; e < cells; ++e) d[e] = h[e] >= kInf16 ? kInf : h[e];
  };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_cpu_naive)
APSP_REGISTER_VARIANT(make_cpu_fw)
APSP_REGISTER_VARIANT(make_cpu_tunable)
APSP_REGISTER_VARIANT(make_cpu_wrong)
APSP_REGISTER_VARIANT(make_cpu_small)
APSP_REGISTER_VARIANT(make_cpu_u16)

}  // namespace apsp
