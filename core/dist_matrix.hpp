// DistMatrix: the host-side distance matrix every part of the project exchanges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace apsp {

// "Unreachable". 2^30 - 1 keeps INF + INF = 2^31 - 2 inside int32, so kernels can evaluate
// min(c, a + b) with no overflow check; the reader guarantees real distances stay below it.
inline constexpr int32_t kInf = 1073741823;

// The largest n any program accepts (a size asked for, a results file's or a tuning database's
// n): a matrix of 4.4 TB, beyond every GPU; what fits is checked against the device's and the
// host's memory before any work.
inline constexpr int kMaxN = 1 << 20;

struct Edge {
  int32_t src;
  int32_t dst;
  int32_t w;
};

struct EdgeList {
  int32_t num_vertices = 0;
  std::vector<Edge> edges;
};

// A read-only row-major n x n matrix held elsewhere (a DistMatrix, pinned host memory).
struct MatrixView {
  int n = 0;
  const int32_t* data = nullptr;
  const int32_t* row(int i) const { return data + static_cast<size_t>(i) * n; }
};

// Writes the adjacency matrix of `graph` into out[V * V]: kInf, d[i][i] = 0, the smallest
// weight of each duplicated edge (self loops never beat 0).
void fill_adjacency(const EdgeList& graph, int32_t* out);

// Row-major n x n int32 matrix: d[i][j] is the distance from i to j.
class DistMatrix {
 public:
  DistMatrix() = default;
  // All pairs unreachable, except d[i][i] = 0.
  explicit DistMatrix(int n);
  // Adjacency matrix of a graph: the smallest weight of each duplicated edge, d[i][i] = 0.
  static DistMatrix from_edges(const EdgeList& graph);

  int n() const { return n_; }
  int32_t* data() { return data_.data(); }
  const int32_t* data() const { return data_.data(); }
  int32_t* row(int i) { return data_.data() + static_cast<size_t>(i) * n_; }
  const int32_t* row(int i) const { return data_.data() + static_cast<size_t>(i) * n_; }
  int32_t& at(int i, int j) { return data_[static_cast<size_t>(i) * n_ + j]; }
  int32_t at(int i, int j) const { return data_[static_cast<size_t>(i) * n_ + j]; }
  size_t size() const { return data_.size(); }
  size_t bytes() const { return data_.size() * sizeof(int32_t); }
  MatrixView view() const { return {n_, data_.data()}; }

  friend bool operator==(const DistMatrix&, const DistMatrix&) = default;

 private:
  int n_ = 0;
  std::vector<int32_t> data_;
};

// Bytes an n x n matrix needs, without overflow for any int n.
inline uint64_t matrix_bytes(int64_t n) {
  return static_cast<uint64_t>(n) * static_cast<uint64_t>(n) * sizeof(int32_t);
}

struct Mismatch {
  int i = -1, j = -1;
  int32_t got = 0, expected = 0;
  int64_t count = 0;  // how many elements differ in all
  explicit operator bool() const { return count > 0; }
};

// The first differing element (row-major) and the number of differing elements.
Mismatch compare(const DistMatrix& got, const DistMatrix& expected);

}  // namespace apsp
