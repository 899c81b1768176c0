// Where solves run and how one solve is timed: the primitive under the sampler. An Executor
// holds one problem's pristine input and a work copy; sample() restores the input (not timed),
// flushes the cache if asked (not timed), then times the whole solve. Floyd-Warshall works in
// place, so no sample ever starts from a previous output.
//   DeviceExecutor: the GPU; CUDA events on one stream, L2 flushed by writing twice its size.
//   HostExecutor:   the CPU-backed variants (Target::kHost) the CPU tests drive the harness
//                   through; steady_clock, nothing to flush.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "core/dist_matrix.hpp"
#include "harness/verify/certificate.hpp"
#include "variants/variant.hpp"

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
  // Restores the input, flushes caches if asked, and times one solve, in milliseconds.
  virtual double sample(const Variant& v, const Config& c, bool flush_l2) = 0;
  // The last solve's output.
  virtual DistMatrix output() = 0;
  // "" when the last solve's output is the shortest-distance matrix of `g`
  // (harness/verify/certificate.hpp), else its fault; checked where the output is (the device's on
  // the device). `g` must outlive the executor's use of it.
  virtual std::string certify(const InEdges& g) = 0;
  // Captures one solve into a CUDA graph (once per `key`) and times one replay, the input
  // restored first. Hosts have no graphs: they time a plain solve.
  virtual double sample_graph(const std::string& key, const Variant& v, const Config& c,
                              bool flush_l2) = 0;
  // One solve from the input with each phase's time summed over rounds: [0] outside phases
  // 1-3, [1..3] (apsp_bench --phases). Hosts report nothing (zeros).
  virtual std::array<double, 4> phases(const Variant& v, const Config& c) = 0;
  // Since the last sample() (and any certify() after it).
  virtual DeviceMemory device_memory() const { return {}; }
};

// For the variants of `target`; a device executor needs a CUDA device (throws CudaError
// without one). `l2_bytes` sizes the flush.
std::unique_ptr<Executor> make_executor(Target target, size_t l2_bytes);

}  // namespace apsp::harness
