#include "harness/measure/workbench.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "core/precision.hpp"
#include "core/reference.hpp"

namespace apsp::harness {

std::string reference_kind(int n, int cpu_reference_max_n, const std::string& reference,
                           const std::string& baseline) {
  if (n <= cpu_reference_max_n) return "cpu-reference";
  if (reference == kAutoReference) return n <= kNaiveReferenceMaxN ? baseline : kCertificate;
  return reference;
}

Workbench::Workbench(const EdgeList& graph, ExecutorFactory make, int cpu_reference_max_n,
                     const std::string& reference_variant)
    : input_(DistMatrix::from_edges(graph)),
      n_(input_.n()),
      make_(std::move(make)),
      reference_(reference_kind(input_.n(), cpu_reference_max_n, reference_variant)) {
  if (reference_ == kCertificate) {
    in_edges_ = InEdges::of(graph);
    return;
  }
  if (reference_ == "cpu-reference") {
    DistMatrix expected = input_;
    floyd_warshall_blocked(expected);
    expected_ = std::move(expected);
    return;
  }
  // reference_, not the argument: "auto" names no variant (the tuner, above 2048, passes it).
  const Variant* ref = find_variant(reference_);
  if (!ref) throw std::invalid_argument(fmt::format("no reference variant '{}'", reference_));
  Executor& ex = executor(*ref);
  ex.sample(*ref, ref->defaults, false);
  expected_ = ex.output();
}

int64_t Workbench::max_weight() const {
  if (!max_weight_) {
    if (input_.n() != n_) throw std::logic_error("Workbench::max_weight after drop_expected()");
    max_weight_ = max_finite_entry(input_);
  }
  return *max_weight_;
}

Executor& Workbench::executor(const Variant& v, int gpus) {
  std::unique_ptr<Executor>& ex = executors_[{v.target, gpus}];
  if (!ex) {
    if (input_.n() == 0) throw std::logic_error("Workbench: a new target after drop_expected()");
    ex = make_(v.target, gpus);
    ex->load(input_);
  }
  return *ex;
}

Verdict Workbench::verify(const Variant& v, const Config& c, bool flush_l2, int gpus) {
  if (!expected_ && !in_edges_) throw std::logic_error("Workbench::verify after drop_expected()");
  Verdict verdict;
  if (std::string why = admission(v); !why.empty())
    return Verdict{"FAILED", std::move(why), 0, 0, {}};
  DistMatrix got;
  try {
    Executor& ex = executor(v, gpus);
    verdict.first_ms = ex.sample(v, c, flush_l2);
    if (in_edges_) {
      const auto start = std::chrono::steady_clock::now();
      verdict.error = ex.certify(*in_edges_);
      verdict.check_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      verdict.verified = verdict.error.empty() ? kCertificate : "FAILED";
      verdict.memory = ex.device_memory();
      return verdict;
    }
    verdict.memory = ex.device_memory();
    got = ex.output();
  } catch (const std::exception& e) {  // a CUDA error, or a launcher refusing the config
    return Verdict{"FAILED", e.what(), 0, 0, {}};
  }
  const Mismatch m = compare(got, *expected_);
  if (m) {
    verdict.verified = "FAILED";
    verdict.error = fmt::format("{} elements differ; first d[{}][{}] = {}, expected {}", m.count,
                                m.i, m.j, m.got, m.expected);
  } else {
    // The reference variant checked against its own earlier output proves only determinism.
    verdict.verified =
        (reference_ != "cpu-reference" && v.name == reference_) ? "baseline" : reference_;
  }
  return verdict;
}

void Workbench::release(int gpus) {
  std::erase_if(executors_, [gpus](const auto& entry) { return entry.first.second == gpus; });
}

void Workbench::drop_expected() {
  expected_.reset();
  in_edges_.reset();
  input_ = DistMatrix();
}

}  // namespace apsp::harness
