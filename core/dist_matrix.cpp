#include "core/dist_matrix.hpp"

#include <algorithm>
#include <stdexcept>

namespace apsp {

DistMatrix::DistMatrix(int n) : n_(n), data_(static_cast<size_t>(n) * n, kInf) {
  if (n < 0) throw std::invalid_argument("DistMatrix: negative size");
  for (int i = 0; i < n; ++i) at(i, i) = 0;
}

void fill_adjacency(const EdgeList& graph, int32_t* out) {
  const size_t n = static_cast<size_t>(graph.num_vertices);
  std::fill(out, out + n * n, kInf);
  for (size_t i = 0; i < n; ++i) out[i * n + i] = 0;
  for (const Edge& e : graph.edges) {
    if (e.src == e.dst) continue;  // a self loop never beats d[i][i] = 0
    int32_t& cell = out[static_cast<size_t>(e.src) * n + e.dst];
    cell = std::min(cell, e.w);
  }
}

DistMatrix DistMatrix::from_edges(const EdgeList& graph) {
  DistMatrix d(graph.num_vertices);
  fill_adjacency(graph, d.data());
  return d;
}

Mismatch compare(const DistMatrix& got, const DistMatrix& expected) {
  if (got.n() != expected.n()) throw std::invalid_argument("compare: matrices of different size");
  Mismatch m;
  const int n = got.n();
  for (int i = 0; i < n; ++i) {
    const int32_t* g = got.row(i);
    const int32_t* e = expected.row(i);
    if (std::equal(g, g + n, e)) continue;
    for (int j = 0; j < n; ++j) {
      if (g[j] == e[j]) continue;
      if (m.count == 0) m = Mismatch{i, j, g[j], e[j], 0};
      ++m.count;
    }
  }
  return m;
}

}  // namespace apsp
