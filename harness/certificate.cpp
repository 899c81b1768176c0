#include "harness/certificate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <limits>

#include "core/parallel.hpp"
#include "harness/edge_groups.hpp"

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

namespace {

// The first fault of row s, as (v, fault); v = -1 when the row is right.
std::pair<int, Fault> certify_row(MatrixView d, const InEdges& g, int s, std::vector<char>& grounded) {
  const int32_t* row = d.row(s);
  if (row[s] != 0) return {s, Fault::kDiagonal};
  for (int v = 0; v < g.n; ++v) {
    if (row[v] < 0 || row[v] > kInf) return {v, Fault::kRange};
    bool positive_tight = false;
    for (int64_t e = g.start[v]; e < g.start[v + 1]; ++e) {
      const int32_t du = row[g.from[e]];
      if (du < 0 || du >= kInf) continue;  // a fault of its own entry, or unreachable
      const int64_t via = int64_t{du} + g.weight[e];
      if (via < row[v]) return {v, Fault::kRelaxed};
      positive_tight |= via == row[v] && g.weight[e] > 0;
    }
    grounded[v] = v == s || positive_tight;
  }
  // Along tight zero-weight edges, until nothing changes (as many passes as the longest chain).
  for (bool changed = true; changed;) {
    changed = false;
    for (const Edge& e : g.zero) {
      if (!grounded[e.dst] && grounded[e.src] && row[e.src] == row[e.dst] && row[e.dst] < kInf) {
        grounded[e.dst] = 1;
        changed = true;
      }
    }
  }
  for (int v = 0; v < g.n; ++v)
    if (row[v] < kInf && !grounded[v]) return {v, Fault::kUngrounded};
  return {-1, Fault::kNone};
}

}  // namespace

std::string describe_fault(const int32_t* row, const InEdges& g, int s, int v, Fault f) {
  const std::string entry = fmt::format("d[{}][{}] = {}", s, v, row[v]);
  switch (f) {
    case Fault::kNone: return "";
    case Fault::kDiagonal: return entry + ": a vertex's distance to itself must be 0";
    case Fault::kRange: return fmt::format("{}: outside [0, {}]", entry, kInf);
    case Fault::kRelaxed:
      for (int64_t e = g.start[v]; e < g.start[v + 1]; ++e) {
        const int32_t du = row[g.from[e]];
        if (du >= 0 && du < kInf && int64_t{du} + g.weight[e] < row[v]) {
          return fmt::format("{}: an edge relaxes it (d[{}][{}] + w({} -> {}) = {})", entry, s, g.from[e], g.from[e], v,
                             int64_t{du} + g.weight[e]);
        }
      }
      return entry + ": an edge relaxes it";
    case Fault::kUngrounded:
      return entry + ": no path of tight edges reaches it from the source (too small, e.g. on a zero-weight cycle)";
  }
  return "";
}

std::string certify_host(MatrixView d, const InEdges& g, int threads) {
  // The lowest faulty row wins, whichever thread finds it, so the message does not depend on
  // the thread count.
  std::atomic<int> first_row{std::numeric_limits<int>::max()};
  std::vector<std::pair<int, Fault>> faults(static_cast<size_t>(g.n), {-1, Fault::kNone});
  parallel_for(g.n, threads, [&](int s) {
    if (s > first_row.load()) return;
    thread_local std::vector<char> grounded;
    grounded.assign(static_cast<size_t>(g.n), 0);
    faults[s] = certify_row(d, g, s, grounded);
    if (faults[s].first >= 0) {
      int seen = first_row.load();
      while (s < seen && !first_row.compare_exchange_weak(seen, s)) {
      }
    }
  });
  const int s = first_row.load();
  if (s == std::numeric_limits<int>::max()) return "";
  return describe_fault(d.row(s), g, s, faults[s].first, faults[s].second);
}

}  // namespace apsp::harness
