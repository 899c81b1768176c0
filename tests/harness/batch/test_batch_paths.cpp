// The batch's paths on the host (kernels/batch_paths.cuh's rule, harness/batch): against a
// brute-force enumeration of every simple path of small random graphs with ties, zero weights,
// duplicate edges, self loops and unreachable pairs; the same predecessors as the single-graph
// solver's (predecessors_host); the same in every layout and whichever outputs are asked; and
// the refusals before any work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/dist_matrix.hpp"
#include "harness/batch/batch_solve.hpp"
#include "harness/solve/paths.hpp"
#include "tests/harness/batch/plan_fault.hpp"
#include "tests/support/graph_batch_cases.hpp"

namespace apsp::harness {
namespace {

// One graph's solve as the tests read it back: distances in int64 (-1: no path), predecessors,
// and edge paths (global edge ids), each n x n (x max_dist).
struct GraphPaths {
  int n = 0;
  std::vector<int64_t> dist;
  std::vector<int16_t> pred;
  std::vector<int32_t> edges;
};

struct Solved {
  std::vector<GraphPaths> graphs;
  int max_dist = 0;
};

template <class T>
int64_t entry(const std::vector<char>& bytes, int64_t at) {
  return reinterpret_cast<const T*>(bytes.data())[at];
}

// The batch through plan_batch and run_batch with unreachable -1, read back graph by graph.
Solved solve(const GraphBatch& b, int max_dist, bool padded, bool predecessors = true) {
  BatchRequest r;
  r.graphs = b.view();
  r.edges = static_cast<int64_t>(b.src.size());
  r.unreachable = -1;
  r.max_dist = max_dist;
  r.threads = 2;
  if (padded) r.padded_n = 0;
  const BatchPlan p = plan_batch(r);
  std::vector<char> dist(p.elements * bytes_of(p.out.type));
  std::vector<int16_t> pred(p.elements, 7);
  std::vector<int32_t> edges(p.elements * max_dist, 7);
  run_batch(r, p, dist.data(),
            {predecessors ? pred.data() : nullptr, max_dist > 0 ? edges.data() : nullptr});
  Solved s{{}, max_dist};
  for (int64_t g = 0; g < b.graphs(); ++g) {
    GraphPaths gp;
    gp.n = static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]);
    const int pitch = padded ? p.out.padded_n : gp.n;
    const int64_t base = padded ? g * pitch * pitch : p.host_offsets[g];
    for (int i = 0; i < pitch; ++i) {
      for (int j = 0; j < pitch; ++j) {
        const int64_t at = base + int64_t{i} * pitch + j;
        const bool inside = i < gp.n && j < gp.n;
        if (!inside) {  // the padding: -1 in the paths
          if (predecessors) {
            EXPECT_EQ(pred[at], -1);
          }
          for (int h = 0; h < max_dist; ++h) EXPECT_EQ(edges[at * max_dist + h], -1);
          continue;
        }
        gp.dist.push_back(p.out.type == BatchDistType::kU8    ? entry<uint8_t>(dist, at)
                          : p.out.type == BatchDistType::kI16 ? entry<int16_t>(dist, at)
                                                              : entry<int32_t>(dist, at));
        if (predecessors) gp.pred.push_back(pred[at]);
        for (int h = 0; h < max_dist; ++h) gp.edges.push_back(edges[at * max_dist + h]);
      }
    }
    s.graphs.push_back(std::move(gp));
  }
  return s;
}

// Every simple path's vertices from s to t over the lightest parallel edges (w[u][v], -1: none).
void simple_paths(const std::vector<std::vector<int64_t>>& w, int t, std::vector<int>& path,
                  std::vector<bool>& on, std::vector<std::vector<int>>& out) {
  const int u = path.back();
  if (u == t) {
    out.push_back(path);
    return;
  }
  for (int v = 0; v < static_cast<int>(w.size()); ++v) {
    if (w[u][v] < 0 || on[v]) continue;
    on[v] = true;
    path.push_back(v);
    simple_paths(w, t, path, on, out);
    path.pop_back();
    on[v] = false;
  }
}

// Graph g of b: its lightest u -> v weights (self loops left out) and lowest such edge id.
struct Lightest {
  std::vector<std::vector<int64_t>> weight;
  std::vector<std::vector<int64_t>> id;
};

