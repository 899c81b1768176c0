// harness/solve/array_solve.hpp's device arrays: SciPy's conventions applied on the device
// (kernels/adjacency.cuh), the Solver over the matrix where it is, the result copied device to
// device. Nothing goes through host memory but a few scalars.
#include <algorithm>
#include <string>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/solve/array_solve.hpp"
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

}  // namespace

ArraySolveResult solve_device_array(const int32_t* in, int n, int64_t stride, int32_t* out,
                                    int64_t out_stride, cudaStream_t stream,
                                    const ArraySolveRequest& r) {
  if (r.predecessors)
    throw std::invalid_argument(
        "return_predecessors: not for device arrays (solve a host array for predecessors)");
  if (r.device == "cpu" || r.variant == "cpu")
    throw std::invalid_argument("device='cpu': this array is in device memory");
  if (r.out != Element::kInt32)
    throw std::invalid_argument("a device array is solved into int32 distances");
  const auto t0 = Clock::now();
  const Normalized d = normalize(in, n, stride, r.directed, r.unweighted, stream);
  ArraySolveResult result;
  const double read_ms = ms_since(t0);
  SolveRequest req;
  req.graph = std::make_shared<const SolveInput>(
      SolveInput::device_matrix(d.d.get(), n, static_cast<size_t>(n), d.max_weight));
  req.variant = r.variant;
  req.allow_64_bits = false;  // the result goes back into int32 device memory
  req.threads = r.threads;
  req.warm_up = false;
  req.log = r.log;
  Solver solver(std::move(req));
  solver.run();
  const auto t1 = Clock::now();
  const Solver::OnDevice at = solver.on_device();
  if (!at.data) throw std::logic_error("a device array's solve left its result off the device");
  APSP_CUDA_CHECK(cudaMemcpy2DAsync(
      out, out_stride * sizeof(int32_t), at.data, static_cast<size_t>(at.pitch) * sizeof(int32_t),
      static_cast<size_t>(n) * sizeof(int32_t), n, cudaMemcpyDeviceToDevice, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  result.timing = solver.timing();
  result.timing.steps.insert(result.timing.steps.begin(), {"read array (GPU)", read_ms});
  result.timing.add("store result (GPU)", ms_since(t1));
  result.precision = solver.precision();
  result.solved_with = solver.solved_with();
  return result;
}

}  // namespace apsp::harness
