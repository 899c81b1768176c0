// The next hops on the host (harness/solve/paths.hpp has the rule): the reference the device's
// matrix must equal, and what apsp uses when it solved on the CPU.
#include "harness/solve/paths.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <stdexcept>

#include "core/parallel.hpp"

namespace apsp::harness {

namespace {
OutEdges out_edges(const EdgeList& graph, GroupBy by) {
  OutEdges g;
  g.n = graph.num_vertices;
  g.all = group_edges(graph, by, [](const Edge& e) { return e.src != e.dst; });
  g.zero = group_edges(graph, by, [](const Edge& e) { return e.src != e.dst && e.w == 0; });
  for (int v = 0; v < g.n; ++v)
    if (g.zero.start[v + 1] > g.zero.start[v]) g.zero_sources.push_back(v);
  return g;
}
}  // namespace

OutEdges OutEdges::of(const EdgeList& graph) { return out_edges(graph, GroupBy::kSource); }

OutEdges OutEdges::of_reversed(const EdgeList& graph) {
  return out_edges(graph, GroupBy::kDestination);
}

namespace {

// A hop chosen in the current round: open to the entry's own row, not yet settled for the rows
// that read it (those need a hop of an earlier round). kNoHop and these are all negative.
constexpr int32_t pending(int32_t k) { return -2 - k; }
// Smaller as unsigned: kNoHop (0xFFFFFFFF) is larger than any vertex.
bool smaller(int32_t k, int32_t than) {
  return static_cast<uint32_t>(k) < static_cast<uint32_t>(than);
}

// Round 0 of row i.
template <class T>
void first_round(BasicMatrixView<T> d, const OutEdges& g, int i, int32_t* hop) {
  const int n = d.n;
  const T* di = d.row(i);
  std::fill(hop, hop + n, kNoHop);
  for (int64_t e = g.all.start[i]; e < g.all.start[i + 1]; ++e) {
    const int k = g.all.other[e];
    const int32_t w = g.all.weight[e];
    if (w != di[k]) continue;  // not the lightest way to k: no shortest path starts with it
    if (w == 0) {              // ends at once only where k is the target
      if (smaller(k, hop[k])) hop[k] = k;
      continue;
    }
    const T* dk = d.row(k);
    for (int j = 0; j < n; ++j)
      if (di[j] < kUnreachableOf<T> && w + dk[j] == di[j] && smaller(k, hop[j])) hop[j] = k;
  }
}

// Round r > 0 of row i: returns whether it chose a hop. Other rows' entries are read while their
// threads write them, hence atomic_ref (relaxed: an entry that turns from open to pending stays
// unsettled either way, so what is read does not change the choice).
template <class T>
bool zero_round(BasicMatrixView<T> d, const OutEdges& g, int i, int32_t* next) {
  const int n = d.n;
  const T* di = d.row(i);
  int32_t* hop = next + static_cast<size_t>(i) * n;
  bool chose = false;
  for (int64_t e = g.zero.start[i]; e < g.zero.start[i + 1]; ++e) {
    const int k = g.zero.other[e];
    const T* dk = d.row(k);
    int32_t* hop_k = next + static_cast<size_t>(k) * n;
    for (int j = 0; j < n; ++j) {
      std::atomic_ref<int32_t> mine(hop[j]);
      const int32_t now = mine.load(std::memory_order_relaxed);
      if (now >= 0 || j == i || di[j] >= kUnreachableOf<T> || dk[j] != di[j]) continue;
      if (now != kNoHop && -2 - now < k) continue;  // a smaller k already chosen this round
      if (std::atomic_ref<int32_t>(hop_k[j]).load(std::memory_order_relaxed) < 0) continue;
      mine.store(pending(k), std::memory_order_relaxed);
      chose = true;
    }
  }
  return chose;
}

// Settles row i's pending hops; returns how many finite entries it still has open.
template <class T>
int64_t settle(BasicMatrixView<T> d, int i, int32_t* hop) {
  const T* di = d.row(i);
  int64_t open = 0;
  for (int j = 0; j < d.n; ++j) {
    if (hop[j] <= -2) hop[j] = -2 - hop[j];
    open += hop[j] == kNoHop && j != i && di[j] < kUnreachableOf<T>;
  }
  return open;
}

// The fault of the lowest entry left open in row i.
template <class T>
std::string row_fault(BasicMatrixView<T> d, const int32_t* next, int i) {
  const int32_t* hop = next + static_cast<size_t>(i) * d.n;
  for (int j = 0; j < d.n; ++j)
    if (hop[j] == kNoHop && j != i && d.row(i)[j] < kUnreachableOf<T>)
      return open_entry_fault(i, j, d.row(i)[j]);
  return "";
}

}  // namespace

std::string open_entry_fault(int i, int j, int64_t dij) {
  return fmt::format(
      "d[{0}][{1}] = {2}: no edge out of {0} starts a shortest path to {1} whose hops end there "
      "(not this graph's distance matrix)",
      i, j, dij);
}

template <class T>
void next_hops_host(BasicMatrixView<T> d, const OutEdges& g, int32_t* next, int threads) {
  const int n = d.n;
  std::vector<int64_t> open(static_cast<size_t>(n));
  parallel_for(n, threads, [&](int i) {
    first_round(d, g, i, next + static_cast<size_t>(i) * n);
    open[i] = settle(d, i, next + static_cast<size_t>(i) * n);
  });
  std::vector<int> rows;  // the rows with entries still open, in order
  for (int i = 0; i < n; ++i)
    if (open[i] > 0) rows.push_back(i);
  while (!rows.empty()) {
    std::atomic<bool> chose{false};
    parallel_for(static_cast<int>(rows.size()), threads, [&](int r) {
      if (zero_round(d, g, rows[r], next)) chose = true;
    });
    if (!chose) throw std::runtime_error(row_fault(d, next, rows.front()));
    parallel_for(static_cast<int>(rows.size()), threads, [&](int r) {
      open[rows[r]] = settle(d, rows[r], next + static_cast<size_t>(rows[r]) * n);
    });
    std::erase_if(rows, [&](int i) { return open[i] == 0; });
  }
}

template void next_hops_host(MatrixView, const OutEdges&, int32_t*, int);
template void next_hops_host(MatrixView64, const OutEdges&, int32_t*, int);

// out[j][i] = in[i][j], n x n, in 64 x 64 blocks (each read and written a cache line at a time).
void transpose_host(const int32_t* in, int32_t* out, int n, int threads) {
  constexpr int kBlock = 64;
  const int blocks = (n + kBlock - 1) / kBlock;
  parallel_for(blocks, threads, [&](int bi) {
    for (int bj = 0; bj < blocks; ++bj)
      for (int i = bi * kBlock; i < std::min(n, (bi + 1) * kBlock); ++i)
        for (int j = bj * kBlock; j < std::min(n, (bj + 1) * kBlock); ++j)
          out[static_cast<size_t>(j) * n + i] = in[static_cast<size_t>(i) * n + j];
  });
}

void predecessors_host(MatrixView d, const EdgeList& g, int32_t* pred, int threads) {
  const int n = d.n;
  const size_t cells = static_cast<size_t>(n) * n;
  std::unique_ptr<int32_t[]> scratch = std::make_unique_for_overwrite<int32_t[]>(cells);
  transpose_host(d.data, scratch.get(), n, threads);  // the reversed graph's distances
  next_hops_host(MatrixView{n, scratch.get()}, OutEdges::of_reversed(g), pred, threads);
  std::copy_n(pred, cells, scratch.get());
  transpose_host(scratch.get(), pred, n, threads);
}

std::vector<int32_t> follow_hops(const int32_t* column, int n, int s, int t) {
  if (s == t) return {s};
  if (column[s] == kNoHop) return {};
  std::vector<int32_t> path{s};
  for (int v = s; v != t;) {
    v = column[v];
    if (v < 0 || v >= n || static_cast<int64_t>(path.size()) >= n)
      throw std::runtime_error(fmt::format("the next hops from {} to {} do not reach {}", s, t, t));
    path.push_back(v);
  }
  return path;
}

std::string describe_path(int s, int t, const std::vector<int32_t>& path, int64_t length) {
  return describe_path(int64_t{s}, int64_t{t}, std::vector<int64_t>(path.begin(), path.end()),
                       length);
}

std::string describe_path(int64_t s, int64_t t, const std::vector<int64_t>& path, int64_t length) {
  if (path.empty()) return fmt::format("path {} -> {}: unreachable", s, t);
  return fmt::format("path {} -> {}: {} (length {})", s, t, fmt::join(path, " "), length);
}

}  // namespace apsp::harness
