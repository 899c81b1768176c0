#include "variants/workbench.hpp"

#include <fmt/format.h>

#include "core/reference.hpp"

namespace apsp {

std::string reference_kind(int n, int cpu_reference_max_n) {
  return n <= cpu_reference_max_n ? "cpu-reference" : "naive";
}

SolveFn solver(const Variant& v, const Config& c) {
  return [&v, c](int* d, int n, cudaStream_t stream) { v.run(d, n, c, stream, nullptr); };
}

Workbench::Workbench(DistMatrix input, const DeviceInfo& dev, cudaStream_t stream,
                     int cpu_reference_max_n)
    : n_(input.n()),
      stream_(stream),
      pristine_(input.size()),
      work_(input.size()),
      reference_(reference_kind(input.n(), cpu_reference_max_n)) {
  APSP_CUDA_CHECK(cudaMemcpy(pristine_.get(), input.data(), input.bytes(), cudaMemcpyHostToDevice));
  timer_ = std::make_unique<Timer>(pristine_.get(), work_.get(), n_, dev.l2_bytes, stream_);
  if (reference_ == "cpu-reference") {
    floyd_warshall_blocked(input);
  } else {
    const Variant& naive = *find_variant("naive");
    timer_->sample(solver(naive, naive.defaults), false);
    APSP_CUDA_CHECK(cudaMemcpy(input.data(), work_.get(), input.bytes(), cudaMemcpyDeviceToHost));
  }
  expected_ = std::move(input);
}

Workbench::Verdict Workbench::verify(const Variant& v, const Config& c, bool flush_l2) {
  if (!expected_) throw std::logic_error("Workbench::verify after drop_expected()");
  Verdict verdict;
  DistMatrix got(n_);
  try {
    verdict.first_ms = timer_->sample(solver(v, c), flush_l2);
    APSP_CUDA_CHECK(cudaMemcpy(got.data(), work_.get(), got.bytes(), cudaMemcpyDeviceToHost));
  } catch (const CudaError& e) {
    return Verdict{"FAILED", e.what(), 0};
  }
  const Mismatch m = compare(got, *expected_);
  if (m) {
    verdict.verified = "FAILED";
    verdict.error = fmt::format("{} elements differ; first d[{}][{}] = {}, expected {}", m.count,
                                m.i, m.j, m.got, m.expected);
  } else {
    // Naive checked against its own earlier output proves only determinism: say so.
    verdict.verified = (reference_ == "naive" && v.name == "naive") ? "baseline" : reference_;
  }
  return verdict;
}

}  // namespace apsp
