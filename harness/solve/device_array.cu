// harness/solve/array_solve.hpp's device arrays: SciPy's conventions applied on the device
// (kernels/adjacency.cuh, kernels/convert.cuh), the Solver over the matrix where it is, or the
// float64 path, the result copied or converted device to device. Nothing goes through host
// memory but a few scalars and the diagonal.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/solve/array_solve.hpp"
#include "harness/solve/element_types.hpp"
#include "harness/solve/solve_float.hpp"
#include "harness/solve/solve_steps.hpp"
#include "kernels/adjacency.cuh"
#include "kernels/convert.cuh"

namespace apsp::harness {

namespace {

// d[i][j] = d[j][i] = the smaller of the two (rows n apart), by `kernel`: symmetric_min's
// launch (kernels/adjacency.cuh), for either element type.
template <class T>
void symmetrize(void (*kernel)(T*, int), T* d, int n, cudaStream_t stream) {
  namespace k = kernels::adjacency;
  if (n < 2) return;
  const int tiles = (n + k::kSymTile - 1) / k::kSymTile;
  kernel<<<dim3(tiles, tiles), dim3(k::kSymTile, k::kSymRows), 0, stream>>>(d, n);
  APSP_CUDA_CHECK_LAUNCH();
}

// The caller's int32 matrix under the conventions, rows n apart, with its largest weight and
// the lowest flat index of a negative entry (kNoNegative: none).
constexpr unsigned long long kNoNegative = ~0ull;
struct Normalized {
  DeviceBuffer<int32_t> d;
  int max_weight = 0;
  unsigned long long first_negative = kNoNegative;
};

Normalized normalize(const int32_t* in, int n, int64_t stride, bool directed, bool unweighted,
                     cudaStream_t stream) {
  namespace k = kernels::adjacency;
  Normalized out{DeviceBuffer<int32_t>(std::max<size_t>(static_cast<size_t>(n) * n, 1)), 0};
  DeviceBuffer<int> most(1);
  DeviceBuffer<unsigned long long> negative(1);
  APSP_CUDA_CHECK(cudaMemsetAsync(most.get(), 0, sizeof(int), stream));
  APSP_CUDA_CHECK(cudaMemcpyAsync(negative.get(), &kNoNegative, sizeof kNoNegative,
                                  cudaMemcpyHostToDevice, stream));
  constexpr int kThreads = 256, kBlocks = 4096;
  k::from_dense<<<kBlocks, kThreads, 0, stream>>>(in, stride, n, out.d.get(), unweighted ? 1 : 0,
                                                  most.get(), negative.get());
  APSP_CUDA_CHECK_LAUNCH();
  if (!directed) symmetrize(kernels::adjacency::symmetric_min, out.d.get(), n, stream);
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&out.max_weight, most.get(), sizeof(int), cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaMemcpyAsync(&out.first_negative, negative.get(), sizeof out.first_negative,
                                  cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

constexpr int kThreads = 256, kBlocks = 4096;

// f(T{}) with T the device element type: every host type but bool, and the 16-bit floats.
template <class Fn>
void with_device_element(Element e, Fn&& f) {
  if (e == Element::kBool)
    throw std::invalid_argument("a device array of bool is not a graph's weights");
  if (e == Element::kFloat16) return f(__half{});
  if (e == Element::kBFloat16) return f(__nv_bfloat16{});
  with_element(e, f);
}

struct Converted {
  DeviceBuffer<int32_t> d;
  kernels::convert::Findings found;
};

// The conventions on the device, into int32 (kernels/convert.cuh), symmetric when undirected.
Converted convert_to_int32(const DeviceMatrixIn& a, bool directed, bool unweighted,
                           cudaStream_t stream) {
  const int n = a.n;
  Converted out{DeviceBuffer<int32_t>(std::max<size_t>(static_cast<size_t>(n) * n, 1)), {0, 0}};
  DeviceBuffer<kernels::convert::Findings> found(1);
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(found.get(), &out.found, sizeof out.found, cudaMemcpyHostToDevice, stream));
  with_device_element(a.type, [&](auto zero) {
    using T = decltype(zero);
    kernels::convert::to_int32<T><<<kBlocks, kThreads, 0, stream>>>(
        static_cast<const T*>(a.data), a.stride, n, out.d.get(), unweighted ? 1 : 0, found.get());
  });
  APSP_CUDA_CHECK_LAUNCH();
  if (!directed) symmetrize(kernels::adjacency::symmetric_min, out.d.get(), n, stream);
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&out.found, found.get(), sizeof out.found, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return out;
}

// The float64 path on the device: the adjacency in doubles, solved in place; store(d, cycle)
// copies the result (rows n apart; cycle: whether one is negative) out and returns when done.
template <class Store>
ArraySolveResult solve_floats_on_device(const DeviceMatrixIn& a, cudaStream_t stream,
                                        const ArraySolveRequest& r, Store&& store) {
  const int n = a.n;
  const auto t0 = Clock::now();
  DeviceBuffer<double> d(std::max<size_t>(static_cast<size_t>(n) * n, 1));
  with_device_element(a.type, [&](auto zero) {
    using T = decltype(zero);
    kernels::convert::to_float64<T>
        <<<kBlocks, kThreads, 0, stream>>>(static_cast<const T*>(a.data), a.stride, n, d.get(),
                                           r.unweighted ? 1 : 0, a.type == Element::kInt32 ? 1 : 0);
  });
  APSP_CUDA_CHECK_LAUNCH();
  if (!r.directed) symmetrize(kernels::convert::symmetric_min_float64, d.get(), n, stream);
  ArraySolveResult result;
  result.timing.add("read array (GPU, float64)", ms_since(t0));
  const auto t1 = Clock::now();
  result.solved_with = solve_float64_on_device(d.get(), n, stream, r.log);
  result.timing.add("solve (float64)", ms_since(t1));
  result.precision = "float64";
  const auto t2 = Clock::now();
  std::vector<double> diagonal(n);  // n scalars: the negative cycles' witnesses
  APSP_CUDA_CHECK(cudaMemcpy2DAsync(diagonal.data(), sizeof(double), d.get(),
                                    (static_cast<size_t>(n) + 1) * sizeof(double), sizeof(double),
                                    n, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i)
    if (diagonal[i] < 0) result.negative_cycle.push_back(i);
  store(d.get(), !result.negative_cycle.empty());
  result.timing.add("store result (GPU)", ms_since(t2));
  return result;
}

// The float64 path's result (rows n apart) into a floating array's float64 out, or an integer
// one's int32 out: std::range_error for a distance int32 cannot hold (but a negative cycle's,
// which the caller reports).
ArraySolveResult solve_floats_into(const DeviceMatrixIn& a, void* out, int64_t out_stride,
                                   cudaStream_t stream, const ArraySolveRequest& r) {
  namespace c = kernels::convert;
  const int n = a.n;
  if (is_floating(a.type))
    return solve_floats_on_device(a, stream, r, [&](const double* d, bool) {
      const size_t row = static_cast<size_t>(n) * sizeof(double);
      APSP_CUDA_CHECK(cudaMemcpy2DAsync(out, out_stride * sizeof(double), d, row, row, n,
                                        cudaMemcpyDeviceToDevice, stream));
      APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    });
  return solve_floats_on_device(a, stream, r, [&](const double* d, bool cycle) {
    DeviceBuffer<int> past(1);
    APSP_CUDA_CHECK(cudaMemsetAsync(past.get(), 0, sizeof(int), stream));
    c::float64_to_int32<<<kBlocks, kThreads, 0, stream>>>(d, n, static_cast<int32_t*>(out),
                                                          out_stride, past.get());
    APSP_CUDA_CHECK_LAUNCH();
    int met = 0;
    APSP_CUDA_CHECK(cudaMemcpyAsync(&met, past.get(), sizeof met, cudaMemcpyDeviceToHost, stream));
    APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    if ((met & c::kPastAbove) || ((met & c::kPastBelow) && !cycle))
      throw std::range_error(
          "the distances pass int32's range (1073741823: unreachable), where an integer device "
          "array's go: solve a float64 copy of the array");
  });
}

}  // namespace

namespace {

void check_device_request(const ArraySolveRequest& r) {
  if (r.predecessors)
    throw std::invalid_argument(
        "return_predecessors: not for device arrays (solve a host array for predecessors)");
  if (r.device == "cpu" || r.variant == "cpu")
    throw std::invalid_argument("device='cpu': this array is in device memory");
}

// The Solver over the int32 adjacency d (rows n apart) where it is; store(at) copies its result
// out of the Solver's matrix and returns when that is done.
template <class Store>
ArraySolveResult solve_int32_on_device(const int32_t* d, int n, int max_weight,
                                       const ArraySolveRequest& r, double read_ms, Store&& store) {
  SolveRequest req;
  req.graph = std::make_shared<const SolveInput>(
      SolveInput::device_matrix(d, n, static_cast<size_t>(n), max_weight));
  req.variant = r.variant;
  req.allow_64_bits = false;  // the result goes back into device memory of 32-bit distances
  req.threads = r.threads;
  req.warm_up = false;
  req.log = r.log;
  Solver solver(std::move(req));
  solver.run();
  const auto t1 = Clock::now();
  const Solver::OnDevice at = solver.on_device();
  if (!at.data) throw std::logic_error("a device array's solve left its result off the device");
  store(at);
  ArraySolveResult result;
  result.timing = solver.timing();
  result.timing.steps.insert(result.timing.steps.begin(), {"read array (GPU)", read_ms});
  result.timing.add("store result (GPU)", ms_since(t1));
  result.precision = solver.precision();
  result.solved_with = solver.solved_with();
  return result;
}

// The Solver's result copied into the caller's int32 matrix, or converted into its float64 one.
void store_int32(const Solver::OnDevice& at, int n, int32_t* out, int64_t out_stride,
                 cudaStream_t stream) {
  APSP_CUDA_CHECK(cudaMemcpy2DAsync(
      out, out_stride * sizeof(int32_t), at.data, static_cast<size_t>(at.pitch) * sizeof(int32_t),
      static_cast<size_t>(n) * sizeof(int32_t), n, cudaMemcpyDeviceToDevice, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
}
void store_float64(const Solver::OnDevice& at, int n, double* out, int64_t out_stride,
                   cudaStream_t stream) {
  kernels::convert::int32_to_float64<<<kBlocks, kThreads, 0, stream>>>(at.data, at.pitch, n, out,
                                                                       out_stride);
  APSP_CUDA_CHECK_LAUNCH();
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace

ArraySolveResult solve_device_array(const int32_t* in, int n, int64_t stride, int32_t* out,
                                    int64_t out_stride, cudaStream_t stream,
                                    const ArraySolveRequest& r) {
  check_device_request(r);
  if (r.out != Element::kInt32)
    throw std::invalid_argument("a device array is solved into int32 distances");
  const auto t0 = Clock::now();
  const Normalized d = normalize(in, n, stride, r.directed, r.unweighted, stream);
  if (d.first_negative != kNoNegative)
    throw std::invalid_argument(
        "entry (" + std::to_string(d.first_negative / n) + ", " +
        std::to_string(d.first_negative % n) +
        ") is negative: solve_device_array takes weights >= 0 only (solve_device_matrix takes "
        "the float64 path for them)");
  return solve_int32_on_device(d.d.get(), n, d.max_weight, r, ms_since(t0), [&](const auto& at) {
    store_int32(at, n, out, out_stride, stream);
  });
}

bool is_floating(Element e) {
  return e == Element::kFloat16 || e == Element::kBFloat16 || e == Element::kFloat32 ||
         e == Element::kFloat64;
}

ArraySolveResult solve_device_matrix(const DeviceMatrixIn& a, void* out, int64_t out_stride,
                                     cudaStream_t stream, const ArraySolveRequest& r) {
  check_device_request(r);
  const bool floating = is_floating(a.type);
  if (r.out != (floating ? Element::kFloat64 : Element::kInt32))
    throw std::invalid_argument(floating
                                    ? "a floating device array is solved into float64 distances"
                                    : "an integer device array is solved into int32 distances");
  const auto t0 = Clock::now();
  if (a.type == Element::kInt32) {
    const Normalized d = normalize(static_cast<const int32_t*>(a.data), a.n, a.stride, r.directed,
                                   r.unweighted, stream);
    // A negative weight takes the float64 path, as on the host (into int32 distances still).
    if (d.first_negative != kNoNegative) return solve_floats_into(a, out, out_stride, stream, r);
    return solve_int32_on_device(
        d.d.get(), a.n, d.max_weight, r, ms_since(t0), [&](const auto& at) {
          store_int32(at, a.n, static_cast<int32_t*>(out), out_stride, stream);
        });
  }
  const Converted c = convert_to_int32(a, r.directed, r.unweighted, stream);
  if (c.found.needs_float) return solve_floats_into(a, out, out_stride, stream, r);
  const double read_ms = ms_since(t0);
  try {
    return solve_int32_on_device(
        c.d.get(), a.n, c.found.max_weight, r, read_ms, [&](const auto& at) {
          if (floating)
            store_float64(at, a.n, static_cast<double*>(out), out_stride, stream);
          else
            store_int32(at, a.n, static_cast<int32_t*>(out), out_stride, stream);
        });
  } catch (const std::range_error&) {
    if (!floating) throw;  // int32 distances asked for: past them is the caller's error
    return solve_floats_into(a, out, out_stride, stream, r);
  }
}

}  // namespace apsp::harness
