// harness/solve/array_solve.hpp's device arrays: SciPy's conventions applied on the device
// (kernels/adjacency.cuh), the Solver over the matrix where it is, the result copied device to
// device. Nothing goes through host memory but a few scalars.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

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

namespace apsp::harness {

namespace {

// The caller's matrix under the conventions, rows n apart, with its largest weight; throws
// std::invalid_argument for a negative entry.
struct Normalized {
  DeviceBuffer<int32_t> d;
  int max_weight = 0;
};

Normalized normalize(const int32_t* in, int n, int64_t stride, bool directed, bool unweighted,
                     cudaStream_t stream) {
  namespace k = kernels::adjacency;
  Normalized out{DeviceBuffer<int32_t>(std::max<size_t>(static_cast<size_t>(n) * n, 1)), 0};
  DeviceBuffer<int> most(1);
  DeviceBuffer<unsigned long long> negative(1);
  const unsigned long long none = ~0ull;
  APSP_CUDA_CHECK(cudaMemsetAsync(most.get(), 0, sizeof(int), stream));
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(negative.get(), &none, sizeof none, cudaMemcpyHostToDevice, stream));
  constexpr int kThreads = 256, kBlocks = 4096;
  k::from_dense<<<kBlocks, kThreads, 0, stream>>>(in, stride, n, out.d.get(), unweighted ? 1 : 0,
                                                  most.get(), negative.get());
  APSP_CUDA_CHECK_LAUNCH();
  if (!directed && n > 1) {
    const int tiles = (n + k::kSymTile - 1) / k::kSymTile;
    k::symmetric_min<<<dim3(tiles, tiles), dim3(k::kSymTile, k::kSymRows), 0, stream>>>(out.d.get(),
                                                                                        n);
    APSP_CUDA_CHECK_LAUNCH();
  }
  unsigned long long first = none;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&out.max_weight, most.get(), sizeof(int), cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&first, negative.get(), sizeof first, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (first != none)
    throw std::invalid_argument(
        "entry (" + std::to_string(first / n) + ", " + std::to_string(first % n) +
        ") is negative: a device array is solved with weights >= 0 only (a host array of any "
        "weights takes the float64 path)");
  return out;
}

constexpr int kThreads = 256, kBlocks = 4096;
constexpr double kPlusInfinity = std::numeric_limits<double>::infinity();

template <class T>
__device__ double entry_value(T x) {
  return static_cast<double>(x);
}
template <>
__device__ double entry_value(__half x) {
  return __half2float(x);
}
template <>
__device__ double entry_value(__nv_bfloat16 x) {
  return __bfloat162float(x);
}

// What the conversion found: the largest int32 weight, whether a weight needs the float64 path
// (not an integer, negative, or past int32's edges: floating types only), and the lowest flat
// index of a negative entry of an integer type (refused).
struct Findings {
  int max_weight;
  int needs_float;
  unsigned long long first_negative;
};

// SciPy's dense conventions on any numeric T into the int32 adjacency d (rows n apart, kInf: no
// edge, 0 on the diagonal): 0, NaN and +-inf are no edge; an integer type's entry at or above
// kInf is none either (as int32 arrays are read). A grid-stride loop over the n^2 entries.
template <class T>
__global__ void to_int32(const T* __restrict__ in, long long stride, int n, int* __restrict__ d,
                         int unweighted, int integral, Findings* found) {
  const long long count = static_cast<long long>(n) * n;
  int most = 0;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const double x = entry_value(in[i * stride + j]);
    int v = i == j ? 0 : kInf;
    const bool edge = i != j && x != 0 && !isnan(x) && !isinf(x) && !(integral && x >= kInf);
    if (edge && unweighted) {
      v = 1;
    } else if (edge && integral && x < 0) {
      atomicMin(&found->first_negative, static_cast<unsigned long long>(e));
    } else if (edge && (x < 0 || x != floor(x) || x >= kInf)) {
      found->needs_float = 1;
    } else if (edge) {
      v = static_cast<int>(x);
    }
    d[e] = v;
    if (v < kInf) most = max(most, v);
  }
  if (most > 0) atomicMax(&found->max_weight, most);
}

// The float64 adjacency (rows n apart, +inf: no edge, 0 on the diagonal) of a floating T.
template <class T>
__global__ void to_float64(const T* __restrict__ in, long long stride, int n,
                           double* __restrict__ d, int unweighted) {
  const long long count = static_cast<long long>(n) * n;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const double x = entry_value(in[i * stride + j]);
    const bool none = x == 0 || isnan(x) || isinf(x);
    d[e] = i == j ? 0.0 : none ? kPlusInfinity : unweighted ? 1.0 : x;
  }
}

// d[i][j] = d[j][i] = the smaller of the two; each pair taken by the thread of its upper entry.
__global__ void symmetric_min_float64(double* d, int n) {
  const long long count = static_cast<long long>(n) * n;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    if (i >= j) continue;
    const double m = fmin(d[e], d[static_cast<long long>(j) * n + i]);
    d[e] = d[static_cast<long long>(j) * n + i] = m;
  }
}

