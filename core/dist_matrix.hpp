// DistMatrix: the host-side distance matrix every part of the project exchanges; DistMatrix64,
// its 64-bit sibling for the exact 64-bit path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace apsp {

// "Unreachable". 2^30 - 1 keeps INF + INF = 2^31 - 2 inside int32, so kernels can evaluate
// min(c, a + b) with no overflow check; the reader guarantees real distances stay below it.
inline constexpr int32_t kInf = 1073741823;

// The 64-bit "unreachable": kInf64 + kInf64 = 2^63 - 2 stays inside int64, so a 64-bit solve
// evaluates min(c, a + b) with no overflow check, as int32 does with kInf.
inline constexpr int64_t kInf64 = (int64_t{1} << 62) - 1;

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
  // The file's id of each vertex, increasing (a SNAP list's ids); empty: vertex k is id k.
  std::vector<int64_t> ids = {};
};

// A read-only row-major n x n matrix held elsewhere (a DistMatrix, pinned host memory); int32
// (MatrixView) or the 64-bit path's int64 (MatrixView64).
template <class T>
struct BasicMatrixView {
  using Element = T;
  int n = 0;
  const T* data = nullptr;
  const T* row(int i) const { return data + static_cast<size_t>(i) * n; }
};
using MatrixView = BasicMatrixView<int32_t>;
using MatrixView64 = BasicMatrixView<int64_t>;

// The "unreachable" of an element type: kInf for int32, kInf64 for int64.
template <class T>
inline constexpr T kUnreachableOf = static_cast<T>(sizeof(T) == 4 ? int64_t{kInf} : kInf64);

// Writes the adjacency matrix of `graph` into out[V * V]: kInf, d[i][i] = 0, the smallest
// weight of each duplicated edge (self loops never beat 0).
void fill_adjacency(const EdgeList& graph, int32_t* out);
// The same in 64 bits: kInf64 where there is no edge; every int32 weight is below it.
void fill_adjacency(const EdgeList& graph, int64_t* out);

// Row-major n x n matrix of T: d[i][j] is the distance from i to j, kUnreachable where there is
// no path. DistMatrix (int32, kInf) is what every part of the project exchanges; DistMatrix64
// (int64, kInf64) is the exact 64-bit path's, for graphs whose distances reach kInf.
template <class T, T kUnreachableValue>
class BasicDistMatrix {
 public:
  using Element = T;
  static constexpr T kUnreachable = kUnreachableValue;

  BasicDistMatrix() = default;
  // All pairs unreachable, except d[i][i] = 0.
  explicit BasicDistMatrix(int n);
  // Adjacency matrix of a graph: the smallest weight of each duplicated edge, d[i][i] = 0.
  static BasicDistMatrix from_edges(const EdgeList& graph);

  int n() const { return n_; }
  T* data() { return data_.data(); }
  const T* data() const { return data_.data(); }
  T* row(int i) { return data_.data() + static_cast<size_t>(i) * n_; }
  const T* row(int i) const { return data_.data() + static_cast<size_t>(i) * n_; }
  T& at(int i, int j) { return data_[static_cast<size_t>(i) * n_ + j]; }
  T at(int i, int j) const { return data_[static_cast<size_t>(i) * n_ + j]; }
  size_t size() const { return data_.size(); }
  size_t bytes() const { return data_.size() * sizeof(T); }
  BasicMatrixView<T> view() const { return {n_, data_.data()}; }

  friend bool operator==(const BasicDistMatrix&, const BasicDistMatrix&) = default;

 private:
  int n_ = 0;
  std::vector<T> data_;
};

using DistMatrix = BasicDistMatrix<int32_t, kInf>;
using DistMatrix64 = BasicDistMatrix<int64_t, kInf64>;
extern template class BasicDistMatrix<int32_t, kInf>;
extern template class BasicDistMatrix<int64_t, kInf64>;

// The 64-bit matrix of the same distances (kInf -> kInf64), and back: an entry at or above kInf
// becomes kInf, which is what an int32 solve computes for a distance that reaches it.
DistMatrix64 widen(const DistMatrix& d);
DistMatrix narrow(const DistMatrix64& d);

// Bytes an n x n matrix needs, without overflow for any int n.
inline uint64_t matrix_bytes(int64_t n) {
  return static_cast<uint64_t>(n) * static_cast<uint64_t>(n) * sizeof(int32_t);
}

struct Mismatch {
  int i = -1, j = -1;
  int64_t got = 0, expected = 0;
  int64_t count = 0;  // how many elements differ in all
  explicit operator bool() const { return count > 0; }
};

// The first differing element (row-major) and the number of differing elements.
Mismatch compare(const DistMatrix& got, const DistMatrix& expected);
Mismatch compare(const DistMatrix64& got, const DistMatrix64& expected);

}  // namespace apsp
