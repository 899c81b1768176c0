// harness/cli/batch_runs.hpp: BatchBench and the copy bandwidth, each timed by the Sampler
// through an executor of its own (as the min-plus ceiling is, harness/measure/ceiling.cpp).
#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <stdexcept>

#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/stats.hpp"
#include "harness/batch/batch_solve.hpp"
#include "harness/cli/batch_runs.hpp"

namespace apsp::harness {

namespace {

// One batch solve as the Sampler's executor: nothing to restore (a solve writes every entry of
// its output from the batch, which it never changes), the L2 flushed by writing twice its size,
// a sample one run_batch.
class BatchExecutor final : public LocalExecutor {
 public:
  BatchExecutor(const BatchRequest& r, const BatchPlan& p, void* dist, DeviceBuffer<char>* scrub)
      : r_(r), p_(p), dist_(dist), scrub_(scrub) {
    if (r.on_device) stream_clock_.emplace(r.stream);  // its events need a device
  }

  void load(const DistMatrix&) override {}
  void reserve(const Variant&, const Config&) override {}
  void restore() override {}
  void flush_l2() override {
    if (scrub_ && r_.on_device)
      APSP_CUDA_CHECK(cudaMemsetAsync(scrub_->get(), ++flushes_ & 0xff, scrub_->size(), r_.stream));
  }
  void run(const Variant&, const Config&, PhaseTimer*) override { run_batch(r_, p_, dist_); }
  SampleClock& clock() override {
    return stream_clock_ ? static_cast<SampleClock&>(*stream_clock_) : host_clock_;
  }
  cudaStream_t stream() override { return r_.on_device ? r_.stream : nullptr; }
  DistMatrix output() override { return {}; }
  std::string certify(const InEdges&) override { return ""; }

 private:
  const BatchRequest& r_;
  const BatchPlan& p_;
  void* dist_;
  DeviceBuffer<char>* scrub_;
  std::optional<StreamClock> stream_clock_;
  HostClock host_clock_;
  int flushes_ = 0;
};

// The byte a device output is filled with before the verified solve: an entry a variant leaves
// unwritten then passes only where its distance happens to be this pattern.
constexpr int kPoison = 0x5a;

BatchRequest request_for(const GraphBatchView& view, int64_t edges, const BatchCase& c,
                         bool on_device, cudaStream_t stream) {
  BatchRequest r;
  r.graphs = view;
  r.on_device = on_device;
  r.edges = edges;
  r.variant = c.variant->name;
  r.config = c.config;
  r.stream = stream;
  return r;
}

}  // namespace

std::string compare_with_reference(const GraphBatch& b, const BatchPlan& p, const uint8_t* got,
                                   const uint8_t* want) {
  const int bytes = bytes_of(p.out.type);
  int64_t wrong = 0, first = -1, first_at = -1;
  for (int64_t g = 0; g < b.graphs(); ++g) {
    const int64_t n = b.vertex_ptr[g + 1] - b.vertex_ptr[g];
    const size_t at = static_cast<size_t>(p.host_offsets[g]) * bytes;
    if (std::memcmp(got + at, want + at, static_cast<size_t>(n * n) * bytes) == 0) continue;
    if (wrong++ > 0) continue;
    first = g;
    for (int64_t e = 0; e < n * n && first_at < 0; ++e)
      if (std::memcmp(got + at + e * bytes, want + at + e * bytes, bytes) != 0) first_at = e;
  }
  if (wrong == 0) return "";
  const int64_t n = b.vertex_ptr[first + 1] - b.vertex_ptr[first];
  return fmt::format(
      "{} of {} graphs differ from the CPU reference; the first, graph {} (n = {}), "
      "at ({}, {})",
      wrong, b.graphs(), first, n, first_at / n, first_at % n);
}

// The batch's copy on the device, an output buffer that grows to the largest asked, the L2
// scrub and the stream every device run goes to.
struct BatchBench::Device {
  CudaStream stream;
  DeviceBuffer<int64_t> vertex_ptr, edge_ptr, src, dst;
  DeviceBuffer<int32_t> weight;
  DeviceBuffer<uint8_t> out;
  DeviceBuffer<char> scrub;
  GraphBatchView view;