// The Solver's int32 result (rows `pitch` apart) as float64 (kInf: +inf) into out.
__global__ void int32_to_float64(const int* __restrict__ from, int pitch, int n,
                                 double* __restrict__ out, long long out_stride) {
  const long long count = static_cast<long long>(n) * n;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const int x = from[static_cast<long long>(i) * pitch + j];
    out[i * out_stride + j] = x >= kInf ? kPlusInfinity : static_cast<double>(x);
  }
}

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
  Findings found;
};

// The conventions on the device, into int32 (kernels above), symmetric when undirected.
Converted convert_to_int32(const DeviceMatrixIn& a, bool directed, bool unweighted,
                           cudaStream_t stream) {
  const int n = a.n;
  Converted out{DeviceBuffer<int32_t>(std::max<size_t>(static_cast<size_t>(n) * n, 1)),
                {0, 0, ~0ull}};
  DeviceBuffer<Findings> found(1);
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(found.get(), &out.found, sizeof(Findings), cudaMemcpyHostToDevice, stream));
  with_device_element(a.type, [&](auto zero) {
    using T = decltype(zero);
    to_int32<T><<<kBlocks, kThreads, 0, stream>>>(static_cast<const T*>(a.data), a.stride, n,
                                                  out.d.get(), unweighted ? 1 : 0,
                                                  is_floating(a.type) ? 0 : 1, found.get());
  });
  APSP_CUDA_CHECK_LAUNCH();
  if (!directed && n > 1) {
    namespace k = kernels::adjacency;
    const int tiles = (n + k::kSymTile - 1) / k::kSymTile;
    k::symmetric_min<<<dim3(tiles, tiles), dim3(k::kSymTile, k::kSymRows), 0, stream>>>(out.d.get(),
                                                                                        n);
    APSP_CUDA_CHECK_LAUNCH();
  }
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&out.found, found.get(), sizeof(Findings), cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (out.found.first_negative != ~0ull)
    throw std::invalid_argument(
        "entry (" + std::to_string(out.found.first_negative / n) + ", " +
        std::to_string(out.found.first_negative % n) +
        ") is negative: an integer device array is solved with weights >= 0 only (a float one "
        "takes the float64 path)");
  return out;
}

// The float64 path on the device: the adjacency in doubles, solved in place, copied to out.
ArraySolveResult solve_floats_on_device(const DeviceMatrixIn& a, double* out, int64_t out_stride,
                                        cudaStream_t stream, const ArraySolveRequest& r) {
  const int n = a.n;
  const auto t0 = Clock::now();
  DeviceBuffer<double> d(std::max<size_t>(static_cast<size_t>(n) * n, 1));
  with_device_element(a.type, [&](auto zero) {
    using T = decltype(zero);
    to_float64<T><<<kBlocks, kThreads, 0, stream>>>(static_cast<const T*>(a.data), a.stride, n,
                                                    d.get(), r.unweighted ? 1 : 0);
  });
  APSP_CUDA_CHECK_LAUNCH();
  if (!r.directed) symmetric_min_float64<<<kBlocks, kThreads, 0, stream>>>(d.get(), n);
  APSP_CUDA_CHECK_LAUNCH();
  ArraySolveResult result;
  result.timing.add("read array (GPU, float64)", ms_since(t0));
  const auto t1 = Clock::now();
  result.solved_with = solve_float64_on_device(d.get(), n, stream, r.log);
  result.timing.add("solve (float64)", ms_since(t1));
  result.precision = "float64";
  const auto t2 = Clock::now();
  const size_t row = static_cast<size_t>(n) * sizeof(double);
  APSP_CUDA_CHECK(cudaMemcpy2DAsync(out, out_stride * sizeof(double), d.get(), row, row, n,
                                    cudaMemcpyDeviceToDevice, stream));
  std::vector<double> diagonal(n);  // n scalars: the negative cycles' witnesses
  APSP_CUDA_CHECK(cudaMemcpy2DAsync(diagonal.data(), sizeof(double), d.get(),
                                    (static_cast<size_t>(n) + 1) * sizeof(double), sizeof(double),
                                    n, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i)
    if (diagonal[i] < 0) result.negative_cycle.push_back(i);
  result.timing.add("store result (GPU)", ms_since(t2));
  return result;
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
  int32_to_float64<<<kBlocks, kThreads, 0, stream>>>(at.data, at.pitch, n, out, out_stride);
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
  if (a.type == Element::kInt32)
    return solve_device_array(static_cast<const int32_t*>(a.data), a.n, a.stride,
                              static_cast<int32_t*>(out), out_stride, stream, r);
  const auto t0 = Clock::now();
  const Converted c = convert_to_int32(a, r.directed, r.unweighted, stream);
  if (c.found.needs_float)
    return solve_floats_on_device(a, static_cast<double*>(out), out_stride, stream, r);
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
    return solve_floats_on_device(a, static_cast<double*>(out), out_stride, stream, r);
  }
}

}  // namespace apsp::harness
