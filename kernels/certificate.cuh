// The shortest-path certificate on the device (harness/certificate.hpp has the rules and the
// host version). Sources are checked in batches; a batch's "grounded" flags are one byte per
// (source, vertex). The first fault is kept as one 64-bit key, ((s * n + v) << 3) | fault,
// so atomicMin keeps the lowest (s, v), as the host version reports it.
#pragma once

#include <cstdint>

#include "kernels/common.cuh"

namespace apsp::kernels::certificate {

// Fault codes: harness::Fault.
inline constexpr unsigned long long kDiagonal = 1, kRange = 2, kRelaxed = 3, kUngrounded = 4;

__device__ __forceinline__ void report(unsigned long long* first, int s, int v, int n, unsigned long long fault) {
  atomicMin(first, ((static_cast<unsigned long long>(s) * n + v) << 3) | fault);
}

// One thread per (s, v), v = blockIdx.x * blockDim.x + threadIdx.x, s = s0 + blockIdx.y *
// blockDim.y + threadIdx.y: the range and the diagonal, no in-edge relaxes d[s][v], and whether a
// tight in-edge of positive weight grounds it. The blockDim.y warps of a block read the same
// in-edges (once from memory, then L1), and consecutive blocks share their rows s (L2).
static __global__ void check_edges(const int* __restrict__ d, int n, const long long* __restrict__ start,
                                   const int* __restrict__ from, const int* __restrict__ weight, int s0, int rows,
                                   unsigned char* __restrict__ grounded, unsigned long long* first) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y * blockDim.y + threadIdx.y, s = s0 + b;
  if (v >= n || b >= rows) return;
  const int* row = d + at(s, 0, n);
  const int dv = row[v];
  if (dv < 0 || dv > kInf) return report(first, s, v, n, kRange);
  if (v == s && dv != 0) return report(first, s, v, n, kDiagonal);
  bool positive_tight = false;
  for (long long e = start[v]; e < start[v + 1]; ++e) {
    const int du = row[from[e]];
    if (du < 0 || du >= kInf) continue;
    const long long via = static_cast<long long>(du) + weight[e];
    if (via < dv) return report(first, s, v, n, kRelaxed);
    positive_tight |= via == dv && weight[e] > 0;
  }
  grounded[at(b, v, n)] = v == s || positive_tight;
}

// One pass along the zero-weight edges for every source of the batch: a grounded tail grounds
// a head of the same finite value. The host repeats it until nothing changes.
static __global__ void ground_zero_edges(const int* __restrict__ d, int n, const int2* __restrict__ zero, long long count,
                                         int s0, int batch, unsigned char* __restrict__ grounded, int* changed) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count * batch) return;
  const int b = static_cast<int>(i / count);
  const int2 e = zero[i % count];  // (src, dst)
  const int* row = d + at(s0 + b, 0, n);
  unsigned char* g = grounded + at(b, 0, n);
  if (!g[e.y] && g[e.x] && row[e.x] == row[e.y] && row[e.y] < kInf) {
    g[e.y] = 1;
    *changed = 1;
  }
}

// Every finite entry of the batch must be grounded.
static __global__ void check_grounded(const int* __restrict__ d, int n, int s0, const unsigned char* __restrict__ grounded,
                                      unsigned long long* first) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x, s = s0 + blockIdx.y;
  if (v >= n) return;
  if (d[at(s, v, n)] < kInf && !grounded[at(blockIdx.y, v, n)]) report(first, s, v, n, kUngrounded);
}

}  // namespace apsp::kernels::certificate
