// check_batch (core/graph_batch.hpp) for a batch already on the GPU: a thread a graph, then a
// thread an edge, each fault recorded as the lowest graph or edge that shows it (atomicMin), and
// the batch's largest graph and weight (atomicMax), so that the host reads back one small record
// and names the same first fault the host check would.
#pragma once

#include <cstdint>

#include "kernels/batch_fw.cuh"

namespace apsp::kernels {

inline constexpr unsigned long long kNoFault = ~0ull;

struct BatchCheckRecord {
  unsigned long long bad_graph;  // lowest g whose pointers decrease or whose size is too large
  unsigned long long bad_edge;   // lowest e whose ends leave its graph or whose weight is out
  int max_n;
  int max_weight;
};

static __global__ void check_batch_graphs(BatchGraphs b, int64_t graphs, int max_vertices,
                                          BatchCheckRecord* record) {
  const int64_t g = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (g >= graphs) return;
  const int64_t n = b.vertex_ptr[g + 1] - b.vertex_ptr[g];
  if (n < 0 || n > max_vertices || b.edge_ptr[g + 1] < b.edge_ptr[g]) {
    atomicMin(&record->bad_graph, static_cast<unsigned long long>(g));
  } else {
    atomicMax(&record->max_n, static_cast<int>(n));
  }
}

// The graph of edge e: the last g with edge_ptr[g] <= e (the pointers were checked first).
__device__ __forceinline__ int64_t graph_of_edge(const int64_t* edge_ptr, int64_t graphs,
                                                 int64_t e) {
  int64_t lo = 0, hi = graphs - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (edge_ptr[mid] <= e)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

static __global__ void check_batch_edges(BatchGraphs b, int64_t graphs, int64_t edges,
                                         BatchCheckRecord* record) {
  const int64_t e = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (e >= edges) return;
  const int64_t g = graph_of_edge(b.edge_ptr, graphs, e);
  const int64_t first = b.vertex_ptr[g], last = b.vertex_ptr[g + 1];
  const bool ends_inside =
      b.src[e] >= first && b.src[e] < last && b.dst[e] >= first && b.dst[e] < last;
  const int w = b.weight ? b.weight[e] : 1;
  if (!ends_inside || w < 0 || w >= kInf) {
    atomicMin(&record->bad_edge, static_cast<unsigned long long>(e));
  } else {
    atomicMax(&record->max_weight, w);
  }
}

}  // namespace apsp::kernels
