// Verification that scales: the shortest-path certificate. A matrix d is the matrix of
// shortest distances of a graph with weights >= 0 if and only if, for every source s:
//   1. d[s][s] = 0, and every entry is in [0, kInf];
//   2. no edge relaxes any entry: d[s][v] <= d[s][u] + w for every edge u -> v (w);
//   3. every finite entry is reached from s through tight edges (d[s][u] + w = d[s][v]).
// Tightness alone is not enough when zero-weight cycles exist (a cycle of zero-weight edges can
// hold a consistent, too small value), so 3 is checked as reachability: an entry is grounded
// when it is s, or has a tight edge of positive weight (its tail has a smaller value, grounded
// in turn), or a tight zero-weight edge from a grounded entry of the same value.
// Only the edges that can lie on a shortest path need the row checks. A first pass over the
// edges checks rule 2 for s = u alone (d[u][v] <= w(u -> v); with d[u][u] = 0 and the entry in
// range) and keeps the essential edges, those with w(u -> v) = d[u][v]. If that pass finds no
// fault, d is G's distance matrix exactly when it is the distance matrix of G', the essential
// subgraph: a shortest path of G uses only essential edges (every edge of a shortest path is a
// shortest path), so dist_G = dist_G'; and if d = dist_G', each other edge has w(u -> v) >
// d[u][v] = dist_G'(u, v) and can be replaced by a path of G' no longer than itself, so no path
// of G is shorter. Every zero-weight edge is essential once the pass holds (0 <= d[u][v] <= 0).
// Cost O(E + n * E'), against the solve's O(n^3): on a dense random graph E' is a small share
// of E (weights [1, 1000] at density 0.1: few edges a vertex are shortest paths). Run on the
// host here (CPU tests, host executors) and on the device (certificate_device.cu), the same
// rules and the same reported fault in both.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/dist_matrix.hpp"

namespace apsp::harness {

// The graph's edges by destination (CSR), duplicates kept (the smallest decides), and its
// zero-weight edges apart: the only ones the reachability rule must propagate along.
struct InEdges {
  int n = 0;
  std::vector<int64_t> start;  // n + 1: the in-edges of v are [start[v], start[v + 1])
  std::vector<int32_t> from, weight;
  std::vector<Edge> zero;  // the edges of weight 0 (self loops left out)
  static InEdges of(const EdgeList& graph);
  size_t bytes() const { return start.size() * 8 + from.size() * 8 + zero.size() * sizeof(Edge); }
};

// What can be wrong with one entry, in the order the rules above check.
enum class Fault : int { kNone = 0, kDiagonal = 1, kRange = 2, kRelaxed = 3, kUngrounded = 4 };

// A fault as one ordered key, ((s * n + v) << 3) | fault: the lowest key is the fault reported
// (host and device alike); kNoFault when there is none.
inline constexpr uint64_t kNoFault = ~uint64_t{0};
inline uint64_t fault_key(int s, int v, int n, Fault f) {
  return ((static_cast<uint64_t>(s) * static_cast<uint64_t>(n) + static_cast<uint64_t>(v)) << 3) |
         static_cast<uint64_t>(f);
}

struct FaultAt {
  int s, v;
  Fault fault;
};
inline FaultAt decode_fault(uint64_t key, int n) {
  const uint64_t cell = key >> 3;
  return {static_cast<int>(cell / static_cast<uint64_t>(n)),
          static_cast<int>(cell % static_cast<uint64_t>(n)), static_cast<Fault>(key & 7)};
}

// The essential subgraph G' of g under d, and the lowest fault of the first pass over the edges
// (kNoFault when it holds; G' is then all the row checks need). The zero-weight list is g's.
struct Essential {
  InEdges graph;
  uint64_t first_fault = kNoFault;
};
// d is int32 (unreachable kInf) or the 64-bit path's int64 (kInf64), here and below.
template <class T>
Essential essential_edges(BasicMatrixView<T> d, const InEdges& g, int threads = 0);

// One line: "d[3][7] = 12: an edge relaxes it (d[3][5] + w(5 -> 7) = 9)"; `row` is row s.
template <class T>
std::string describe_fault(const T* row, const InEdges& g, int s, int v, Fault f);

// "" when d is the graph's shortest-distance matrix; else the first pass's lowest fault, or
// when it holds, the lowest fault of the rows over G'.
template <class T>
std::string certify_host(BasicMatrixView<T> d, const InEdges& g, int threads = 0);

// Device memory the certificate takes at most for a graph of n vertices and `edges` edges: the
// in-edges, the essential subgraph (at most as large) and a batch's flags (256 MB at most).
uint64_t device_certificate_bytes(int n, uint64_t edges);

// The same on the device: d is the n x n matrix in device memory. Uploads the edges once.
class DeviceCertificate {
 public:
  // g: the in-edges the first pass reads (the graph's; or a rank's, those whose sources are its
  // rows, rank_in_edges) with the whole graph's zero-weight edges, which the row checks read.
  explicit DeviceCertificate(const InEdges& g);
  ~DeviceCertificate();
  DeviceCertificate(const DeviceCertificate&) = delete;
  DeviceCertificate& operator=(const DeviceCertificate&) = delete;
  const InEdges& graph() const { return g_; }
  // "" or the fault certify_host reports, described as it does. Builds G' on the device first.
  // d's rows are `pitch` apart (Variant::pitch; n for a plain n x n matrix).
  std::string check(const int* d, int pitch, cudaStream_t stream);
  std::string check(const int* d, cudaStream_t stream) { return check(d, g_.n, stream); }

  // check() in its two halves, for a matrix held as row blocks over ranks, each d holding rows
  // row0 .. of the matrix (harness/multigpu/rank_certificate.hpp). Faults are fault_key()s.
  // The first pass over g's edges, whose sources are rows of d: the lowest fault, or kNoFault and
  // G' of g's edges kept on the device.
  uint64_t first_pass(const int* d, int pitch, int row0, cudaStream_t stream);
  // G' as the first pass kept it, on the host (start, from and weight; no zero list).
  InEdges essential() const;
  // G' replaced by `kept` (every rank's joined), for check_rows.
  void use_essential(const InEdges& kept);
  // The row checks of rows [row0, row0 + rows) over G': the lowest fault, or kNoFault.
  uint64_t check_rows(const int* d, int pitch, int row0, int rows, cudaStream_t stream);

  // Device memory it keeps between checks (the edges, the last G'), and its peak during one
  // (that and the batch's grounded flags).
  size_t held_bytes() const;
  size_t peak_check_bytes() const;

 private:
  void reserve_kept(size_t kept);
  void reset_fault(cudaStream_t stream);
  std::string describe(const int* d, int pitch, unsigned long long key) const;
  const InEdges& g_;
  struct Buffers;
  Buffers* b_;
};

// The fault `key` described as certify_host does, from its row s in device memory (`row`).
std::string describe_device_fault(const int* row, const InEdges& g, uint64_t key);

// The in-edges of g whose sources are rows [first, first + count), in g's order, with g's whole
// zero-weight list: what one rank's first pass reads.
InEdges rank_in_edges(const InEdges& g, int first, int count);
// The essential in-edges of every rank (each rank's G', the same n) joined by destination, rank
// by rank, with `zero` as its zero-weight list.
InEdges join_in_edges(const std::vector<InEdges>& parts, const std::vector<Edge>& zero);

}  // namespace apsp::harness
