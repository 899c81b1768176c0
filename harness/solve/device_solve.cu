// harness/solve/device_solve.hpp; the kernels are in kernels/adjacency.cuh.
#include <algorithm>
#include <chrono>

#include "core/cuda_check.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/measure/max_finite.hpp"
#include "harness/solve/device_solve.hpp"
#include "kernels/adjacency.cuh"

namespace apsp::harness {

namespace {
constexpr int kThreads = 256, kBlocks = 4096;  // grid-stride loops: enough blocks to fill any GPU
static_assert(sizeof(int3) == sizeof(Edge), "edges go to the device as (src, dst, w) triples");
}  // namespace

void SolveInput::build_rows_on_device(int32_t* d, int pitch, int first_row, int rows,
                                      cudaStream_t stream) const {
  if (kind_ != Kind::kEdges) {
    const int real = std::clamp(n_ - first_row, 0, rows);
    // cudaMemcpyDefault: a device matrix may sit on another GPU than this rank's (peer copy)
    put_rows(d, pitch, rows, matrix_ + static_cast<size_t>(std::min(first_row, n_)) * stride_, n_,
             real, kind_ == Kind::kDeviceMatrix ? cudaMemcpyDefault : cudaMemcpyHostToDevice,
             stream, stride_);
    APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    return;
  }
  const EdgeList& g = edges_->list;
  const DeviceBuffer<int3> edges = to_device<int3>(g.edges);  // landed when it returns
  kernels::adjacency::fill<<<kBlocks, kThreads, 0, stream>>>(d, g.num_vertices, pitch, first_row,
                                                             rows, kPadding);
  APSP_CUDA_CHECK_LAUNCH();
  if (!g.edges.empty()) {
    kernels::adjacency::scatter<<<kBlocks, kThreads, 0, stream>>>(
        d, pitch, first_row, rows, edges.get(), static_cast<long long>(g.edges.size()));
    APSP_CUDA_CHECK_LAUNCH();
  }
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));  // the edges' buffer is freed on return
}

// Two pinned bands: the one handed out, and the next one being copied into the other.
struct DeviceSolve::Bands {
  PinnedBuffer<int32_t> buf[2];
  CudaEvent ready[2];
  int first[2] = {-1, -1}, count[2] = {0, 0};
  int slot = 0;  // the buffer handed out last
  explicit Bands(size_t elems) : buf{PinnedBuffer<int32_t>(elems), PinnedBuffer<int32_t>(elems)} {}
};

DeviceSolve::DeviceSolve(const SolveInput& in, const Variant& v, const Config& c, size_t band_bytes)
    : in_(in),
      v_(v),
      c_(c),
      n_(in.n()),
      pitch_(row_pitch(v, c, n_)),
      band_rows_(static_cast<int>(std::clamp<size_t>(
          band_bytes / (sizeof(int32_t) * std::max(n_, 1)), 1, std::max(n_, 1)))),
      d_(buffer_elems(v, c, n_)) {}

DeviceSolve::~DeviceSolve() = default;

DeviceSolve::Times DeviceSolve::run() {
  Times t;
  const auto start = std::chrono::steady_clock::now();
  in_.build_on_device(d_.get(), pitch_, stream_.get());
  t.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  CudaEvent e0, e1;
  e0.record(stream_.get());
  v_.run(d_.get(), n_, c_, stream_.get(), nullptr);
  e1.record(stream_.get());
  // The pinned bands for the output while the GPU solves: pinning takes tens of milliseconds,
  // and done beside the build it held up the build's own calls (106 to 142 ms at V = 10000).
  // A result that stays on the device (a device array's) pins none.
  if (!in_.on_device()) bands_ = std::make_unique<Bands>(static_cast<size_t>(band_rows_) * n_);
  t.solve_ms = elapsed_ms(e0, e1);
  stream_.synchronize();
  return t;
}

std::string DeviceSolve::certify(const InEdges& g) {
  DeviceCertificate cert(g);
  return cert.check(d_.get(), pitch_, stream_.get());
}

int64_t DeviceSolve::max_finite() {
  return max_finite_rows(d_.get(), n_, n_, pitch_, stream_.get());
}

const int32_t* DeviceSolve::compact() {
  if (pitch_ == n_) return d_.get();
  if (compact_.size() == 0) {
    compact_ = DeviceBuffer<int32_t>(static_cast<size_t>(n_) * n_);
    get_matrix(compact_.get(), d_.get(), pitch_, n_, cudaMemcpyDeviceToDevice, stream_.get());
    stream_.synchronize();
  }
  return compact_.get();
}

int32_t DeviceSolve::at(int i, int j) {
  int32_t x = 0;
  APSP_CUDA_CHECK(cudaMemcpyAsync(&x, d_.get() + static_cast<size_t>(i) * pitch_ + j, sizeof x,
                                  cudaMemcpyDeviceToHost, stream_.get()));
  stream_.synchronize();
  return x;
}

const int32_t* DeviceSolve::band(int first, int count) {
  if (!bands_) bands_ = std::make_unique<Bands>(static_cast<size_t>(band_rows_) * n_);
  Bands& b = *bands_;
  const auto copy = [&](int slot, int from, int rows) {
    const size_t row = static_cast<size_t>(n_) * sizeof(int32_t);
    APSP_CUDA_CHECK(cudaMemcpy2DAsync(b.buf[slot].get(), row,
                                      d_.get() + static_cast<size_t>(from) * pitch_,
                                      static_cast<size_t>(pitch_) * sizeof(int32_t), row, rows,
                                      cudaMemcpyDeviceToHost, copies_.get()));
    b.ready[slot].record(copies_.get());
    b.first[slot] = from;
    b.count[slot] = rows;
  };
  const int other = b.slot ^ 1;
  // The band asked for was prefetched into the other buffer, or (the first call, or a jump) is
  // copied now into it.
  if (b.first[other] != first || b.count[other] != count) copy(other, first, count);
  APSP_CUDA_CHECK(cudaEventSynchronize(b.ready[other].get()));
  b.slot = other;
  // The next band goes into the buffer handed out before, which the caller is done with.
  if (const int next = first + count; next < n_)
    copy(other ^ 1, next, std::min(band_rows_, n_ - next));
  return b.buf[other].get();
}

}  // namespace apsp::harness
