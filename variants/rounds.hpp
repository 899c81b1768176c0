// The course variants' solves as a sequence of rounds, so that a test can launch one round at
// a size too large to solve in a test: tests/variants/test_variants_gpu.cpp runs the last round
// of each at n = 65537, where an index computed in 32 bits (signed or not) or a grid dimension
// past its limit shows. Each of these variants' run() is its schedule's rounds [0, count(n)),
// so the test launches exactly what a solve does. (sm90 has none: its three schedules
// interleave the rounds; its boundary tests solve in full.)
#pragma once

#include <cuda_runtime_api.h>

#include "variants/variant.hpp"

namespace apsp {

struct RoundSchedule {
  const char* variant;  // the registered name
  int width;            // k steps per round: round r runs k in [r * width, min((r + 1) * width, n))
  // Rounds [first, last) of the solve, in order, on `stream`; asynchronous and checked as
  // Variant::run.
  void (*run)(int* d, int n, const Config& c, int first, int last, cudaStream_t stream,
              PhaseTimer* phases);
  int count(int n) const { return (n + width - 1) / width; }
};

// Defined beside each variant's run (variants/00_naive.cu .. 04_batched_edge.cu).
extern const RoundSchedule kNaiveRounds, kBlocked32Rounds, kRegtile64Rounds, kBatchedRounds,
    kBatchedEdgeRounds;

}  // namespace apsp
