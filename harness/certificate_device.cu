// The device side of harness/certificate.hpp: the kernels are in kernels/certificate.cuh.
#include <algorithm>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/certificate.hpp"
#include "kernels/certificate.cuh"

namespace apsp::harness {

namespace k = kernels::certificate;

struct DeviceCertificate::Buffers {
  DeviceBuffer<long long> start;
  DeviceBuffer<int> from, weight;
  DeviceBuffer<int2> zero;
  DeviceBuffer<unsigned long long> first;
  DeviceBuffer<int> changed;
};

namespace {
constexpr int kThreads = 256;
constexpr int kSourcesPerBlock = 8;  // check_edges: sources sharing one read of the in-edges
constexpr size_t kGroundedBytes = size_t{256} << 20;  // a batch's flags: sources x n bytes
}  // namespace

DeviceCertificate::DeviceCertificate(const InEdges& g) : g_(g), b_(new Buffers) {
  b_->start = to_device<long long>(g.start);
  b_->from = to_device<int>(g.from);
  b_->weight = to_device<int>(g.weight);
  std::vector<int2> pairs;  // the zero-weight edges as (src, dst)
  for (const Edge& e : g.zero) pairs.push_back(make_int2(e.src, e.dst));
  b_->zero = to_device<int2>(pairs);
  b_->first = DeviceBuffer<unsigned long long>(1);
  b_->changed = DeviceBuffer<int>(1);
}

DeviceCertificate::~DeviceCertificate() { delete b_; }

std::string DeviceCertificate::check(const int* d, cudaStream_t stream) {
  const int n = g_.n;
  const int batch = static_cast<int>(std::clamp<size_t>(kGroundedBytes / std::max(n, 1), 1, std::min(n, 65535)));
  DeviceBuffer<unsigned char> grounded(static_cast<size_t>(batch) * n);
  const unsigned long long none = ~0ull;
  APSP_CUDA_CHECK(cudaMemcpyAsync(b_->first.get(), &none, sizeof none, cudaMemcpyHostToDevice, stream));
  for (int s0 = 0; s0 < n; s0 += batch) {
    const int rows = std::min(batch, n - s0);
    const dim3 grid((n + kThreads - 1) / kThreads, rows);
    const dim3 edge_block(32, kSourcesPerBlock);
    k::check_edges<<<dim3((n + 31) / 32, (rows + kSourcesPerBlock - 1) / kSourcesPerBlock), edge_block, 0, stream>>>(
        d, n, b_->start.get(), b_->from.get(), b_->weight.get(), s0, rows, grounded.get(), b_->first.get());
    APSP_CUDA_CHECK_LAUNCH();
    const long long zero_edges = static_cast<long long>(g_.zero.size()), work = zero_edges * rows;
    for (int changed = zero_edges > 0; changed;) {
      APSP_CUDA_CHECK(cudaMemsetAsync(b_->changed.get(), 0, sizeof(int), stream));
      k::ground_zero_edges<<<static_cast<unsigned>((work + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
          d, n, b_->zero.get(), zero_edges, s0, rows, grounded.get(), b_->changed.get());
      APSP_CUDA_CHECK_LAUNCH();
      APSP_CUDA_CHECK(cudaMemcpyAsync(&changed, b_->changed.get(), sizeof(int), cudaMemcpyDeviceToHost, stream));
      APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    k::check_grounded<<<grid, kThreads, 0, stream>>>(d, n, s0, grounded.get(), b_->first.get());
    APSP_CUDA_CHECK_LAUNCH();
  }
  unsigned long long first = none;
  APSP_CUDA_CHECK(cudaMemcpyAsync(&first, b_->first.get(), sizeof first, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (first == none) return "";
  const unsigned long long cell = first >> 3;
  const int s = static_cast<int>(cell / n), v = static_cast<int>(cell % n);
  std::vector<int32_t> row(n);
  APSP_CUDA_CHECK(cudaMemcpy(row.data(), d + static_cast<size_t>(s) * n, n * sizeof(int32_t), cudaMemcpyDeviceToHost));
  return describe_fault(row.data(), g_, s, v, static_cast<Fault>(first & 7));
}

}  // namespace apsp::harness
