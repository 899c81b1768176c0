#include "core/dist_matrix.hpp"

#include <algorithm>
#include <stdexcept>

namespace apsp {

namespace {

template <class T>
void fill_adjacency_of(const EdgeList& graph, T* out, T unreachable) {
  const size_t n = static_cast<size_t>(graph.num_vertices);
  std::fill(out, out + n * n, unreachable);
  for (size_t i = 0; i < n; ++i) out[i * n + i] = 0;
  for (const Edge& e : graph.edges) {
    if (e.src == e.dst) continue;  // a self loop never beats d[i][i] = 0
    T& cell = out[static_cast<size_t>(e.src) * n + e.dst];
    cell = std::min(cell, static_cast<T>(e.w));
  }
}

template <class Matrix>
Mismatch compare_of(const Matrix& got, const Matrix& expected) {
  if (got.n() != expected.n()) throw std::invalid_argument("compare: matrices of different size");
  Mismatch m;
  const int n = got.n();
  for (int i = 0; i < n; ++i) {
    const auto* g = got.row(i);
    const auto* e = expected.row(i);
    if (std::equal(g, g + n, e)) continue;
    for (int j = 0; j < n; ++j) {
      if (g[j] == e[j]) continue;
      if (m.count == 0) m = Mismatch{i, j, g[j], e[j], 0};
      ++m.count;
    }
  }
  return m;
}

}  // namespace

template <class T, T kUnreachableValue>
BasicDistMatrix<T, kUnreachableValue>::BasicDistMatrix(int n)
    : n_(n), data_(static_cast<size_t>(std::max(n, 0)) * std::max(n, 0), kUnreachableValue) {
  if (n < 0) throw std::invalid_argument("DistMatrix: negative size");
  for (int i = 0; i < n; ++i) at(i, i) = 0;
}

template <class T, T kUnreachableValue>
BasicDistMatrix<T, kUnreachableValue> BasicDistMatrix<T, kUnreachableValue>::from_edges(
    const EdgeList& graph) {
  BasicDistMatrix d(graph.num_vertices);
  fill_adjacency(graph, d.data());
  return d;
}

template class BasicDistMatrix<int32_t, kInf>;
template class BasicDistMatrix<int64_t, kInf64>;

void fill_adjacency(const EdgeList& graph, int32_t* out) { fill_adjacency_of(graph, out, kInf); }

void fill_adjacency(const EdgeList& graph, int64_t* out) { fill_adjacency_of(graph, out, kInf64); }

DistMatrix64 widen(const DistMatrix& d) {
  DistMatrix64 out(d.n());
  std::transform(d.data(), d.data() + d.size(), out.data(),
                 [](int32_t x) { return x >= kInf ? kInf64 : int64_t{x}; });
  return out;
}

DistMatrix narrow(const DistMatrix64& d) {
  DistMatrix out(d.n());
  std::transform(d.data(), d.data() + d.size(), out.data(),
                 [](int64_t x) { return x >= kInf ? kInf : static_cast<int32_t>(x); });
  return out;
}

Mismatch compare(const DistMatrix& got, const DistMatrix& expected) {
  return compare_of(got, expected);
}

Mismatch compare(const DistMatrix64& got, const DistMatrix64& expected) {
  return compare_of(got, expected);
}

}  // namespace apsp
