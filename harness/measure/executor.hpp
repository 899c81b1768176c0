// Where solves run. An Executor holds one problem's pristine input and a work copy; every timed
// solve is the Sampler's (harness/measure/sampler.hpp), which restores the input before each one,
// so no solve ever starts from a previous output (Floyd-Warshall works in place).
//   LocalExecutor: solves in this process; it lends the Sampler what one sample needs (restore,
//     flush, run, a clock) and decides nothing about timing:
//       DeviceExecutor (make_executor): the GPU; CUDA events on one stream, L2 flushed by writing
//                      twice its size.
//       HostExecutor:  the CPU-backed variants (Target::kHost) the CPU tests drive the harness
//                      through; steady_clock, nothing to flush.
//       the distributed engine (harness/multigpu/distributed.hpp): the ranks' streams.
//   IsolatedExecutor (harness/userkernel/isolated_executor.hpp): solves in a worker process, whose
//     Sampler takes the same measurement on a DeviceExecutor there.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>

#include "core/dist_matrix.hpp"
#include "harness/measure/measurement.hpp"
#include "harness/verify/certificate.hpp"
#include "variants/variant.hpp"

namespace apsp {
class PhaseTimer;
}

namespace apsp::harness {

// Device memory of the latest verified solve: what the solve itself needs (its buffer,
// buffer_elems ints, and the scratch it allocates), and the peak the harness held on the device
// for it (the pristine copy, the work buffer, the L2 flush buffer, the certificate's edges and
// flags, the solve's scratch). Zeros where nothing is measured (the host, the worker process).
struct DeviceMemory {
  uint64_t solve_bytes = 0, peak_bytes = 0;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // Keeps `input` as the pristine matrix every sample starts from.
  virtual void load(const DistMatrix& input) = 0;
  // Takes the measurement `spec` of (v, c): the Sampler's, here or in the worker.
  virtual Measurement measure(const Variant& v, const Config& c, const MeasureSpec& spec) = 0;
  // One plain sample, in milliseconds: a solve from the input, timed (verification's solve, the
  // warm-up).
  double sample(const Variant& v, const Config& c, bool flush_l2) {
    return measure(v, c, {Mode::kStream, 1, flush_l2}).samples_ms.at(0);
  }
  // The last solve's output.
  virtual DistMatrix output() = 0;
  // "" when the last solve's output is the shortest-distance matrix of `g`
  // (harness/verify/certificate.hpp), else its fault; checked where the output is (the device's on
  // the device). `g` must outlive the executor's use of it.
  virtual std::string certify(const InEdges& g) = 0;
  // Since the last plain sample (and any certify() after it).
  virtual DeviceMemory device_memory() const { return {}; }
};

// Times one sample for the Sampler: start() after the (untimed) restore and flush, stop() once
// the solve is enqueued, elapsed_ms() then waits for the solve.
class SampleClock {
 public:
  virtual ~SampleClock() = default;
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual double elapsed_ms() = 0;
};

// An executor whose solves run in this process: measure() is the Sampler over the hooks below,
// which the Sampler calls in this order for each sample: restore, flush_l2 (if asked), the
// clock's start, run, the clock's stop and elapsed_ms, after_solve (plain samples).
class LocalExecutor : public Executor {
 public:
  // A Sampler's (defined in sampler.cpp).
  Measurement measure(const Variant& v, const Config& c, const MeasureSpec& spec) final;

  // Room and layout for (v, c)'s solves; throws for what this executor cannot run. Before the
  // samples of a measurement, not timed.
  virtual void reserve(const Variant& v, const Config& c) = 0;
  // The pristine input into the work buffer: enqueued on the stream(s) the solve runs on.
  virtual void restore() = 0;
  // Evicts the input from the L2 (every device's): enqueued like restore(); nothing on the host.
  virtual void flush_l2() = 0;
  // Enqueues one solve of the work buffer in place (reserve'd for (v, c)); `phases` marks them.
  virtual void run(const Variant& v, const Config& c, PhaseTimer* phases) = 0;
  virtual SampleClock& clock() = 0;
  // The one stream a solve's launches go to, for capturing a CUDA graph and timing phases; null
  // where a solve is not one stream's (Mode says what the Sampler does then).
  virtual cudaStream_t stream() { return nullptr; }
  // After a plain sample's time is read: what the executor notes of the solve (device_memory()).
  virtual void after_solve(const Variant&, const Config&) {}
};

// For the variants of `target` (kHost or kDevice); a device executor needs a CUDA device (throws
// CudaError without one). `l2_bytes` sizes the flush.
std::unique_ptr<LocalExecutor> make_executor(Target target, size_t l2_bytes);

}  // namespace apsp::harness
