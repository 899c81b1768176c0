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
#include "harness/tune/resolve.hpp"

namespace apsp::harness {

const Variant* wide_variant() {
  for (const Variant& v : registry())
    if (v.run_wide && v.precision == kPrecisionInt64) return &v;
  return nullptr;
}

DistMatrix64 solve_wide(const SolveInput& g, bool device, int threads, const Log& log,
                        SolveTiming& t) {
  auto t0 = Clock::now();
  check_host_matrices(g.n(), 2, "the 64-bit distances");
  DistMatrix64 d = g.host_adjacency64();
  t.add("build matrix (64-bit)", ms_since(t0));
  t0 = Clock::now();
  const Variant* v = device ? wide_variant() : nullptr;
  if (v) {
    if (const std::string why = admission_problem(*v, d.n(), g.max_weight()); !why.empty())
      throw std::runtime_error(fmt::format("V = {}: {}", d.n(), why));
    solve_host_matrix_on_device(d.data(), d.n(), *v, v->run_wide, "in 64 bits", log);
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

template <class T>
Config solve_host_matrix_on_device(T* d, int n, const Variant& v, const DeviceRun<T>& run,
                                   const std::string& how, const Log& log) {
  const DeviceInfo dev = query_device();
  const Config c = shipped_config(v, n, &dev);
  if (const std::string why = v.check(c, n, dev); !why.empty())
    throw std::runtime_error(
        fmt::format("{} cannot run at V = {}: {}", config_name(v.name, c), n, why));
  const size_t count = static_cast<size_t>(n) * n, bytes = count * sizeof(T);
  if (const uint64_t free = device_free_bytes(); bytes > free)
    throw std::runtime_error(
        fmt::format("V = {}: the matrix solved {} needs {} on {}, which has {} free", n, how,
                    human_bytes(bytes), dev.name, human_bytes(free)));
  if (log) log(fmt::format("solving {} with {} on {}", how, config_name(v.name, c), dev.name));
  DeviceBuffer<T> buf(count);
  const CudaStream stream;
  APSP_CUDA_CHECK(cudaMemcpyAsync(buf.get(), d, bytes, cudaMemcpyHostToDevice, stream.get()));
  run(buf.get(), n, c, stream.get(), nullptr);
  APSP_CUDA_CHECK(cudaMemcpyAsync(d, buf.get(), bytes, cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return c;
}
template Config solve_host_matrix_on_device(int64_t*, int, const Variant&,
                                            const DeviceRun<int64_t>&, const std::string&,
                                            const Log&);
template Config solve_host_matrix_on_device(double*, int, const Variant&, const DeviceRun<double>&,
                                            const std::string&, const Log&);

}  // namespace apsp::harness
