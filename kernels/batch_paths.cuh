// Shortest paths of a batch (kernels/batch_fw.cuh's layout) from its solved distances and its
// edges, a source row at a time: the predecessors, and the edge ids along each path. The row
// routines are __host__ __device__, so that the CPU (harness/batch) and the GPU run the same
// code and give the same paths bit for bit, whichever variant solved the distances.
//
// The rule is the single-graph solver's predecessor rule (harness/solve/paths.hpp: the next
// hops of the reversed graph), read for one source i:
//   round 0: pred[i][j] is the smallest u of an edge u -> j (u != j, the lightest u -> j, so
//            w = d[u][j]) that is tight, d[i][u] + w = d[i][j], with w > 0, or with w = 0 and
//            u = i;
//   round r: an entry still open takes the smallest u of a zero-weight edge u -> j with
//            d[i][u] = d[i][j] whose own entry was chosen in an earlier round.
// A row reads only itself, so a row is one thread's work. The edge into j on the path is the
// lowest id among the lightest parallel edges pred -> j; the path's edges are its first max_dist
// edges from i, in order, -1 after its end (Graphormer's edge input, its ids in the input's own
// edge order).
#pragma once

#include <cstdint>

#include "kernels/batch_fw.cuh"

namespace apsp::kernels {

inline constexpr int16_t kNoPredecessor = -1;

// One graph's solved distances as the row routines read them: row-major, rows `pitch` apart,
// `unreachable` for no path.
template <class T>
struct SolvedGraph {
  const T* d;
  int n, pitch;
  T unreachable;
  __host__ __device__ int at(int i, int j) const { return static_cast<int>(d[i * pitch + j]); }
  __host__ __device__ bool reaches(int i, int j) const { return d[i * pitch + j] != unreachable; }
};

struct GraphEdges {
  BatchGraphs b;
  int64_t begin, end, first_vertex;
  __host__ __device__ int from(int64_t e) const {
    return static_cast<int>(b.src[e] - first_vertex);
  }
  __host__ __device__ int to(int64_t e) const { return static_cast<int>(b.dst[e] - first_vertex); }
  __host__ __device__ int weight(int64_t e) const { return b.weight ? b.weight[e] : 1; }
};

// Smaller as unsigned: kNoPredecessor (and a pending mark) is larger than any vertex.
__host__ __device__ __forceinline__ bool before(int u, int16_t than) {
  return static_cast<uint16_t>(u) < static_cast<uint16_t>(than);
}

// A choice of the current round: open to its own entry, not yet settled for the others.
__host__ __device__ __forceinline__ int16_t pending(int u) { return static_cast<int16_t>(-2 - u); }

template <class T>
__host__ __device__ void first_round(const SolvedGraph<T>& s, const GraphEdges& g, int i,
                                     int16_t* pred) {
  for (int j = 0; j < s.n; ++j) pred[j] = kNoPredecessor;
  for (int64_t e = g.begin; e < g.end; ++e) {
    const int u = g.from(e), j = g.to(e), w = g.weight(e);
    if (u == j || !s.reaches(u, j) || s.at(u, j) != w || !s.reaches(i, j)) continue;
    const bool tight = w > 0 ? s.reaches(i, u) && s.at(i, u) + w == s.at(i, j) : u == i;
    if (tight && before(u, pred[j])) pred[j] = static_cast<int16_t>(u);
  }
}

// Round r > 0: marks the choices pending; returns whether it made one.
template <class T>
__host__ __device__ bool zero_round(const SolvedGraph<T>& s, const GraphEdges& g, int i,
                                    int16_t* pred) {
  bool chose = false;
  for (int64_t e = g.begin; e < g.end; ++e) {
    const int u = g.from(e), j = g.to(e);
    if (u == j || g.weight(e) != 0 || j == i || pred[j] >= 0 || pred[u] < 0) continue;
    if (!s.reaches(i, j) || !s.reaches(i, u) || s.at(i, u) != s.at(i, j)) continue;
    if (pred[j] != kNoPredecessor && -2 - pred[j] < u) continue;  // a smaller u this round
    pred[j] = pending(u);
    chose = true;
  }
  return chose;
}

// Settles the pending choices; returns how many reachable entries are still open.
template <class T>
__host__ __device__ int settle(const SolvedGraph<T>& s, int i, int16_t* pred) {
  int open = 0;
  for (int j = 0; j < s.n; ++j) {
    if (pred[j] <= -2) pred[j] = static_cast<int16_t>(-2 - pred[j]);
    open += pred[j] == kNoPredecessor && j != i && s.reaches(i, j);
  }
  return open;
}

// Row i of the predecessors (n entries). Rounds stop when one chooses nothing: an entry still
// open then (only where d is not the graph's distance matrix) stays kNoPredecessor.
template <class T>
__host__ __device__ void predecessor_row(const SolvedGraph<T>& s, const GraphEdges& g, int i,
                                         int16_t* pred) {
  first_round(s, g, i, pred);
  while (settle(s, i, pred) > 0 && zero_round(s, g, i, pred)) {
  }
}

// into[j]: the edge pred[j] -> j of row i's paths, the lowest id among the lightest ones
// (-1 where pred[j] is none).
template <class T>
__host__ __device__ void edges_into(const SolvedGraph<T>& s, const GraphEdges& g,
                                    const int16_t* pred, int32_t* into) {
  for (int j = 0; j < s.n; ++j) into[j] = -1;
  for (int64_t e = g.begin; e < g.end; ++e) {
    const int u = g.from(e), j = g.to(e);
    if (u != j && pred[j] == u && into[j] < 0 && s.at(u, j) == g.weight(e)) {
      into[j] = static_cast<int32_t>(e);
    }
  }
}

// Row i's edge paths: paths[j * max_dist + h] is the h-th edge from i to j (h < max_dist), -1
// past the path's end, for j == i and where j is unreachable. Walks back from j along pred.
__host__ __device__ inline void edge_path_row(int n, int i, const int16_t* pred,
                                              const int32_t* into, int max_dist, int32_t* paths) {
  for (int j = 0; j < n; ++j) {
    int32_t* path = paths + static_cast<int64_t>(j) * max_dist;
    for (int h = 0; h < max_dist; ++h) path[h] = -1;
    if (j == i || pred[j] < 0) continue;
    int hops = 0;
    for (int v = j; v != i && pred[v] >= 0 && hops < n; v = pred[v]) ++hops;
    for (int v = j, h = hops - 1; v != i && h >= 0; v = pred[v], --h) {
      if (h < max_dist) path[h] = into[v];
    }
  }
}

// Where one source row's paths go: pred (n entries), into (n entries of scratch, read only
// with edges) and edges (n x max_dist entries; null: not asked).
struct RowPaths {
  int16_t* pred;
  int32_t* into;
  int32_t* edges;
  int max_dist;
};

// Where row i of graph g (n vertices) starts in an array of the distances' layout (ragged
// offsets, or padded_n), one entry a pair.
template <class T>
__host__ __device__ int64_t row_offset(const BatchOut<T>& dist, int64_t g, int n, int i) {
  const int pitch = dist.padded_n > 0 ? dist.padded_n : n;
  const int64_t base = dist.padded_n > 0 ? g * pitch * pitch : dist.offsets[g];
  return base + static_cast<int64_t>(i) * pitch;
}

// Source row i of graph g: its predecessors and edge paths.
template <class T>
__host__ __device__ void paths_of_row(const BatchGraphs& b, const BatchOut<T>& dist, int64_t g,
                                      int i, const RowPaths& row) {
  const int64_t first = b.vertex_ptr[g];
  const int n = static_cast<int>(b.vertex_ptr[g + 1] - first);
  const SolvedGraph<T> s{dist.dist + row_offset(dist, g, n, 0), n,
                         dist.padded_n > 0 ? dist.padded_n : n, dist.unreachable};
  const GraphEdges edges{b, b.edge_ptr[g], b.edge_ptr[g + 1], first};
  predecessor_row(s, edges, i, row.pred);
  if (!row.edges) return;
  edges_into(s, edges, row.pred, row.into);
  edge_path_row(n, i, row.pred, row.into, row.max_dist, row.edges);
}

#ifdef __CUDACC__
// A batch's paths in the distances' layout (ragged offsets or padded_n): pred, the
// predecessors (or scratch when only the edge paths are asked); into, scratch of the same
// layout when edges is set; edges, max_dist entries a pair, or null.
struct BatchPathsOut {
  int16_t* pred;
  int32_t* into;
  int32_t* edges;
  int max_dist;
};

// A thread a source vertex of the batch (vertex v of the batch's vertices in [0, vertices)):
// its graph found by bisection over vertex_ptr, then its row.
template <class T>
__global__ void batch_paths(BatchGraphs b, int64_t graphs, int64_t vertices, BatchOut<T> dist,
                            BatchPathsOut out) {
  const int64_t v = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (v >= vertices) return;
  int64_t lo = 0, hi = graphs - 1;  // the last g with vertex_ptr[g] <= v: v's graph
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (b.vertex_ptr[mid] <= v) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  const int i = static_cast<int>(v - b.vertex_ptr[lo]);
  const int64_t at =
      row_offset(dist, lo, static_cast<int>(b.vertex_ptr[lo + 1] - b.vertex_ptr[lo]), i);
  paths_of_row(b, dist, lo, i,
               {out.pred + at, out.edges ? out.into + at : nullptr,
                out.edges ? out.edges + at * out.max_dist : nullptr, out.max_dist});
}
#endif

}  // namespace apsp::kernels
