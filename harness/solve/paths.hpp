// Shortest paths from the distances, after the solve (apsp --paths, --path): the next-hop matrix.
// next[i][j] is the first vertex after i on a shortest path from i to j; kNoHop (-1) when j is
// unreachable from i or j == i. The Floyd-Warshall kernels are not involved: a first hop k of
// a shortest path is an edge i -> k with w(i,k) + d[k][j] = d[i][j] (a tight edge), and such an
// edge always has w(i,k) = d[i][k], so only those edges are read.
//
// Any tight edge is a first hop, but following arbitrary ones need not end: two tight
// zero-weight edges i -> k -> i keep the remaining distance equal. So the hops are chosen in
// rounds, per target j:
//   round 0: i takes the smallest k of a tight edge of positive weight (the remaining distance
//            falls strictly) or of a tight edge straight to j (k = j);
//   round r: an entry still open takes the smallest k of a tight zero-weight edge i -> k whose
//            own hop was chosen in an earlier round (it has the same distance, a lower round).
// Along the hops (d[.][j], round) falls strictly, lexicographically, so every walk ends at j
// and no path repeats a vertex. Every finite entry is chosen: a shortest path's last
// zero-weight stretch before a positive edge (or before j) is chosen back to front, one round a
// vertex. The rounds stop when one chooses nothing; an entry still open then means d is not the
// graph's distance matrix. Smallest k among equals and synchronous rounds make the host and
// the device give the same matrix, bit for bit.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/dist_matrix.hpp"
#include "harness/verify/edge_groups.hpp"

namespace apsp::harness {

inline constexpr int32_t kNoHop = -1;

// The graph's edges by source, as the next hops read them: self loops left out (a first hop is
// never i itself), and the zero-weight edges again apart, with the vertices that have any (the
// only rows the later rounds visit).
struct OutEdges {
  int n = 0;
  EdgeGroups all, zero;
  std::vector<int32_t> zero_sources;
  static OutEdges of(const EdgeList& graph);
  // The same of the reversed graph: g's edges grouped by destination (no reversed copy).
  static OutEdges of_reversed(const EdgeList& graph);
  size_t bytes() const { return all.bytes() + zero.bytes() + zero_sources.size() * 4; }
};

// next[n * n] for d, the graph's shortest-distance matrix (int32, or the 64-bit path's int64:
// the same rule, the same hops). Throws std::runtime_error (one line, the lowest entry left
// open) when d is not that matrix.
template <class T>
void next_hops_host(BasicMatrixView<T> d, const OutEdges& g, int32_t* next, int threads = 0);

// The one line for an entry left open: "d[3][7] = 12: no edge out of 3 starts ...".
std::string open_entry_fault(int i, int j, int64_t dij);

// The same on the device, into next (n x n, device memory) from d (device memory); returns when
// done. The edges are uploaded for the call: next_hops_device_bytes more device memory.
void next_hops_device(const int32_t* d, int32_t* next, const OutEdges& g, cudaStream_t stream);
uint64_t next_hops_device_bytes(const OutEdges& g);

// The predecessor matrix, as scipy.sparse.csgraph's return_predecessors gives it: pred[i][j] is
// the vertex before j on a shortest path from i to j; kNoHop where j is unreachable from i, or
// j == i. It is the next-hop matrix of the reversed graph, whose distance matrix is d transposed
// (a shortest path from i to j, read backwards, is one from j to i there): pred[i][j] =
// next'[j][i]. So the rule above chooses it, following pred back from j always ends at i, and
// the host and the device give the same matrix, bit for bit. Throws std::runtime_error as
// next_hops_host does when d is not g's distance matrix.
void predecessors_host(MatrixView d, const EdgeList& g, int32_t* pred, int threads = 0);
// The same from d on the device (n x n, device memory) into pred (n x n, host memory), with
// predecessors_device_bytes more device memory: two matrices, and the reversed graph's edges.
void predecessors_device(const int32_t* d, const EdgeList& g, int32_t* pred);
uint64_t predecessors_device_bytes(int n, size_t edges);

// The vertices of the path from s to t, s and t included, given column t of the next-hop
// matrix (column[k] = next[k][t]): {} when t is unreachable from s, {s} when s == t.
// Throws std::runtime_error when the hops leave [0, n) or do not reach t within n steps.
std::vector<int32_t> follow_hops(const int32_t* column, int n, int s, int t);

// "path 3 -> 7: 3 5 9 7 (length 42)", or "path 3 -> 7: unreachable".
std::string describe_path(int s, int t, const std::vector<int32_t>& path, int64_t length);
// The same with the vertices named by the file's ids (a SNAP list's).
std::string describe_path(int64_t s, int64_t t, const std::vector<int64_t>& path, int64_t length);

}  // namespace apsp::harness
