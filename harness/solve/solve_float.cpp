#include "harness/solve/solve_float.hpp"

#include <fmt/format.h>

#include "core/cuda_check.hpp"
#include "core/parallel.hpp"
#include "core/reference.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"

namespace apsp::harness {

namespace {

// The registered variant that solves doubles (Variant::run_float64); nullptr when none does.
const Variant* float64_variant() {
  for (const Variant& v : registry())
    if (v.run_float64) return &v;
  return nullptr;
}

}  // namespace

std::string solve_float64(double* d, int n, const FloatSolve& how) {
  const Variant* v = how.device && !how.predecessors ? float64_variant() : nullptr;
  if (v && has_device()) {
    return config_name(
        v->name, solve_host_matrix_on_device(d, n, *v, v->run_float64, "in float64", how.log));
  }
  if (how.log)
    how.log(fmt::format("solving in float64 on the CPU in SciPy's order ({} threads)",
                        how.threads > 0 ? how.threads : hardware_threads()));
  floyd_warshall_scipy_order(d, n, how.predecessors, how.threads);
  return "cpu";
}

std::string solve_float64_on_device(double* d, int n, cudaStream_t stream, const Log& log) {
  const Variant* v = float64_variant();
  if (!v) throw std::runtime_error("no variant solves float64 on the GPU");
  const DeviceInfo dev = query_device();
  const Config c = shipped_config(*v, n, &dev);
  if (const std::string why = v->check(c, n, dev); !why.empty())
    throw std::runtime_error(
        fmt::format("{} cannot run at V = {}: {}", config_name(v->name, c), n, why));
  if (log) log(fmt::format("solving in float64 with {} on {}", config_name(v->name, c), dev.name));
  v->run_float64(d, n, c, stream, nullptr);
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return config_name(v->name, c);
}

std::vector<int> negative_diagonal(const double* d, int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i)
    if (d[static_cast<size_t>(i) * n + i] < 0) out.push_back(i);
  return out;
}

}  // namespace apsp::harness
