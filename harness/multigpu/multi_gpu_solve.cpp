// MultiGpuSolve (harness/multigpu/multi_gpu_solve.hpp): the engine's solver driven once, its
// rows built on the ranks and read back by bands.
#include "harness/multigpu/multi_gpu_solve.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/measure/max_finite.hpp"
#include "harness/multigpu/rank_certificate.hpp"

namespace apsp::harness {

MultiGpuSolve::MultiGpuSolve(std::unique_ptr<Transport> transport, const Variant& v,
                             const Config& c, int n, size_t band_bytes)
    : transport_(std::move(transport)), config_(distributed_config(v, c)) {
  if (!transport_) throw std::invalid_argument("multi-GPU solve: no transport");
  const Partition p = partition_rows(n, config_.tile(), transport_->ranks());
  if (const std::string why = device_memory_problem(*transport_, p); !why.empty())
    throw std::runtime_error(why);
  solver_ = std::make_unique<DistributedSolver>(*transport_, p);
  const size_t row_bytes = static_cast<size_t>(p.n) * sizeof(int32_t);
  band_rows_ =
      static_cast<int>(std::clamp<size_t>(band_bytes / row_bytes, 1, static_cast<size_t>(p.n)));
}

MultiGpuSolve::MultiGpuSolve(const std::string& transport, int ranks, const Variant& v,
                             const Config& c, const DistMatrix& input, int device,
                             size_t band_bytes)
    : MultiGpuSolve(make_transport(transport, ranks, device), v, c, input.n(), band_bytes) {
  build([&](int32_t* block, int pitch, int first_row, int rows, cudaStream_t stream) {
    const int n = input.n(), real = std::clamp(n - first_row, 0, rows);
    put_rows(block, pitch, rows, input.data() + static_cast<size_t>(std::min(first_row, n)) * n, n,
             real, cudaMemcpyHostToDevice, stream);
    APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  });
}

MultiGpuSolve::~MultiGpuSolve() {
  host_.reset();
  received_ = DeviceBuffer<int32_t>();
  solver_.reset();  // before the transport its ranks live on
}

std::unique_ptr<Transport> MultiGpuSolve::release(std::unique_ptr<MultiGpuSolve> s) {
  s->host_.reset();
  s->received_ = DeviceBuffer<int32_t>();
  s->solver_.reset();
  return std::move(s->transport_);
}

void MultiGpuSolve::build(const BuildRows& rows) {
  const Partition& p = solver_->partition();
  on_local_ranks(*solver_, [&](int r) {
    rows(solver_->block(r), p.pitch, p.first_row(r), p.padded_rows(r), solver_->stream(r));
  });
}

void MultiGpuSolve::run(RoundTimeline* timeline) {
  solver_->solve(config_, timeline);
  synchronize();
}

int64_t MultiGpuSolve::max_finite() {
  const Partition& p = solver_->partition();
  std::mutex m;
  int64_t most = 0;
  on_local_ranks(*solver_, [&](int r) {
    const int64_t x =
        max_finite_rows(solver_->block(r), p.real_rows(r), p.n, p.pitch, solver_->stream(r));
    const std::lock_guard lock(m);
    most = std::max(most, x);
  });
  return max_across(*transport_, most);
}

std::string MultiGpuSolve::certify(const InEdges& g) { return certify_ranks(*solver_, g); }

const int32_t* MultiGpuSolve::band(int first, int count) {
  const Partition& p = solver_->partition();
  if (first < 0 || count < 0 || count > band_rows_ || first + count > p.n)
    throw std::out_of_range("band of rows " + std::to_string(first) + " + " +
                            std::to_string(count) + " of " + std::to_string(p.n) + " (at most " +
                            std::to_string(band_rows_) + " a band)");
  // Process 0 writes, and holds rank 0, which receives what other processes' ranks send.
  const bool writer = transport_->process() == 0;
  if (writer && !host_)
    host_ = std::make_unique<PinnedBuffer<int32_t>>(static_cast<size_t>(band_rows_) * p.n);
  for (int r = 0; r < p.ranks; ++r) {
    const int lo = std::max(first, p.first_row(r)),
              hi = std::min(first + count, p.first_row(r) + p.real_rows(r));
    if (lo >= hi) continue;
    const int32_t* rows = nullptr;
    int32_t* to = writer ? host_->get() + static_cast<size_t>(lo - first) * p.n : nullptr;
    if (transport_->is_local(r))
      rows = solver_->block(r) + static_cast<size_t>(lo - p.first_row(r)) * p.pitch;
    if (writer && rows) {
      DeviceGuard guard(transport_->device(r));
      get_rows(to, rows, p.pitch, p.n, hi - lo, cudaMemcpyDeviceToHost, solver_->stream(r));
      continue;
    }
    // Rank r is another process's: its rows go to rank 0 whole (padding columns included).
    const size_t bytes = static_cast<size_t>(hi - lo) * p.pitch * sizeof(int32_t);
    if (rows) {
      DeviceGuard guard(transport_->device(r));
      transport_->send(r, 0, rows, nullptr, bytes, solver_->stream(r));
    } else if (writer) {
      DeviceGuard guard(transport_->device(0));
      if (received_.size() < static_cast<size_t>(band_rows_) * p.pitch)
        received_ = DeviceBuffer<int32_t>(static_cast<size_t>(band_rows_) * p.pitch);
      transport_->send(r, 0, nullptr, received_.get(), bytes, solver_->stream(0));
      get_rows(to, received_.get(), p.pitch, p.n, hi - lo, cudaMemcpyDeviceToHost,
               solver_->stream(0));
      APSP_CUDA_CHECK(cudaStreamSynchronize(solver_->stream(0)));
    }
  }
  synchronize();
  return writer ? host_->get() : nullptr;
}

void MultiGpuSolve::synchronize() { solver_->synchronize(); }

}  // namespace apsp::harness
