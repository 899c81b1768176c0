// One problem size on the device, shared by apsp_bench and the tuner: the input kept pristine,
// a work buffer, the Timer, and the output every variant must reproduce bit for bit (the CPU
// reference up to cpu_reference_max_n, above that the naive variant's output).
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <string>

#include "core/device_buffer.hpp"
#include "core/dist_matrix.hpp"
#include "core/measure.hpp"
#include "variants/variant.hpp"

namespace apsp {

inline constexpr int kCpuReferenceMaxN = 2048;

// "cpu-reference" up to max_n, else "naive".
std::string reference_kind(int n, int cpu_reference_max_n = kCpuReferenceMaxN);

class Workbench {
 public:
  // Uploads `input` and computes the expected output (this is the slow part: the CPU reference,
  // or one naive solve on the device).
  Workbench(DistMatrix input, const DeviceInfo& dev, cudaStream_t stream,
            int cpu_reference_max_n = kCpuReferenceMaxN);

  int n() const { return n_; }
  Timer& timer() { return *timer_; }
  int* work() { return work_.get(); }
  const std::string& reference() const { return reference_; }

  struct Verdict {
    std::string verified;  // reference() (or "baseline" for naive above the CPU range), "FAILED"
    std::string error;     // set when FAILED
    double first_ms = 0;   // the verifying solve's time: the warm-up
    bool ok() const { return verified != "FAILED"; }
  };
  // Solves once from the pristine input and compares with the expected output. CUDA errors
  // become a FAILED verdict.
  Verdict verify(const Variant& v, const Config& c, bool flush_l2);

  // Frees the host copy of the expected output (verification is over).
  void drop_expected() { expected_.reset(); }

 private:
  int n_;
  cudaStream_t stream_;
  DeviceBuffer<int> pristine_, work_;
  std::unique_ptr<Timer> timer_;
  std::optional<DistMatrix> expected_;
  std::string reference_;
};

// The solve of (variant, config) in the form Timer and measure() take.
SolveFn solver(const Variant& v, const Config& c);

}  // namespace apsp
