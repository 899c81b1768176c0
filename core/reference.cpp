#include "core/reference.hpp"

#include <algorithm>
#include <barrier>
#include <cmath>
#include <functional>
#include <limits>
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

namespace {

// Step k of row i; pk: row k of pred (or null).
inline void scipy_order_row(double* di, const double* dk, int n, int k, int32_t* pi,
                            const int32_t* pk) {
  const double dik = di[k];
  if (dik == std::numeric_limits<double>::infinity()) return;
  for (int j = 0; j < n; ++j) {
    const double through = dik + dk[j];
    if (through < di[j]) {
      di[j] = through;
      if (pi) pi[j] = pk[j];
    }
  }
}

}  // namespace

void floyd_warshall_scipy_order(double* d, int n, int32_t* pred, int threads) {
  const auto row = [&](double* m, int i) { return m + static_cast<size_t>(i) * n; };
  const auto prow = [&](int i) { return pred ? pred + static_cast<size_t>(i) * n : nullptr; };
  if (pred) {
    parallel_for(n, threads, [&](int i) {
      for (int j = 0; j < n; ++j)
        prow(i)[j] = i != j && std::isfinite(row(d, i)[j]) ? i : kScipyNoPredecessor;
    });
  }
  if (threads <= 0) threads = hardware_threads();
  threads = std::clamp(threads, 1, std::max(n, 1));
  // One pool for every step, a barrier between steps (n steps of parallel_for would start n
  // times `threads` threads). Whether the next step runs in order is decided once all threads
  // are done with this one (the barrier's completion), so no thread reads what another writes.
  const auto negative_at = [&](int k) { return k < n && row(d, k)[k] < 0; };
  bool in_order = negative_at(0);
  int step = 0;
  std::barrier step_done(threads, [&]() noexcept { in_order = negative_at(++step); });
  parallel_for(threads, threads, [&](int t) {
    const int first = static_cast<int>(int64_t{n} * t / threads),
              last = static_cast<int>(int64_t{n} * (t + 1) / threads);
    for (int k = 0; k < n; ++k) {
      const double* dk = row(d, k);
      if (!in_order) {
        for (int i = first; i < last; ++i) scipy_order_row(row(d, i), dk, n, k, prow(i), prow(k));
      } else if (t == 0) {  // a negative cycle: every row, in order, as SciPy's loop takes them
        for (int i = 0; i < n; ++i) scipy_order_row(row(d, i), dk, n, k, prow(i), prow(k));
      }
      step_done.arrive_and_wait();
    }
  });
}

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
