#include "core/reference.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "core/parallel.hpp"

namespace apsp {

namespace {

// 64 x 64 tiles: three of them (48 KB in int32, 96 KB in int64) stay in a core's L2 during
// phase 3.
constexpr int kTile = 64;

// c[i][j] = min(c[i][j], a[i][k] + b[k][j]) over the tile ranges given, in place.
// Run sequentially, in-place updates are exactly Floyd-Warshall's on the pivot tile. Every
// stored value is at most the matrix's unreachable value U, and 2U fits the element type.
template <class Matrix>
void min_plus_tile(Matrix& d, int i0, int i1, int j0, int j1, int k0, int k1) {
  using T = typename Matrix::Element;
  const int n = d.n();
  T* base = d.data();
  for (int k = k0; k < k1; ++k) {
    const T* bk = base + static_cast<size_t>(k) * n;
    for (int i = i0; i < i1; ++i) {
      T* ci = base + static_cast<size_t>(i) * n;
      const T a = ci[k];
      if (a >= Matrix::kUnreachable) continue;
      for (int j = j0; j < j1; ++j) ci[j] = std::min(ci[j], a + bk[j]);
    }
  }
}

template <class Matrix>
void blocked(Matrix& d, int threads, const RoundCallback& after_round) {
  const int n = d.n();
  const int tiles = (n + kTile - 1) / kTile;
  auto lo = [](int t) { return t * kTile; };
  auto hi = [n](int t) { return std::min(n, (t + 1) * kTile); };
  for (int kt = 0; kt < tiles; ++kt) {
    const int k0 = lo(kt), k1 = hi(kt);
    min_plus_tile(d, k0, k1, k0, k1, k0, k1);
    // Phase 2: the pivot row and pivot column, 2 * (tiles - 1) independent tiles.
    parallel_for(2 * tiles, threads, [&](int t) {
      const int other = t / 2;
      if (other == kt) return;
      if (t % 2 == 0)
        min_plus_tile(d, k0, k1, lo(other), hi(other), k0, k1);
      else
        min_plus_tile(d, lo(other), hi(other), k0, k1, k0, k1);
    });
    // Phase 3: every other tile, one band of rows per task.
    parallel_for(tiles, threads, [&](int it) {
      if (it == kt) return;
      for (int jt = 0; jt < tiles; ++jt) {
        if (jt != kt) min_plus_tile(d, lo(it), hi(it), lo(jt), hi(jt), k0, k1);
      }
    });
    if (after_round) after_round(kt + 1, tiles);
  }
}

template <class Matrix>
void plain(Matrix& d) {
  const int n = d.n();
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) d.at(i, j) = std::min(d.at(i, j), d.at(i, k) + d.at(k, j));
}

// Distances in int64 (exact for any graph of int32 weights), stored as Matrix's elements: at
// most its unreachable value.
template <class Matrix>
Matrix dijkstra(const EdgeList& g) {
  using T = typename Matrix::Element;
  constexpr int64_t kUnreachable = Matrix::kUnreachable;
  const int n = g.num_vertices;
  std::vector<std::vector<std::pair<int, int32_t>>> adj(n);
  for (const Edge& e : g.edges) adj[e.src].emplace_back(e.dst, e.w);
  Matrix d(n);
  using Item = std::pair<int64_t, int>;
  for (int s = 0; s < n; ++s) {
    std::vector<int64_t> dist(n, kUnreachable);
    std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
    dist[s] = 0;
    heap.emplace(0, s);
    while (!heap.empty()) {
      auto [du, u] = heap.top();
      heap.pop();
      if (du != dist[u]) continue;
      for (auto [v, w] : adj[u]) {
        if (du + w < dist[v]) {
          dist[v] = du + w;
          heap.emplace(dist[v], v);
        }
      }
    }
    for (int v = 0; v < n; ++v) d.at(s, v) = static_cast<T>(std::min(dist[v], kUnreachable));
  }
  return d;
}

}  // namespace

void floyd_warshall_blocked(DistMatrix& d, int threads, const RoundCallback& after_round) {
  blocked(d, threads, after_round);
}

void floyd_warshall_blocked(DistMatrix64& d, int threads, const RoundCallback& after_round) {
  blocked(d, threads, after_round);
}

void floyd_warshall_plain(DistMatrix& d) { plain(d); }

void floyd_warshall_plain(DistMatrix64& d) { plain(d); }

DistMatrix dijkstra_all_pairs(const EdgeList& g) { return dijkstra<DistMatrix>(g); }

DistMatrix64 dijkstra_all_pairs64(const EdgeList& g) { return dijkstra<DistMatrix64>(g); }

DistMatrix solve_reference(const EdgeList& graph, int threads) {
  DistMatrix d = DistMatrix::from_edges(graph);
  floyd_warshall_blocked(d, threads);
  return d;
}

DistMatrix64 solve_reference64(const EdgeList& graph, int threads) {
  DistMatrix64 d = DistMatrix64::from_edges(graph);
  floyd_warshall_blocked(d, threads);
  return d;
}

}  // namespace apsp
