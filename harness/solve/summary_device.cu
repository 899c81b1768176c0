// harness/solve/summary.hpp on the device (the kernels are in kernels/reductions.cuh), over the
// ranks of a distributed solve, and the choice of where to reduce and read rows.
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <variant>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/multigpu/multi_gpu_solve.hpp"
#include "harness/solve/device_solve.hpp"
#include "harness/solve/summary.hpp"
#include "kernels/reductions.cuh"

namespace apsp::harness {

namespace k = kernels::reductions;

namespace {

constexpr size_t kBandBytes = size_t{256} << 20;  // of the matrix per band, by default

int band_rows_for(int n, int band_rows) {
  if (band_rows > 0) return band_rows;
  return static_cast<int>(std::clamp<size_t>(kBandBytes / (sizeof(int32_t) * std::max(n, 1)), 1,
                                             static_cast<size_t>(std::max(n, 1))));
}

// The per-vertex arrays on one device: the rows' values by global row, the columns' partial sums
// over the rows reduced there.
class DeviceReducer {
 public:
  DeviceReducer(int n, cudaStream_t stream)
      : n_(n), row_max_(n), row_count_(n), row_sum_(n), col_count_(n), col_sum_(n) {
    APSP_CUDA_CHECK(cudaMemsetAsync(col_count_.get(), 0, col_count_.bytes(), stream));
    APSP_CUDA_CHECK(cudaMemsetAsync(col_sum_.get(), 0, col_sum_.bytes(), stream));
  }
  // Rows [i0, i0 + rows) of the matrix, the first at `d`, `pitch` apart; a band at a time.
  void add_rows(const int32_t* d, int pitch, int i0, int rows, int band_rows, cudaStream_t stream) {
    for (int b0 = 0; b0 < rows; b0 += band_rows) {
      const int count = std::min(band_rows, rows - b0);
      const int* band = d + static_cast<size_t>(b0) * pitch;
      k::reduce_rows<<<count, k::kRowThreads, 0, stream>>>(band, pitch, n_, i0 + b0, row_max_.get(),
                                                           row_count_.get(), row_sum_.get());
      APSP_CUDA_CHECK_LAUNCH();
      const dim3 grid((n_ + k::kColumnThreads - 1) / k::kColumnThreads,
                      (count + k::kColumnRows - 1) / k::kColumnRows);
      k::reduce_columns<<<grid, k::kColumnThreads, 0, stream>>>(band, pitch, n_, i0 + b0, count,
                                                                col_count_.get(), col_sum_.get());
      APSP_CUDA_CHECK_LAUNCH();
    }
  }
  // Rows [i0, i0 + rows)'s values into r, and the columns' sums added to r's; waits for the
  // stream.
  void read_into(VertexReductions& r, int i0, int rows, cudaStream_t stream) const {
    std::vector<uint32_t> counts(n_);
    std::vector<uint64_t> sums(n_);
    const auto down = [&](void* to, const void* from, size_t bytes) {
      APSP_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, stream));
    };
    std::vector<int32_t> most(std::max(rows, 0));
    if (rows > 0) {
      down(most.data(), row_max_.get() + i0, rows * sizeof(int32_t));
      down(r.reaches.data() + i0, row_count_.get() + i0, rows * sizeof(uint32_t));
      down(r.out_sum.data() + i0, row_sum_.get() + i0, rows * sizeof(uint64_t));
    }
    down(counts.data(), col_count_.get(), col_count_.bytes());
    down(sums.data(), col_sum_.get(), col_sum_.bytes());
    APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    std::copy(most.begin(), most.end(), r.eccentricity.begin() + i0);
    for (int j = 0; j < n_; ++j) {
      r.reached_by[j] += counts[j];
      r.in_sum[j] += sums[j];
    }
  }

 private:
  int n_;
  DeviceBuffer<int> row_max_;
  DeviceBuffer<unsigned> row_count_;
  DeviceBuffer<unsigned long long> row_sum_;
  DeviceBuffer<unsigned> col_count_;
  DeviceBuffer<unsigned long long> col_sum_;
};

}  // namespace

uint64_t reduction_device_bytes(int n) {
  return static_cast<uint64_t>(std::max(n, 1)) *
         (sizeof(int) + 2 * sizeof(unsigned) + 2 * sizeof(unsigned long long));
}

VertexReductions reduce_on_device(const int32_t* d, int pitch, int n, int band_rows) {
  VertexReductions r(n);
  if (n == 0) return r;
  const CudaStream stream;
  DeviceReducer reducer(n, stream.get());
  reducer.add_rows(d, pitch, 0, n, band_rows_for(n, band_rows), stream.get());
  reducer.read_into(r, 0, n, stream.get());
  return r;
}

