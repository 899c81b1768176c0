// The one timing routine (ARCHITECTURE.md, "Timing: one routine"). Before every sample the
// pristine matrix is copied back (not timed) and L2 is optionally flushed (not timed); the whole
// solve is timed with CUDA events on one stream. Floyd-Warshall works in place, so no sample
// ever starts from a previous output.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/device_buffer.hpp"

namespace apsp {

// Solves in place: the device n x n matrix, its size, the stream every launch goes on.
using SolveFn = std::function<void(int* d, int n, cudaStream_t stream)>;

struct MeasureOptions {
  int warmup = 1;         // untimed solves first (module load, pool allocation)
  int min_reps = 3;       // samples at least ...
  int max_reps = 10;      // ... and at most
  double min_time_s = 1;  // take more samples (up to max_reps) until they add up to this
  bool flush_l2 = true;
};

class Timer {
 public:
  // `pristine` holds the input (device, n x n); `work` is solved in place.
  Timer(const int* pristine, int* work, int n, size_t l2_bytes, cudaStream_t stream);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  // Restores the input, flushes L2 if asked, and times one solve in milliseconds.
  double sample(const SolveFn& solve, bool flush_l2);
  // Captures one solve into a CUDA graph (once per `key`: the graph is rebuilt when the key
  // changes) and times one replay, input restored first.
  double sample_graph(const std::string& key, const SolveFn& solve, bool flush_l2);
  void restore();

 private:
  void flush();
  const int* pristine_;
  int* work_;
  int n_;
  cudaStream_t stream_;
  DeviceBuffer<char> scrub_;  // twice the L2: writing it evicts every line of the matrix
  CudaEvent start_, stop_;
  int flushes_ = 0;
  cudaGraphExec_t graph_ = nullptr;
  std::string graph_key_;
};

// Warm-up, then samples per MeasureOptions; every sample through Timer::sample.
std::vector<double> measure(Timer& timer, const SolveFn& solve, const MeasureOptions& options);

// How many samples to take after a warm-up that took `warm_ms`.
int planned_reps(double warm_ms, const MeasureOptions& options);

}  // namespace apsp