Lightest lightest_edges(const GraphBatch& b, int64_t g) {
  const int n = static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]);
  Lightest l{std::vector<std::vector<int64_t>>(n, std::vector<int64_t>(n, -1)), {}};
  l.id = l.weight;
  for (int64_t e = b.edge_ptr[g]; e < b.edge_ptr[g + 1]; ++e) {
    const int u = static_cast<int>(b.src[e] - b.vertex_ptr[g]);
    const int v = static_cast<int>(b.dst[e] - b.vertex_ptr[g]);
    const int64_t w = b.weighted ? b.weight[e] : 1;
    if (u == v || (l.weight[u][v] >= 0 && l.weight[u][v] <= w)) continue;
    l.weight[u][v] = w;
    l.id[u][v] = e;
  }
  return l;
}

int64_t path_weight(const Lightest& l, const std::vector<int>& path) {
  int64_t sum = 0;
  for (size_t k = 0; k + 1 < path.size(); ++k) sum += l.weight[path[k]][path[k + 1]];
  return sum;
}

// Graph g's results against every simple path: the distances are the lightest paths', the
// predecessors walk back along a shortest simple path, the edges are its lightest edges (the
// lowest id among equals), its first max_dist, -1 after. Where every weight is positive, the
// predecessor is also the smallest last-but-one vertex of any shortest path. Returns the pairs
// checked.
int check_graph(const GraphBatch& b, int64_t g, const GraphPaths& gp, int max_dist, bool positive) {
  const Lightest l = lightest_edges(b, g);
  const int n = gp.n;
  int pairs = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      std::vector<std::vector<int>> all;
      std::vector<int> path{i};
      std::vector<bool> on(n, false);
      on[i] = true;
      simple_paths(l.weight, j, path, on, all);
      int64_t best = -1;
      for (const auto& p : all) {
        if (best < 0 || path_weight(l, p) < best) best = path_weight(l, p);
      }
      const int64_t at = int64_t{i} * n + j;
      EXPECT_EQ(gp.dist[at], best) << "graph " << g << " d[" << i << "][" << j << "]";
      std::vector<int> walk{j};  // back along the predecessors
      while (walk.back() != i && gp.pred[int64_t{i} * n + walk.back()] >= 0 &&
             static_cast<int>(walk.size()) <= n) {
        walk.push_back(gp.pred[int64_t{i} * n + walk.back()]);
      }
      std::reverse(walk.begin(), walk.end());
      std::vector<int32_t> want(max_dist, -1);
      if (i == j || best < 0) {
        EXPECT_EQ(gp.pred[at], -1) << "graph " << g << " pred[" << i << "][" << j << "]";
      } else {
        EXPECT_EQ(walk.front(), i) << "graph " << g << ": pred from " << j << " misses " << i;
        if (walk.front() != i) continue;
        EXPECT_NE(std::find(all.begin(), all.end(), walk), all.end()) << "not a simple path";
        EXPECT_EQ(path_weight(l, walk), best) << "graph " << g << " " << i << " -> " << j;
        for (size_t k = 0; k + 1 < walk.size() && static_cast<int>(k) < max_dist; ++k) {
          want[k] = static_cast<int32_t>(l.id[walk[k]][walk[k + 1]]);
        }
        int smallest = n;
        for (const auto& p : all) {
          if (path_weight(l, p) == best) smallest = std::min(smallest, p[p.size() - 2]);
        }
        if (positive) {
          EXPECT_EQ(gp.pred[at], smallest) << "graph " << g << " " << i << "->" << j;
        }
      }
      const std::vector<int32_t> got(gp.edges.begin() + at * max_dist,
                                     gp.edges.begin() + (at + 1) * max_dist);
      EXPECT_EQ(got, want) << "graph " << g << " edges " << i << " -> " << j;
      ++pairs;
    }
  }
  return pairs;
}

// Small graphs whose every simple path can be listed: weights 0..max_w (0 excluded when
// `positive`), duplicates, self loops and isolated vertices (random_small_graph's), plus dense
// ones with many ties.
GraphBatch small_batch(int max_w, bool positive, bool weighted, unsigned seed) {
  std::mt19937 rng(seed);
  GraphBatch b;
  b.weighted = weighted;
  for (int k = 0; k < 60; ++k) {
    EdgeList g = test::random_small_graph(k % 8, max_w, rng);
    if (k % 3 == 0) {  // dense: ties everywhere
      for (int u = 0; u < g.num_vertices; ++u)
        for (int v = 0; v < g.num_vertices; ++v)
          if ((u * 7 + v * 3 + k) % 4 == 0) g.edges.push_back({u, v, (u + v + k) % (max_w + 1)});
    }
    if (positive)
      for (Edge& e : g.edges) e.w = std::max(e.w, 1);
    b.add(g);
  }
  return b;
}

