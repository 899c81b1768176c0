// The shortest-path certificate on the device (harness/verify/certificate.hpp has the rules and the
// host version). Sources are checked in batches; a batch's "grounded" flags are one byte per
// (source, vertex). d's rows are `pitch` apart (Variant::pitch), and d holds the rows from global
// row `row0` on (0 for a whole matrix; a rank's first row for its block): row s is at
// d + (s - row0) x pitch, and faults name global rows. The first fault is kept as one 64-bit key, ((s * n + v) << 3) | fault,
// so atomicMin keeps the lowest (s, v), as the host version reports it.
#pragma once

#include <cstdint>

#include "kernels/common.cuh"

namespace apsp::kernels::certificate {

// Fault codes: harness::Fault.
inline constexpr unsigned long long kDiagonal = 1, kRange = 2, kRelaxed = 3, kUngrounded = 4;

__device__ __forceinline__ void report(unsigned long long* first, int s, int v, int n,
                                       unsigned long long fault) {
  atomicMin(first, ((static_cast<unsigned long long>(s) * n + v) << 3) | fault);
}

// The first pass over the edges (harness/verify/certificate.hpp): one warp per column v, its lanes
// over v's in-edges u -> v. Reports the edge's fault (d[u][u] != 0, d[u][v] out of range, or
// d[u][v] > w) and tells whether it is essential (w = d[u][v]). Reads d[u][v] down a column: a
// sector per edge, once per check, against the row checks' n reads per edge.
__device__ __forceinline__ bool essential_edge(const int* __restrict__ d, int n, int pitch,
                                               int row0, int u, int v, int w,
                                               unsigned long long* first) {
  if (u == v) return false;  // a self loop never shortens d[u][u] = 0
  const int duv = d[at(u - row0, v, pitch)];
  if (d[at(u - row0, u, pitch)] != 0) {
    report(first, u, u, n, kDiagonal);
  } else if (duv < 0 || duv > kInf) {
    report(first, u, v, n, kRange);
  } else if (duv > w) {
    report(first, u, v, n, kRelaxed);
  }
  return duv == w;
}

// Counts each column's essential in-edges into count[v] (a scan then gives the new starts).
static __global__ void count_essential(const int* __restrict__ d, int n, int pitch, int row0,
                                       const long long* __restrict__ start,
                                       const int* __restrict__ from, const int* __restrict__ weight,
                                       long long* __restrict__ count, unsigned long long* first) {
  const int v =
      static_cast<int>((static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32);
  const int lane = threadIdx.x % 32;
  if (v >= n) return;
  long long kept = 0;
  for (long long e = start[v] + lane; e < start[v + 1]; e += 32)
    kept += essential_edge(d, n, pitch, row0, from[e], v, weight[e], first);
  for (int offset = 16; offset > 0; offset /= 2)
    kept += __shfl_down_sync(0xffffffffu, kept, offset);
  if (lane == 0) count[v] = kept;
}

// Copies each column's essential in-edges, in order, to [kept_start[v], kept_start[v + 1]).
static __global__ void gather_essential(const int* __restrict__ d, int n, int pitch, int row0,
                                        const long long* __restrict__ start,
                                        const int* __restrict__ from,
                                        const int* __restrict__ weight,
                                        const long long* __restrict__ kept_start,
                                        int* __restrict__ kept_from, int* __restrict__ kept_weight,
                                        unsigned long long* first) {
  const int v =
      static_cast<int>((static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32);
  const int lane = threadIdx.x % 32;
  if (v >= n) return;
  long long out = kept_start[v];
  for (long long base = start[v]; base < start[v + 1]; base += 32) {  // the whole warp, every step
    const long long e = base + lane;
    const bool keep =
        e < start[v + 1] && essential_edge(d, n, pitch, row0, from[e], v, weight[e], first);
    const unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (keep) {
      const long long at_out = out + __popc(mask & ((1u << lane) - 1));
      kept_from[at_out] = from[e];
      kept_weight[at_out] = weight[e];
    }
    out += __popc(mask);
  }
}

// One thread per (s, v), v = blockIdx.x * blockDim.x + threadIdx.x, s = s0 + blockIdx.y *
// blockDim.y + threadIdx.y: the range and the diagonal, no in-edge relaxes d[s][v], and whether a
// tight in-edge of positive weight grounds it. The blockDim.y warps of a block read the same
// in-edges (once from memory, then L1), and consecutive blocks share their rows s (L2).
static __global__ void check_edges(const int* __restrict__ d, int n, int pitch, int row0,
                                   const long long* __restrict__ start,
                                   const int* __restrict__ from, const int* __restrict__ weight,
                                   int s0, int rows, unsigned char* __restrict__ grounded,
                                   unsigned long long* first) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y * blockDim.y + threadIdx.y,
            s = s0 + b;
  if (v >= n || b >= rows) return;
  const int* row = d + at(s - row0, 0, pitch);
  const int dv = row[v];
  // a faulty entry grounds nothing (the flags are reused batch to batch)
  grounded[at(b, v, n)] = 0;
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
// a head of the same finite value. The host repeats it until nothing changes. A grid-stride loop
// over the (edge, source) pairs: there can be more than a grid holds (1e8 zero-weight edges
// times thousands of sources).
static __global__ void ground_zero_edges(const int* __restrict__ d, int n, int pitch, int row0,
                                         const int2* __restrict__ zero, long long count, int s0,
                                         int batch, unsigned char* __restrict__ grounded,
                                         int* changed) {
  const long long pairs = count * batch;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < pairs;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int b = static_cast<int>(i / count);
    const int2 e = zero[i % count];  // (src, dst)
    const int* row = d + at(s0 + b - row0, 0, pitch);
    unsigned char* g = grounded + at(b, 0, n);
    if (!g[e.y] && g[e.x] && row[e.x] == row[e.y] && row[e.y] < kInf) {
      g[e.y] = 1;
      *changed = 1;
    }
  }
}

// Every finite entry of the batch must be grounded.
static __global__ void check_grounded(const int* __restrict__ d, int n, int pitch, int row0, int s0,
                                      const unsigned char* __restrict__ grounded,
                                      unsigned long long* first) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x, s = s0 + blockIdx.y;
  if (v >= n) return;
  if (d[at(s - row0, v, pitch)] < kInf && !grounded[at(blockIdx.y, v, n)])
    report(first, s, v, n, kUngrounded);
}

}  // namespace apsp::kernels::certificate
