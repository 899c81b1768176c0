#include "harness/verify/certificate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <limits>

#include "core/parallel.hpp"
#include "harness/verify/edge_groups.hpp"

namespace apsp::harness {

InEdges InEdges::of(const EdgeList& graph) {
  InEdges g;
  g.n = graph.num_vertices;
  EdgeGroups in = group_edges(graph, GroupBy::kDestination);
  g.start = std::move(in.start);
  g.from = std::move(in.other);
  g.weight = std::move(in.weight);
  for (const Edge& e : graph.edges)
    if (e.w == 0 && e.src != e.dst) g.zero.push_back(e);
  return g;
}

InEdges rank_in_edges(const InEdges& g, int first, int count) {
  InEdges part;
  part.n = g.n;
  part.start.assign(static_cast<size_t>(g.n) + 1, 0);
  for (int v = 0; v < g.n; ++v) {
    for (int64_t e = g.start[v]; e < g.start[v + 1]; ++e) {
      if (g.from[e] < first || g.from[e] >= first + count) continue;
      part.from.push_back(g.from[e]);
      part.weight.push_back(g.weight[e]);
    }
    part.start[v + 1] = static_cast<int64_t>(part.from.size());
  }
  part.zero = g.zero;
  return part;
}

InEdges join_in_edges(const std::vector<InEdges>& parts, const std::vector<Edge>& zero) {
  InEdges g;
  g.n = parts.empty() ? 0 : parts.front().n;
  size_t total = 0;
  for (const InEdges& p : parts) total += p.from.size();
  g.start.assign(static_cast<size_t>(g.n) + 1, 0);
  g.from.reserve(total);
  g.weight.reserve(total);
  for (int v = 0; v < g.n; ++v) {
    for (const InEdges& p : parts) {
      g.from.insert(g.from.end(), p.from.begin() + p.start[v], p.from.begin() + p.start[v + 1]);
      g.weight.insert(g.weight.end(), p.weight.begin() + p.start[v],
                      p.weight.begin() + p.start[v + 1]);
    }
    g.start[v + 1] = static_cast<int64_t>(g.from.size());
  }
  g.zero = zero;
  return g;
}

namespace {

// The lowest fault of row s over g (the rules 1 to 3), as (v, fault); v = -1 when the row is
// right. Every entry is looked at (a fault does not stop the scan), so that an ungrounded entry
// before the first relaxed one is the one reported, as on the device.
template <class T>
std::pair<int, Fault> certify_row(BasicMatrixView<T> d, const InEdges& g, int s,
                                  std::vector<char>& grounded) {
  constexpr T kUnreachable = kUnreachableOf<T>;
  const T* row = d.row(s);
  std::pair<int, Fault> first{-1, Fault::kNone};
  auto found = [&](int v, Fault f) {
    if (first.first < 0) first = {v, f};
  };
  for (int v = 0; v < g.n; ++v) {
    grounded[v] = 0;
    if (row[v] < 0 || row[v] > kUnreachable) {
      found(v, Fault::kRange);
      continue;
    }
    if (v == s && row[v] != 0) {
      found(v, Fault::kDiagonal);
      continue;
    }
    bool positive_tight = false, relaxed = false;
    for (int64_t e = g.start[v]; e < g.start[v + 1] && !relaxed; ++e) {
      const T du = row[g.from[e]];
      if (du < 0 || du >= kUnreachable) continue;  // a fault of its own entry, or unreachable
      const int64_t via = int64_t{du} + g.weight[e];
      relaxed = via < row[v];
      positive_tight |= via == row[v] && g.weight[e] > 0;
    }
    if (relaxed) found(v, Fault::kRelaxed);
    grounded[v] = !relaxed && (v == s || positive_tight);
  }
  // Along tight zero-weight edges, until nothing changes (as many passes as the longest chain).
  for (bool changed = true; changed;) {
    changed = false;
    for (const Edge& e : g.zero) {
      if (!grounded[e.dst] && grounded[e.src] && row[e.src] == row[e.dst] &&
          row[e.dst] < kUnreachable) {
        grounded[e.dst] = 1;
        changed = true;
      }
    }
  }
  const int end = first.first < 0 ? g.n : first.first;
  for (int v = 0; v < end; ++v)
    if (row[v] < kUnreachable && !grounded[v]) return {v, Fault::kUngrounded};
  return first;
}

// The first pass's verdict on edge u -> v (u != v) of weight w: the fault it shows, if any.
template <class T>
Fault edge_fault(BasicMatrixView<T> d, int u, int v, int32_t w) {
  const T duv = d.row(u)[v];
  if (d.row(u)[u] != 0) return Fault::kDiagonal;  // reported at (u, u)
  if (duv < 0 || duv > kUnreachableOf<T>) return Fault::kRange;
  return duv > w ? Fault::kRelaxed : Fault::kNone;
}

void keep_lowest(std::atomic<uint64_t>& first, uint64_t key) {
  uint64_t seen = first.load();
  while (key < seen && !first.compare_exchange_weak(seen, key)) {
  }
}

// The lowest fault of the rows over g, found by all threads; a thread skips rows past the
// lowest faulty row found so far, so the result does not depend on the thread count.
template <class T>
uint64_t certify_rows(BasicMatrixView<T> d, const InEdges& g, int threads) {
  std::atomic<uint64_t> first{kNoFault};
  parallel_for(g.n, threads, [&](int s) {
    if (fault_key(s, 0, g.n, Fault::kNone) > first.load()) return;
    thread_local std::vector<char> grounded;
    grounded.assign(static_cast<size_t>(g.n), 0);
    const auto [v, f] = certify_row(d, g, s, grounded);
    if (v >= 0) keep_lowest(first, fault_key(s, v, g.n, f));
  });
  return first.load();
}

}  // namespace

template <class T>
std::string describe_fault(const T* row, const InEdges& g, int s, int v, Fault f) {
  constexpr T kUnreachable = kUnreachableOf<T>;
  const std::string entry = fmt::format("d[{}][{}] = {}", s, v, row[v]);
  switch (f) {
    case Fault::kNone:
      return "";
    case Fault::kDiagonal:
      return entry + ": a vertex's distance to itself must be 0";
    case Fault::kRange:
      return fmt::format("{}: outside [0, {}]", entry, kUnreachable);
    case Fault::kRelaxed:
      for (int64_t e = g.start[v]; e < g.start[v + 1]; ++e) {
        const int64_t du = row[g.from[e]];
        if (du >= 0 && du < kUnreachable && du + g.weight[e] < row[v]) {
          return fmt::format("{}: an edge relaxes it (d[{}][{}] + w({} -> {}) = {})", entry, s,
                             g.from[e], g.from[e], v, du + g.weight[e]);
        }
      }
      return entry + ": an edge relaxes it";
    case Fault::kUngrounded:
      return entry +
             ": no path of tight edges reaches it from the source (too small, e.g. on a "
             "zero-weight cycle)";
  }
  return "";
}

template <class T>
Essential essential_edges(BasicMatrixView<T> d, const InEdges& g, int threads) {
  Essential out;
  InEdges& kept = out.graph;
  kept.n = g.n;
  kept.start.assign(static_cast<size_t>(g.n) + 1, 0);
  std::atomic<uint64_t> first{kNoFault};
  auto essential = [&](int64_t e, int v) {
    return g.from[e] != v && d.row(g.from[e])[v] == g.weight[e];
  };
  parallel_for(g.n, threads, [&](int v) {  // count a column's essential in-edges; the faults
    int64_t count = 0;
    for (int64_t e = g.start[v]; e < g.start[v + 1]; ++e) {
      const int u = g.from[e];
      if (u == v) continue;  // a self loop never shortens d[u][u] = 0
      const Fault f = edge_fault(d, u, v, g.weight[e]);
      if (f != Fault::kNone)
        keep_lowest(first, fault_key(u, f == Fault::kDiagonal ? u : v, g.n, f));
      count += essential(e, v);
    }
    kept.start[static_cast<size_t>(v) + 1] = count;
  });
  out.first_fault = first.load();
  for (int v = 0; v < g.n; ++v) kept.start[v + 1] += kept.start[v];
  kept.from.resize(static_cast<size_t>(kept.start[g.n]));
  kept.weight.resize(kept.from.size());
  parallel_for(g.n, threads, [&](int v) {
    int64_t at = kept.start[v];
    for (int64_t e = g.start[v]; e < g.start[v + 1]; ++e) {
      if (!essential(e, v)) continue;
      kept.from[at] = g.from[e];
      kept.weight[at++] = g.weight[e];
    }
  });
  kept.zero = g.zero;
  return out;
}

template <class T>
std::string certify_host(BasicMatrixView<T> d, const InEdges& g, int threads) {
  const Essential reduced = essential_edges(d, g, threads);
  uint64_t first = reduced.first_fault;
  if (first == kNoFault) first = certify_rows(d, reduced.graph, threads);
  if (first == kNoFault) return "";
  const FaultAt at = decode_fault(first, g.n);
  return describe_fault(d.row(at.s), g, at.s, at.v, at.fault);
}

template std::string describe_fault(const int32_t*, const InEdges&, int, int, Fault);
template std::string describe_fault(const int64_t*, const InEdges&, int, int, Fault);
template Essential essential_edges(MatrixView, const InEdges&, int);
template Essential essential_edges(MatrixView64, const InEdges&, int);
template std::string certify_host(MatrixView, const InEdges&, int);
template std::string certify_host(MatrixView64, const InEdges&, int);

}  // namespace apsp::harness