// Every rank's reductions are enqueued on its device before any is read back, so the devices
// work at once.
VertexReductions reduce_on_ranks(const MultiGpuSolve& ranks, int band_rows) {
  const Partition& p = ranks.partition();
  VertexReductions r(p.n);
  struct OnRank {
    int rank;
    std::unique_ptr<CudaStream> stream;
    std::unique_ptr<DeviceReducer> reducer;
  };
  std::vector<OnRank> on;
  for (int rank = 0; rank < p.ranks; ++rank) {
    if (p.idle(rank) || p.real_rows(rank) == 0) continue;
    const DeviceGuard guard(ranks.transport().device(rank));
    OnRank& o = on.emplace_back(OnRank{rank, std::make_unique<CudaStream>(), nullptr});
    o.reducer = std::make_unique<DeviceReducer>(p.n, o.stream->get());
    o.reducer->add_rows(ranks.rows_of(rank), p.pitch, p.first_row(rank), p.real_rows(rank),
                        band_rows_for(p.n, band_rows), o.stream->get());
  }
  for (OnRank& o : on) {
    const DeviceGuard guard(ranks.transport().device(o.rank));
    o.reducer->read_into(r, p.first_row(o.rank), p.real_rows(o.rank), o.stream->get());
    o.reducer.reset();  // on its own device
    o.stream.reset();
  }
  return r;
}

VertexReductions reduce(const SolvedDistances& d, int threads) {
  return std::visit(
      Overloaded{[](const OnGpu& on) {
                   return reduce_on_device(on.solve->matrix(), on.solve->pitch(), on.solve->n());
                 },
                 [](const OnRanks& on) { return reduce_on_ranks(*on.solve); },
                 [&](const OnHost& on) { return reduce_on_host(on.d.view(), threads); },
                 [&](const OnHost64& on) { return reduce_on_host(on.d.view(), threads); }},
      d);
}

namespace {

// Row i of an int32 result into `to` (n entries), from where it is.
std::function<void(int i, int32_t* to)> row_fetcher(SolvedDistances& d) {
  const size_t row_bytes = sizeof(int32_t) * static_cast<size_t>(vertices_of(d));
  return std::visit(
      Overloaded{[=](OnGpu& on) -> std::function<void(int, int32_t*)> {
                   DeviceSolve* s = on.solve.get();
                   return [=](int i, int32_t* to) {
                     const int32_t* from = s->matrix() + static_cast<size_t>(i) * s->pitch();
                     APSP_CUDA_CHECK(cudaMemcpy(to, from, row_bytes, cudaMemcpyDeviceToHost));
                   };
                 },
                 [=](OnRanks& on) -> std::function<void(int, int32_t*)> {
                   MultiGpuSolve* s = on.solve.get();
                   return [=](int i, int32_t* to) { std::memcpy(to, s->band(i, 1), row_bytes); };
                 },
                 [=](OnHost& on) -> std::function<void(int, int32_t*)> {
                   const DistMatrix* h = &on.d;
                   return [=](int i, int32_t* to) { std::memcpy(to, h->row(i), row_bytes); };
                 },
                 [](OnHost64&) -> std::function<void(int, int32_t*)> {
                   throw std::logic_error("the 64-bit path's rows are int64");
                 }},
      d);
}

}  // namespace

uint64_t write_source_rows(const std::string& path, const std::vector<int>& sources,
                           SolvedDistances& d, const MatrixFormat& format, int threads) {
  const int n = vertices_of(d);
  if (const auto* wide = std::get_if<OnHost64>(&d))  // in host memory: each row where it is
    return write_rows_output64(
        path, static_cast<int>(sources.size()), n, 1,
        [&](int first, int) { return wide->d.row(sources[first]); }, format, threads,
        "the rows of the sources");
  const size_t row_bytes = sizeof(int32_t) * static_cast<size_t>(std::max(n, 1));
  const int band_rows = static_cast<int>(
      std::clamp<size_t>((size_t{64} << 20) / row_bytes, 1, std::max<size_t>(sources.size(), 1)));
  std::vector<int32_t> buf(static_cast<size_t>(band_rows) * n);
  const auto fetch = row_fetcher(d);
  const RowBand band = [&](int first, int count) -> const int32_t* {
    for (int b = 0; b < count; ++b)
      fetch(sources[first + b], buf.data() + static_cast<size_t>(b) * n);
    return buf.data();
  };
  return write_rows_output(path, static_cast<int>(sources.size()), n, band_rows, band, format,
                           threads, "the rows of the sources");
}

}  // namespace apsp::harness