TEST(BatchPaths, MatchEveryShortestSimplePath) {
  struct Kind {
    int max_w;
    bool positive, weighted;
  };
  int pairs = 0;
  for (const Kind k :
       {Kind{2, false, true}, Kind{3, true, true}, Kind{1, true, false}, Kind{1, false, true}}) {
    for (const int max_dist : {1, 3, 7}) {
      const GraphBatch b = small_batch(k.max_w, k.positive, k.weighted, 40 + k.max_w + max_dist);
      const Solved s = solve(b, max_dist, max_dist == 3);
      for (int64_t g = 0; g < b.graphs(); ++g) {
        pairs += check_graph(b, g, s.graphs[g], max_dist, k.positive);
      }
    }
  }
  EXPECT_GT(pairs, 10000);
}

// The predecessors are the single-graph solver's (apsp_lab.floyd_warshall's integer path), bit
// for bit, zero-weight cycles included.
TEST(BatchPaths, PredecessorsAreTheSingleGraphSolvers) {
  const GraphBatch b = test::mixed_batch(130, 3, true, 17);
  const Solved s = solve(b, 0, false);
  for (int64_t g = 0; g < b.graphs(); ++g) {
    const GraphPaths& gp = s.graphs[g];
    std::vector<int32_t> d(gp.dist.size()), want(gp.dist.size());
    std::transform(gp.dist.begin(), gp.dist.end(), d.begin(),
                   [](int64_t v) { return v < 0 ? kInf : static_cast<int32_t>(v); });
    if (gp.n > 0) predecessors_host(MatrixView{gp.n, d.data()}, b.graph(g), want.data(), 1);
    EXPECT_TRUE(std::equal(want.begin(), want.end(), gp.pred.begin())) << "graph " << g;
  }
}

// Ragged or padded, with or without the predecessors: the same paths.
TEST(BatchPaths, SameInEveryLayout) {
  const GraphBatch b = test::mixed_batch(80, 2, true, 18);
  const Solved ragged = solve(b, 4, false);
  const Solved padded = solve(b, 4, true);
  const Solved edges_only = solve(b, 4, false, false);
  for (int64_t g = 0; g < b.graphs(); ++g) {
    EXPECT_EQ(ragged.graphs[g].pred, padded.graphs[g].pred) << g;
    EXPECT_EQ(ragged.graphs[g].edges, padded.graphs[g].edges) << g;
    EXPECT_EQ(ragged.graphs[g].edges, edges_only.graphs[g].edges) << g;
  }
}

// Hop distances: a path has as many edges as its distance, each from its graph.
TEST(BatchPaths, HopPathsHaveTheirDistanceInEdges) {
  const GraphBatch b = test::mixed_batch(255, 1, false, 19);
  const int max_dist = 6;
  const Solved s = solve(b, max_dist, false);
  for (int64_t g = 0; g < b.graphs(); ++g) {
    const GraphPaths& gp = s.graphs[g];
    for (int64_t at = 0; at < int64_t{gp.n} * gp.n; ++at) {
      const int64_t d = gp.dist[at];
      for (int h = 0; h < max_dist; ++h) {
        const int32_t e = gp.edges[at * max_dist + h];
        EXPECT_EQ(e >= 0, d > h) << "graph " << g << " pair " << at << " hop " << h;
        if (e >= 0) {
          EXPECT_TRUE(e >= b.edge_ptr[g] && e < b.edge_ptr[g + 1]);
        }
      }
    }
  }
}

TEST(BatchPaths, RefusedBeforeAnyWork) {
  const GraphBatch b = test::mixed_batch(40, 2, true, 20);
  BatchRequest r;
  r.graphs = b.view();
  r.edges = static_cast<int64_t>(b.src.size());
  for (const int bad : {-1, kMaxBatchGraphVertices}) {
    r.max_dist = bad;
    EXPECT_NE(plan_fault(r).find("max_dist must lie in 1..511"), std::string::npos) << bad;
  }
  r.max_dist = kMaxBatchGraphVertices - 1;
  EXPECT_EQ(plan_fault(r), "");
  r.max_dist = 0;
  const BatchPlan p = plan_batch(r);
  std::vector<char> dist(p.elements * bytes_of(p.out.type));
  std::vector<int32_t> edges(p.elements);
  EXPECT_THROW(run_batch(r, p, dist.data(), {nullptr, edges.data()}), std::invalid_argument);
}

}  // namespace
}  // namespace apsp::harness
