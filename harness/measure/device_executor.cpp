#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>

#include "core/device_buffer.hpp"
#include "core/phase_timer.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/measure/sampler.hpp"

namespace apsp::harness {

std::unique_ptr<LocalExecutor> make_host_executor();  // host_executor.cpp

namespace {

class DeviceExecutor final : public LocalExecutor {
 public:
  // The stream-ordered pool keeps what a solve freed until this executor allocates a buffer of its
  // own or goes away (release threshold raised; trimmed then): a variant that allocates scratch
  // in its solve (sm90_u16's 16-bit copy) maps it once, in the verifying solve, not in every timed
  // sample, as every variant's matrix buffer is allocated once, untimed. With the default
  // threshold (0) the pool gives the memory back at each synchronisation and each sample mapped
  // it again.
  // Executors may overlap: the first one alive raises the threshold, the last one restores it.
  explicit DeviceExecutor(size_t l2_bytes) : scrub_(2 * l2_bytes) {
    const std::lock_guard<std::mutex> lock(pool_mutex());
    if (live_executors()++ == 0) {
      APSP_CUDA_CHECK(
          cudaMemPoolGetAttribute(pool(), cudaMemPoolAttrReleaseThreshold, &saved_threshold()));
      uint64_t keep = UINT64_MAX;
      APSP_CUDA_CHECK(cudaMemPoolSetAttribute(pool(), cudaMemPoolAttrReleaseThreshold, &keep));
    }
  }
  ~DeviceExecutor() override {
    cudaStreamSynchronize(stream_.get());
    cudaMemPoolTrimTo(pool(), 0);
    const std::lock_guard<std::mutex> lock(pool_mutex());
    if (--live_executors() == 0)
      cudaMemPoolSetAttribute(pool(), cudaMemPoolAttrReleaseThreshold, &saved_threshold());
  }

  void load(const DistMatrix& input) override {
    n_ = pitch_ = input.n();
    if (pristine_.size() != input.size()) {
      release_pool();
      pristine_ = DeviceBuffer<int>();  // free before allocating: two matrices at most
      work_ = DeviceBuffer<int>();
      pristine_ = DeviceBuffer<int>(input.size());
      work_ = DeviceBuffer<int>(input.size());
    }
    // On stream_, where the restores that read it run: a plain cudaMemcpy from pageable memory
    // may return before its DMA has landed, and stream_ (non-blocking) would not wait for it.
    // The likely cause of naive's "wrong distances" beside other GPU processes (the restore
    // copied a half-uploaded input): under the same load the old build failed 1 run of 24 with
    // that fault, this one none of 24 (H100).
    APSP_CUDA_CHECK(cudaMemcpyAsync(pristine_.get(), input.data(), input.bytes(),
                                    cudaMemcpyHostToDevice, stream_.get()));
    stream_.synchronize();
  }

  // Room and layout for v's solve at c: a pitch x pitch buffer (sm90 pads its rows; the restore
  // lays the matrix out so, harness/measure/matrix_layout.hpp).
  void reserve(const Variant& v, const Config& c) override {
    pitch_ = row_pitch(v, c, n_);
    const size_t need = buffer_elems(v, c, n_);
    if (work_.size() >= need) return;
    release_pool();
    work_ = DeviceBuffer<int>();  // free before allocating
    work_ = DeviceBuffer<int>(need);
  }

  // The input back into the work buffer; the pool's high-water mark restarts here, so that
  // after_solve() counts this solve's scratch.
  void restore() override {
    put_matrix(work_.get(), pitch_, pristine_.get(), n_, cudaMemcpyDeviceToDevice, stream_.get());
    reset_scratch_peak();
  }

  // Evicts every line of the matrix from L2 (a different byte each time, so no layer can skip
  // the write as unchanged).
  void flush_l2() override {
    if (scrub_.size() > 0)
      APSP_CUDA_CHECK(
          cudaMemsetAsync(scrub_.get(), ++flushes_ & 0xff, scrub_.size(), stream_.get()));
  }

