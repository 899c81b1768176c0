// One problem size: the input, the output every run must reproduce bit for bit, and the
// executors that hold it (one per target, made when a variant of that target first runs).
// Up to cpu_reference_max_n every output is compared with the CPU reference; above it with the
// shortest-path certificate (harness/verify/certificate.hpp: every entry checked against the graph's
// edges, on the device for device runs, no second solve), or, when asked (--verify naive),
// with the output of a reference variant on its own target.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/dist_matrix.hpp"
#include "harness/measure/executor.hpp"

namespace apsp::harness {

inline constexpr int kCpuReferenceMaxN = 2048;
inline constexpr const char* kCertificate = "certificate";
// --verify auto: above the CPU range, the reference variant's output up to this n (naive usually
// runs there anyway, as the speedup baseline), the certificate
// above it, where a naive solve would take minutes.
inline constexpr const char* kAutoReference = "auto";
inline constexpr int kNaiveReferenceMaxN = 16384;

struct Verdict {
  // "cpu-reference", "certificate", "naive" (the reference variant), "baseline", "FAILED"
  std::string verified;
  std::string error;    // set when FAILED
  double first_ms = 0;  // the verifying solve's time: the warm-up
  double check_ms = 0;  // the check's own time (the certificate's, the comparison's)
  DeviceMemory memory;  // of the verifying solve and its check (zeros off the device)
  bool ok() const { return verified != "FAILED"; }
};

class Workbench {
 public:
  // Makes an executor for a target on `gpus` GPUs (1, or several for a multi-GPU variant: the
  // distributed engine); the pipeline passes one that knows the device.
  using ExecutorFactory = std::function<std::unique_ptr<Executor>(Target, int gpus)>;

  // The input is the graph's matrix. Prepares the check now (the slow part: the CPU reference,
  // the edges by destination for the certificate, or one solve of the reference variant).
  Workbench(const EdgeList& graph, ExecutorFactory make,
            int cpu_reference_max_n = kCpuReferenceMaxN,
            const std::string& reference = kAutoReference);

  int n() const { return n_; }
  // The input's largest finite entry (core/precision.hpp), for Variant::admits: a pass over the
  // matrix, made on first use (so never for plans without such a variant), before
  // drop_expected() (std::logic_error after it).
  int64_t max_weight() const;
  // "" when v may run on this input (admission_problem); else why not.
  std::string admission(const Variant& v) const {
    return v.admits ? admission_problem(v, n_, max_weight()) : "";
  }
  const std::string& reference() const { return reference_; }
  // The executor of v's target on `gpus` GPUs, holding this input.
  Executor& executor(const Variant& v, int gpus = 1);

  // Solves once from the input and compares with the expected output. CUDA errors and
  // exceptions from the solve become a FAILED verdict; a variant that does not admit this input
  // (admission) is not run: FAILED with the reason (callers skip such runs before they get here).
  Verdict verify(const Variant& v, const Config& c, bool flush_l2, int gpus = 1);

  // Frees the host copies (verification is over; the executors keep their own).
  void drop_expected();
  // Frees the executors on `gpus` GPUs (their runs are done), so the next count's fit.
  void release(int gpus);

 private:
  DistMatrix input_;
  int n_ = 0;
  mutable std::optional<int64_t> max_weight_;
  ExecutorFactory make_;
  std::map<std::pair<Target, int>, std::unique_ptr<Executor>> executors_;  // by target and GPUs
  std::optional<DistMatrix> expected_;
  std::optional<InEdges> in_edges_;  // the certificate's graph
  std::string reference_;
};

// "cpu-reference" up to max_n, else `reference` ("certificate" or a variant's name; "auto":
// `baseline` up to kNaiveReferenceMaxN, "certificate" above).
std::string reference_kind(int n, int cpu_reference_max_n = kCpuReferenceMaxN,
                           const std::string& reference = kAutoReference,
                           const std::string& baseline = "naive");

}  // namespace apsp::harness
