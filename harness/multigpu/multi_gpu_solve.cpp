// MultiGpuSolve (harness/multigpu/multi_gpu_solve.hpp): the engine's solver driven once, its
// rows read back by bands.
#include "harness/multigpu/multi_gpu_solve.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "harness/measure/matrix_layout.hpp"

namespace apsp::harness {

std::string device_memory_problem(const Transport& t, const Partition& p) {
  std::map<int, uint64_t> need;
  for (int r = 0; r < p.ranks; ++r) need[t.device(r)] += p.bytes_per_rank(r);
  for (const auto& [d, bytes] : need) {
    DeviceGuard guard(d);
    size_t free = 0, total = 0;
    APSP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    if (bytes > free)
      return "the distributed solve of n = " + std::to_string(p.n) + " over " +
             std::to_string(p.ranks) + " ranks needs " + std::to_string(bytes) +
             " bytes on device " + std::to_string(d) + ", " + std::to_string(free) + " are free";
  }
  return "";
}

MultiGpuSolve::MultiGpuSolve(const std::string& transport, int ranks, const Variant& v,
                             const Config& c, const DistMatrix& input, int device,
                             size_t band_bytes)
    : config_(distributed_config(v, c)) {
  transport_ = make_transport(transport, ranks, device);
  const Partition p = partition_rows(input.n(), config_.tile(), ranks);
  if (const std::string why = device_memory_problem(*transport_, p); !why.empty())
    throw std::runtime_error(why);
  solver_ = std::make_unique<DistributedSolver>(*transport_, p);
  for (int r = 0; r < p.ranks; ++r) {
    if (p.idle(r)) continue;
    DeviceGuard guard(transport_->device(r));
    const int32_t* src = p.real_rows(r) > 0 ? input.row(p.first_row(r)) : input.data();
    put_rows(solver_->block(r), p.pitch, p.padded_rows(r), src, p.n, p.real_rows(r),
             cudaMemcpyHostToDevice, solver_->stream(r));
  }
  synchronize();
  const size_t row_bytes = static_cast<size_t>(p.n) * sizeof(int32_t);
  band_rows_ =
      static_cast<int>(std::clamp<size_t>(band_bytes / row_bytes, 1, static_cast<size_t>(p.n)));
  host_ = std::make_unique<PinnedBuffer<int32_t>>(static_cast<size_t>(band_rows_) * p.n);
}

MultiGpuSolve::~MultiGpuSolve() {
  host_.reset();
  solver_.reset();  // before the transport its ranks live on
}

void MultiGpuSolve::run() {
  solver_->solve(config_);
  synchronize();
}

const int32_t* MultiGpuSolve::band(int first, int count) {
  const Partition& p = solver_->partition();
  if (first < 0 || count < 0 || count > band_rows_ || first + count > p.n)
    throw std::out_of_range("band of rows " + std::to_string(first) + " + " +
                            std::to_string(count) + " of " + std::to_string(p.n) + " (at most " +
                            std::to_string(band_rows_) + " a band)");
  for (int r = 0; r < p.ranks; ++r) {
    const int lo = std::max(first, p.first_row(r)),
              hi = std::min(first + count, p.first_row(r) + p.real_rows(r));
    if (lo >= hi) continue;
    DeviceGuard guard(transport_->device(r));
    get_rows(host_->get() + static_cast<size_t>(lo - first) * p.n,
             solver_->block(r) + static_cast<size_t>(lo - p.first_row(r)) * p.pitch, p.pitch, p.n,
             hi - lo, cudaMemcpyDeviceToHost, solver_->stream(r));
  }
  synchronize();
  return host_->get();
}

void MultiGpuSolve::synchronize() {
  for (int r = 0; r < solver_->partition().ranks; ++r) {
    DeviceGuard guard(transport_->device(r));
    APSP_CUDA_CHECK(cudaStreamSynchronize(solver_->stream(r)));
  }
}

}  // namespace apsp::harness