  void run(const Variant& v, const Config& c, PhaseTimer* phases) override {
    v.run(work_.get(), n_, c, stream_.get(), phases);
  }

  SampleClock& clock() override { return clock_; }
  cudaStream_t stream() override { return stream_.get(); }

  void after_solve(const Variant& v, const Config& c) override {
    const uint64_t scratch = scratch_peak();
    // pitch^2: one matrix, padded
    memory_.solve_bytes = buffer_elems(v, c, n_) * sizeof(int) + scratch;
    memory_.peak_bytes = held_bytes() + scratch;
  }

  DeviceMemory device_memory() const override { return memory_; }

  DistMatrix output() override {
    DistMatrix out(n_);
    get_matrix(out.data(), work_.get(), pitch_, n_, cudaMemcpyDeviceToHost, stream_.get());
    stream_.synchronize();
    return out;
  }

  std::string certify(const InEdges& g) override {
    if (!certificate_ || &certificate_->graph() != &g)
      certificate_ = std::make_unique<DeviceCertificate>(g);
    std::string fault = certificate_->check(work_.get(), pitch_, stream_.get());
    // The pool still holds the solve's scratch (kept for the timed samples) beside the certificate.
    memory_.peak_bytes = std::max(
        memory_.peak_bytes, held_bytes() + pool_reserved() + certificate_->peak_check_bytes());
    return fault;
  }

 private:
  // The stream-ordered pool's high-water mark: the scratch a solve allocates (cudaMallocAsync:
  // sm90_u16's 16-bit copy; a user's kernel may too).
  static cudaMemPool_t pool() {
    int dev = 0;
    cudaMemPool_t p;
    APSP_CUDA_CHECK(cudaGetDevice(&dev));
    APSP_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&p, dev));
    return p;
  }
  void reset_scratch_peak() {
    uint64_t zero = 0;
    APSP_CUDA_CHECK(cudaMemPoolSetAttribute(pool(), cudaMemPoolAttrUsedMemHigh, &zero));
  }
  uint64_t scratch_peak() {
    uint64_t high = 0;
    APSP_CUDA_CHECK(cudaMemPoolGetAttribute(pool(), cudaMemPoolAttrUsedMemHigh, &high));
    return high;
  }
  uint64_t pool_reserved() {
    uint64_t bytes = 0;
    APSP_CUDA_CHECK(cudaMemPoolGetAttribute(pool(), cudaMemPoolAttrReservedMemCurrent, &bytes));
    return bytes;
  }
  // What the pool kept of earlier solves goes back to the device before a buffer of ours is made.
  void release_pool() {
    stream_.synchronize();
    APSP_CUDA_CHECK(cudaMemPoolTrimTo(pool(), 0));
  }
  uint64_t held_bytes() const {
    return (pristine_.size() + work_.size()) * sizeof(int) + scrub_.size() +
           (certificate_ ? certificate_->held_bytes() : 0);
  }

  static std::mutex& pool_mutex() {
    static std::mutex m;
    return m;
  }
  static int& live_executors() {  // DeviceExecutors alive (under pool_mutex)
    static int count = 0;
    return count;
  }
  static uint64_t& saved_threshold() {  // the pool's release threshold before the first of them
    static uint64_t threshold = 0;
    return threshold;
  }
  int n_ = 0, pitch_ = 0;  // the matrix's size, and the layout of the last solve (reserve)
  CudaStream stream_;
  DeviceBuffer<int> pristine_, work_;
  DeviceBuffer<char> scrub_;  // twice the L2: writing it evicts every line of the matrix
  StreamClock clock_{stream_.get()};
  int flushes_ = 0;
  std::unique_ptr<DeviceCertificate> certificate_;  // the edges on the device, uploaded once
  DeviceMemory memory_;
};

}  // namespace

std::unique_ptr<LocalExecutor> make_executor(Target target, size_t l2_bytes) {
  if (target == Target::kHost) return make_host_executor();
  return std::make_unique<DeviceExecutor>(l2_bytes);
}

}  // namespace apsp::harness
