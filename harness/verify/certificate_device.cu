// The device side of harness/verify/certificate.hpp: the kernels are in kernels/certificate.cuh.
#include <algorithm>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/verify/certificate.hpp"
#include "kernels/certificate.cuh"

namespace apsp::harness {

namespace k = kernels::certificate;

struct DeviceCertificate::Buffers {
  DeviceBuffer<long long> start;
  DeviceBuffer<int> from, weight;
  DeviceBuffer<long long> kept_start;  // the essential subgraph G', made by each check
  DeviceBuffer<int> kept_from, kept_weight;
  long long kept = 0;  // G''s edges
  DeviceBuffer<char> scan_scratch;
  DeviceBuffer<int2> zero;
  DeviceBuffer<unsigned long long> first;
  DeviceBuffer<int> changed;
};

namespace {
constexpr int kThreads = 256;
constexpr int kSourcesPerBlock = 8;  // check_edges: sources sharing one read of the in-edges
constexpr size_t kGroundedBytes = size_t{256} << 20;  // a batch's flags: sources x n bytes
constexpr long long kMaxZeroBlocks = 65535LL * 16;    // ground_zero_edges strides past it
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

// G' on the device: the first pass's faults into b.first; the essential in-edges into
// kept_start, kept_from and kept_weight. Returns the first pass's lowest fault (kNoFault if none).
uint64_t DeviceCertificate::first_pass(const int* d, int pitch, int row0, cudaStream_t stream) {
  const int n = g_.n;
  Buffers& b = *b_;
  reset_fault(stream);
  const unsigned warps_grid =
      static_cast<unsigned>((static_cast<long long>(n) * 32 + kThreads - 1) / kThreads);
  if (b.kept_start.size() != static_cast<size_t>(n) + 1)
    b.kept_start = DeviceBuffer<long long>(static_cast<size_t>(n) + 1);
  APSP_CUDA_CHECK(cudaMemsetAsync(b.kept_start.get(), 0, sizeof(long long), stream));
  k::count_essential<<<warps_grid, kThreads, 0, stream>>>(d, n, pitch, row0, b.start.get(),
                                                          b.from.get(), b.weight.get(),
                                                          b.kept_start.get() + 1, b.first.get());
  APSP_CUDA_CHECK_LAUNCH();
  size_t scratch = 0;
  APSP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scratch, b.kept_start.get() + 1,
                                                b.kept_start.get() + 1, n, stream));
  if (b.scan_scratch.size() < scratch) b.scan_scratch = DeviceBuffer<char>(scratch);
  APSP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(
      b.scan_scratch.get(), scratch, b.kept_start.get() + 1, b.kept_start.get() + 1, n, stream));
  unsigned long long first = 0;
  long long kept = 0;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&first, b.first.get(), sizeof first, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&kept, b.kept_start.get() + n, sizeof kept, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  b.kept = kept;
  if (first != kNoFault) return first;
  reserve_kept(static_cast<size_t>(kept));
  k::gather_essential<<<warps_grid, kThreads, 0, stream>>>(
      d, n, pitch, row0, b.start.get(), b.from.get(), b.weight.get(), b.kept_start.get(),
      b.kept_from.get(), b.kept_weight.get(), b.first.get());
  APSP_CUDA_CHECK_LAUNCH();
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return kNoFault;
}

void DeviceCertificate::reserve_kept(size_t kept) {
  Buffers& b = *b_;
  if (b.kept_from.size() < kept || b.kept_from.size() == 0) {
    b.kept_from = DeviceBuffer<int>(std::max<size_t>(kept, 1));
    b.kept_weight = DeviceBuffer<int>(b.kept_from.size());
  }
}