  explicit Device(const GraphBatch& b)
      : vertex_ptr(to_device<int64_t>(b.vertex_ptr)),
        edge_ptr(to_device<int64_t>(b.edge_ptr)),
        src(to_device<int64_t>(b.src)),
        dst(to_device<int64_t>(b.dst)),
        weight(to_device<int32_t>(b.weighted ? b.weight : std::vector<int32_t>{})),
        scrub(2 * query_device().l2_bytes) {
    view = {b.graphs(), vertex_ptr.get(), edge_ptr.get(),
            src.get(),  dst.get(),        b.weighted ? weight.get() : nullptr};
  }
  void* output(size_t bytes) {
    if (out.bytes() < bytes) out = DeviceBuffer<uint8_t>(bytes);
    return out.get();
  }
};

BatchBench::BatchBench(const GraphBatch& batch) : batch_(batch) {}
BatchBench::~BatchBench() = default;

const std::vector<uint8_t>& BatchBench::reference(const BatchPlan& host) {
  const size_t bytes = static_cast<size_t>(host.elements) * bytes_of(host.out.type);
  if (reference_.size() == bytes && reference_type_ == host.out.type) return reference_;
  reference_.assign(bytes, 0);
  reference_type_ = host.out.type;
  BatchOutputView out = host.out;
  out.dist = reference_.data();
  solve_batch_host(batch_.view(), out);
  return reference_;
}

BatchMeasurement BatchBench::measure(const BatchCase& c, const SampleOptions& sampling) {
  BatchMeasurement m;
  const bool on_device = c.variant->target == Target::kDevice;
  if (on_device && !has_device()) {
    m.verified = "skipped";
    m.error = "no CUDA device";
    return m;
  }
  try {
    if (on_device && !device_) device_ = std::make_unique<Device>(batch_);
    const int64_t edges = static_cast<int64_t>(batch_.src.size());
    const BatchRequest r = request_for(on_device ? device_->view : batch_.view(), edges, c,
                                       on_device, on_device ? device_->stream.get() : nullptr);
    // The reference's layout: the CPU variant's plan of the batch in host memory, which the
    // device's matches (the same checks give the same type and offsets).
    const BatchCase reference_case = parse_batch_case("batch_cpu");
    const BatchPlan host =
        plan_batch(request_for(batch_.view(), edges, reference_case, false, nullptr));
    const BatchPlan plan = plan_batch(r);
    m.type = plan.out.type;
    m.elements = plan.elements;
    m.facts = plan.facts;
    const size_t bytes = static_cast<size_t>(plan.elements) * bytes_of(plan.out.type);
    const std::vector<uint8_t>& want = reference(host);
    std::vector<uint8_t> host_out(on_device ? 0 : bytes);
    void* dist = on_device ? device_->output(bytes) : host_out.data();
    // Every byte written over before the verified solve: an entry a variant leaves unwritten
    // cannot pass on the output of the config measured before it.
    if (on_device) APSP_CUDA_CHECK(cudaMemsetAsync(dist, kPoison, bytes, r.stream));
    BatchExecutor ex(r, plan, dist, on_device ? &device_->scrub : nullptr);
    Variant as_variant;
    as_variant.name = c.name;
    as_variant.target = c.variant->target;
    Sampler sampler(ex, as_variant, c.config);
    const double warm_ms = sampler.take({Mode::kStream, 1, sampling.flush_l2}).samples_ms.at(0);
    if (on_device) {
      host_out.resize(bytes);
      device_->stream.synchronize();
      APSP_CUDA_CHECK(cudaMemcpy(host_out.data(), dist, bytes, cudaMemcpyDeviceToHost));
    }
    m.error = compare_with_reference(batch_, host, host_out.data(), want.data());
    m.verified = m.error.empty() ? "cpu-reference" : "FAILED";
    if (!m.error.empty()) return m;
    const int reps = planned_reps(warm_ms, sampling);
    m.samples_ms = sampler.take({Mode::kStream, reps, sampling.flush_l2}).samples_ms;
  } catch (const std::exception& e) {
    m.verified = "FAILED";
    m.error = e.what();
    m.samples_ms.clear();
  }
  return m;
}

namespace {

// A device-to-device copy as the Sampler's executor: nothing to restore or flush (the copy is
// many times the L2), a sample one cudaMemcpyAsync.
class CopyExecutor final : public LocalExecutor {
 public:
  explicit CopyExecutor(uint64_t bytes) : from_(bytes), to_(bytes), clock_(stream_.get()) {}
  void load(const DistMatrix&) override {}
  void reserve(const Variant&, const Config&) override {}
  void restore() override {}
  void flush_l2() override {}
  void run(const Variant&, const Config&, PhaseTimer*) override {
    APSP_CUDA_CHECK(cudaMemcpyAsync(to_.get(), from_.get(), from_.bytes(), cudaMemcpyDeviceToDevice,
                                    stream_.get()));
  }
  SampleClock& clock() override { return clock_; }
  cudaStream_t stream() override { return stream_.get(); }
  DistMatrix output() override { return {}; }
  std::string certify(const InEdges&) override { return ""; }

 private:
  DeviceBuffer<uint8_t> from_, to_;
  CudaStream stream_;
  StreamClock clock_;
};

}  // namespace

double measure_copy_bandwidth(uint64_t bytes) {
  CopyExecutor ex(bytes);
  Variant copy;
  copy.name = "device_copy";
  Sampler sampler(ex, copy, {});
  sampler.take({Mode::kStream, 2, false});  // the first copy pays for the pages' mapping
  const double ms = median(sampler.take({Mode::kStream, 20, false}).samples_ms);
  return 2.0 * static_cast<double>(bytes) / (ms / 1000.0);
}

}  // namespace apsp::harness
