// Verification that scales: the shortest-path certificate. A matrix d is the matrix of
// shortest distances of a graph with weights >= 0 if and only if, for every source s:
//   1. d[s][s] = 0, and every entry is in [0, kInf];
//   2. no edge relaxes any entry: d[s][v] <= d[s][u] + w for every edge u -> v (w);
//   3. every finite entry is reached from s through tight edges (d[s][u] + w = d[s][v]).
// Tightness alone is not enough when zero-weight cycles exist (a cycle of zero-weight edges can
// hold a consistent, too small value), so 3 is checked as reachability: an entry is grounded
// when it is s, or has a tight edge of positive weight (its tail has a smaller value, grounded
// in turn), or a tight zero-weight edge from a grounded entry of the same value.
// Cost O(n * E) per matrix, against the solve's O(n^3); it needs no second solve. Run on the
// host here (CPU tests, host executors) and on the device (certificate_device.cu), the same
// rules in both.
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
  std::vector<Edge> zero;      // the edges of weight 0 (self loops left out)
  static InEdges of(const EdgeList& graph);
  size_t bytes() const { return start.size() * 8 + from.size() * 8 + zero.size() * sizeof(Edge); }
};

// What can be wrong with one entry, in the order the rules above check.
enum class Fault : int { kNone = 0, kDiagonal = 1, kRange = 2, kRelaxed = 3, kUngrounded = 4 };

// One line: "d[3][7] = 12: an edge relaxes it (d[3][5] + w(5 -> 7) = 9)"; `row` is row s.
std::string describe_fault(const int32_t* row, const InEdges& g, int s, int v, Fault f);

// "" when d is the graph's shortest-distance matrix; else a fault of the lowest faulty row.
std::string certify_host(MatrixView d, const InEdges& g, int threads = 0);

// The same on the device: d is the n x n matrix in device memory. Uploads the edges once.
class DeviceCertificate {
 public:
  explicit DeviceCertificate(const InEdges& g);
  ~DeviceCertificate();
  DeviceCertificate(const DeviceCertificate&) = delete;
  DeviceCertificate& operator=(const DeviceCertificate&) = delete;
  const InEdges& graph() const { return g_; }
  // "" or the fault of the lowest (s, v), described as certify_host does.
  std::string check(const int* d, cudaStream_t stream);

 private:
  const InEdges& g_;
  struct Buffers;
  Buffers* b_;
};

}  // namespace apsp::harness