void DeviceCertificate::reset_fault(cudaStream_t stream) {
  const unsigned long long none = kNoFault;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(b_->first.get(), &none, sizeof none, cudaMemcpyHostToDevice, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
}

InEdges DeviceCertificate::essential() const {
  const Buffers& b = *b_;
  InEdges g;
  g.n = g_.n;
  g.start.resize(static_cast<size_t>(g_.n) + 1);
  g.from.resize(static_cast<size_t>(b.kept));
  g.weight.resize(g.from.size());
  APSP_CUDA_CHECK(cudaMemcpy(g.start.data(), b.kept_start.get(), g.start.size() * sizeof(long long),
                             cudaMemcpyDeviceToHost));
  if (b.kept > 0) {
    APSP_CUDA_CHECK(cudaMemcpy(g.from.data(), b.kept_from.get(), g.from.size() * sizeof(int),
                               cudaMemcpyDeviceToHost));
    APSP_CUDA_CHECK(cudaMemcpy(g.weight.data(), b.kept_weight.get(), g.weight.size() * sizeof(int),
                               cudaMemcpyDeviceToHost));
  }
  return g;
}

void DeviceCertificate::use_essential(const InEdges& kept) {
  Buffers& b = *b_;
  b.kept_start = to_device<long long>(kept.start);
  b.kept = static_cast<long long>(kept.from.size());
  reserve_kept(kept.from.size());
  if (!kept.from.empty()) {
    APSP_CUDA_CHECK(cudaMemcpy(b.kept_from.get(), kept.from.data(), kept.from.size() * sizeof(int),
                               cudaMemcpyHostToDevice));
    APSP_CUDA_CHECK(cudaMemcpy(b.kept_weight.get(), kept.weight.data(),
                               kept.weight.size() * sizeof(int), cudaMemcpyHostToDevice));
  }
}

namespace {
int source_batch(int n) {
  return static_cast<int>(
      std::clamp<size_t>(kGroundedBytes / std::max(n, 1), 1, std::min(n, 65535)));
}
}  // namespace

uint64_t device_certificate_bytes(int n, uint64_t edges) {
  return 2 * (edges * 8 + (static_cast<uint64_t>(n) + 1) * 8) + kGroundedBytes;
}

size_t DeviceCertificate::held_bytes() const {
  const Buffers& b = *b_;
  return b.start.size() * 8 + (b.from.size() + b.weight.size()) * 4 + b.kept_start.size() * 8 +
         (b.kept_from.size() + b.kept_weight.size()) * 4 + b.scan_scratch.size() +
         b.zero.size() * 8 + 16;
}

size_t DeviceCertificate::peak_check_bytes() const {
  return held_bytes() + static_cast<size_t>(source_batch(g_.n)) * g_.n;
}

uint64_t DeviceCertificate::check_rows(const int* d, int pitch, int row0, int rows,
                                       cudaStream_t stream) {
  const int n = g_.n;
  const int batch = source_batch(n);
  reset_fault(stream);
  DeviceBuffer<unsigned char> grounded(static_cast<size_t>(batch) * n);
  for (int s0 = row0; s0 < row0 + rows; s0 += batch) {
    const int count = std::min(batch, row0 + rows - s0);
    const dim3 grid((n + kThreads - 1) / kThreads, count);
    const dim3 edge_block(32, kSourcesPerBlock);
    k::check_edges<<<dim3((n + 31) / 32, (count + kSourcesPerBlock - 1) / kSourcesPerBlock),
                     edge_block, 0, stream>>>(d, n, pitch, row0, b_->kept_start.get(),
                                              b_->kept_from.get(), b_->kept_weight.get(), s0, count,
                                              grounded.get(), b_->first.get());
    APSP_CUDA_CHECK_LAUNCH();
    const long long zero_edges = static_cast<long long>(g_.zero.size()), work = zero_edges * count;
    for (int changed = zero_edges > 0; changed;) {
      APSP_CUDA_CHECK(cudaMemsetAsync(b_->changed.get(), 0, sizeof(int), stream));
      const long long blocks =
          std::min<long long>((work + kThreads - 1) / kThreads, kMaxZeroBlocks);
      k::ground_zero_edges<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
          d, n, pitch, row0, b_->zero.get(), zero_edges, s0, count, grounded.get(),
          b_->changed.get());
      APSP_CUDA_CHECK_LAUNCH();
      APSP_CUDA_CHECK(cudaMemcpyAsync(&changed, b_->changed.get(), sizeof(int),
                                      cudaMemcpyDeviceToHost, stream));
      APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    k::check_grounded<<<grid, kThreads, 0, stream>>>(d, n, pitch, row0, s0, grounded.get(),
                                                     b_->first.get());
    APSP_CUDA_CHECK_LAUNCH();
  }
  unsigned long long first = kNoFault;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(&first, b_->first.get(), sizeof first, cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return first;
}

std::string DeviceCertificate::check(const int* d, int pitch, cudaStream_t stream) {
  uint64_t first = first_pass(d, pitch, 0, stream);
  if (first == kNoFault) first = check_rows(d, pitch, 0, g_.n, stream);
  return first == kNoFault ? "" : describe(d, pitch, first);
}

std::string DeviceCertificate::describe(const int* d, int pitch, unsigned long long key) const {
  const int n = g_.n;
  return describe_device_fault(d + static_cast<size_t>(decode_fault(key, n).s) * pitch, g_, key);
}

std::string describe_device_fault(const int* row, const InEdges& g, uint64_t key) {
  const FaultAt at = decode_fault(key, g.n);
  std::vector<int32_t> host(g.n);
  APSP_CUDA_CHECK(cudaMemcpy(host.data(), row, g.n * sizeof(int32_t), cudaMemcpyDeviceToHost));
  return describe_fault(host.data(), g, at.s, at.v, at.fault);
}

}  // namespace apsp::harness
