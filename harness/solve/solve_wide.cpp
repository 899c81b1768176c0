// harness/solve/solve_steps.hpp: the exact 64-bit path.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"
#include "core/precision.hpp"
#include "harness/solve/solve_steps.hpp"
#include "harness/tune/policy.hpp"

namespace apsp::harness {

namespace {

// The registered variant with a 64-bit solve (Variant::run_wide); nullptr when there is none.
const Variant* wide_variant() {
  for (const Variant& v : registry())
    if (v.run_wide && v.precision == kPrecisionInt64) return &v;
  return nullptr;
}

// d solved in place by v's run_wide at its default for this device and V.
void solve_wide_on_device(DistMatrix64& d, const Variant& v, int64_t max_weight, const Log& log) {
  const int n = d.n();
  const DeviceInfo dev = query_device();
  const Config c = default_config(v, n, &dev).config;
  if (const std::string why = admission_problem(v, n, max_weight); !why.empty())
    throw std::runtime_error(fmt::format("V = {}: {}", n, why));
  if (const std::string why = v.check(c, n, dev); !why.empty())
    throw std::runtime_error(
        fmt::format("{} cannot run at V = {}: {}", config_name(v.name, c), n, why));
  if (const uint64_t free = device_free_bytes(); d.bytes() > free)
    throw std::runtime_error(
        fmt::format("the 64-bit matrix of V = {} needs {} on {}, which has {} free", n,
                    human_bytes(d.bytes()), dev.name, human_bytes(free)));
  if (log) log(fmt::format("solving in 64 bits with {} on {}", config_name(v.name, c), dev.name));
  DeviceBuffer<int64_t> buf(d.size());
  const CudaStream stream;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(buf.get(), d.data(), d.bytes(), cudaMemcpyHostToDevice, stream.get()));
  v.run_wide(buf.get(), n, c, stream.get(), nullptr);
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(d.data(), buf.get(), d.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
}

}  // namespace

DistMatrix64 solve_wide(const EdgeList& g, bool device, int threads, const Log& log,
                        SolveTiming& t) {
  auto t0 = Clock::now();
  check_host_matrices(g.num_vertices, 2, "the 64-bit distances");
  DistMatrix64 d = DistMatrix64::from_edges(g);
  t.add("build matrix (64-bit)", ms_since(t0));
  t0 = Clock::now();
  const Variant* v = device ? wide_variant() : nullptr;
  if (v) {
    solve_wide_on_device(d, *v, max_edge_weight(g), log);
    t.add("solve (64-bit)", ms_since(t0));
  } else {
    if (log)
      log(fmt::format("solving in 64 bits on the CPU ({} threads)",
                      threads > 0 ? threads : hardware_threads()));
    solve_on_cpu(d, threads, log);
    t.add("solve (CPU, 64-bit)", ms_since(t0));
  }
  return d;
}

int64_t max_finite_entry64(const DistMatrix64& d, int threads) {
  const int n = d.n();
  std::vector<int64_t> row_max(std::max(n, 1), 0);
  parallel_for(n, threads, [&](int i) {
    int64_t m = 0;
    for (const int64_t* p = d.row(i); p != d.row(i) + n; ++p)
      if (*p < kInf64) m = std::max(m, *p);
    row_max[i] = m;
  });
  return *std::max_element(row_max.begin(), row_max.end());
}

}  // namespace apsp::harness
