// The next hops on the host (harness/solve/paths.hpp): on hand-made graphs that trap a careless choice
// (zero-weight cycles, duplicate edges, self loops, a zero-weight edge straight to the target,
// unreachable pairs) and on seeded random graphs, every path follows edges, weighs its
// distance, ends, and repeats no vertex; next[i][i] and unreachable entries are -1.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/generators.hpp"
#include "core/reference.hpp"
#include "harness/solve/paths.hpp"

namespace apsp::harness {
namespace {

struct Solved {
  EdgeList graph;
  DistMatrix d;
  std::vector<int32_t> next;
};

Solved solve(EdgeList graph, int threads = 0) {
  DistMatrix d = DistMatrix::from_edges(graph);
  floyd_warshall_blocked(d);
  std::vector<int32_t> next(d.size());
  next_hops_host(d.view(), OutEdges::of(graph), next.data(), threads);
  return {std::move(graph), std::move(d), std::move(next)};
}

// "" when every entry of next is right, else the first fault, in words. Independent of
// follow_hops: it walks the matrix itself, with the lightest weight of each edge.
std::string path_fault(const Solved& s) {
  const int n = s.d.n();
  const DistMatrix lightest = DistMatrix::from_edges(s.graph);  // kInf where no edge
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const int32_t hop = s.next[static_cast<size_t>(i) * n + j];
      const std::string at = "next[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      if (i == j || s.d.at(i, j) == kInf) {
        if (hop != kNoHop) return at + " = " + std::to_string(hop) + ", expected -1";
        continue;
      }
      std::vector<char> seen(n, 0);
      seen[i] = 1;
      int64_t weight = 0;
      for (int v = i; v != j;) {
        const int32_t u = s.next[static_cast<size_t>(v) * n + j];
        if (u < 0 || u >= n)
          return at + ": the walk reaches " + std::to_string(v) + " whose hop is " +
                 std::to_string(u);
        if (u == v || lightest.at(v, u) == kInf)
          return at + ": " + std::to_string(v) + " -> " + std::to_string(u) + " is no edge";
        if (seen[u]) return at + ": the walk repeats " + std::to_string(u);
        seen[u] = 1;
        weight += lightest.at(v, u);
        v = u;
      }
      if (weight != s.d.at(i, j))
        return at + ": the path weighs " + std::to_string(weight) +
               ", d = " + std::to_string(s.d.at(i, j));
    }
  }
  return "";
}

int32_t hop(const Solved& s, int i, int j) { return s.next[static_cast<size_t>(i) * s.d.n() + j]; }

TEST(Paths, AZeroWeightCycleDoesNotTrapTheWalk) {
  // 0 <-> 1 by zero-weight edges; only 1 leaves towards 2. Both 0 -> 1 and 1 -> 0 are tight for
  // target 2, so "smallest tight k" alone would send 1 to 0 and 0 to 1 forever.
  const Solved s = solve({3, {{0, 1, 0}, {1, 0, 0}, {1, 2, 4}}});
  EXPECT_EQ(path_fault(s), "");
  EXPECT_EQ(hop(s, 1, 2), 2);
  EXPECT_EQ(hop(s, 0, 2), 1);
  EXPECT_EQ(hop(s, 0, 1), 1);
  EXPECT_EQ(hop(s, 1, 0), 0);
  EXPECT_EQ(hop(s, 2, 0), kNoHop);
}

TEST(Paths, ALongZeroWeightCycleWithSeveralExits) {
  // A zero-weight cycle 0 -> 1 -> 2 -> 3 -> 0, exits to 4 from 3 (weight 2) and from 1 (weight
  // 2); a zero-weight edge straight to the target (5 -> 4), self loops, duplicates (the
  // lighter one decides) and a vertex nothing reaches (6).
  // clang-format off
  const Solved s = solve({7, {{0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {3, 0, 0}, {3, 4, 2}, {1, 4, 2}, {2, 2, 0},
                              {0, 0, 3}, {0, 5, 9}, {0, 5, 2}, {5, 4, 0}, {4, 4, 0}, {2, 0, 0}, {6, 0, 1}}});
  // clang-format on
  EXPECT_EQ(path_fault(s), "");
  EXPECT_EQ(hop(s, 1, 4), 4);  // its own exit, not around the cycle
  EXPECT_EQ(hop(s, 3, 4), 4);
  EXPECT_EQ(hop(s, 5, 4), 4);  // zero weight, straight to the target
  // Round 0: the tight edge of positive weight (0 -> 5 at 2; its duplicate at 9 is not tight)
  // before the zero-weight one to 1, though 1 < 5.
  EXPECT_EQ(hop(s, 0, 4), 5);
  // Round 1: 3 and 0 were both chosen in round 0; 0 is the smaller.
  EXPECT_EQ(hop(s, 2, 4), 0);
  for (int j = 0; j < 7; ++j) EXPECT_EQ(hop(s, j, 6), kNoHop);
}

TEST(Paths, EveryDiagonalAndUnreachableEntryIsMinusOne) {
  GraphSpec parts;
  parts.kind = GraphKind::kComponents;
  parts.num_vertices = 61;
  parts.components = 4;
  parts.density = 0.08;
  parts.wmin = 0;
  parts.wmax = 2;
  const Solved s = solve(generate(parts));
  EXPECT_EQ(path_fault(s), "");
  int unreachable = 0;
  for (int i = 0; i < s.d.n(); ++i)
    for (int j = 0; j < s.d.n(); ++j) unreachable += s.d.at(i, j) == kInf;
  EXPECT_GT(unreachable, 0);
}

TEST(Paths, OneVertex) {
  const Solved s = solve({1, {{0, 0, 0}}});
  EXPECT_EQ(s.next, std::vector<int32_t>{kNoHop});
}

// Seeded graphs with many equal distances: weights in [0, 2] (or all 0), duplicate edges.
std::vector<GraphSpec> random_specs() {
  std::vector<GraphSpec> specs;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (double density : {0.02, 0.08, 0.3}) {
      GraphSpec s;
      s.num_vertices = 40 + static_cast<int>(seed) * 23;
      s.seed = seed;
      s.density = density;
      s.wmin = 0;
      s.wmax = seed == 4 ? 0 : 2;
      s.duplicates = 0.4;
      specs.push_back(s);
    }
  }
  GraphSpec chain;  // one long chain of zero weights: as many rounds as vertices
  chain.kind = GraphKind::kChain;
  chain.num_vertices = 90;
  chain.wmin = chain.wmax = 0;
  GraphSpec grid;
  grid.kind = GraphKind::kGrid;
  grid.num_vertices = 100;
  grid.wmin = 0;
  grid.wmax = 1;
  GraphSpec star = grid;  // zero-weight cycles through the centre everywhere
  star.kind = GraphKind::kStar;
  star.duplicates = 0.5;
  specs.push_back(chain);
  specs.push_back(grid);
  specs.push_back(star);
  return specs;
}

TEST(Paths, RandomGraphsWithZeroWeightsAndDuplicates) {
  for (const GraphSpec& spec : random_specs()) {
    const Solved s = solve(generate(spec));
    EXPECT_EQ(path_fault(s), "") << describe(spec) << " seed " << spec.seed;
  }
}

TEST(Paths, TheSameMatrixOnAnyNumberOfThreads) {
  for (const GraphSpec& spec : random_specs()) {
    const std::vector<int32_t> one = solve(generate(spec), 1).next;
    EXPECT_EQ(solve(generate(spec), 3).next, one);
    EXPECT_EQ(solve(generate(spec), 8).next, one);
  }
}

TEST(Paths, AMatrixThatIsNotTheDistancesIsRefused) {
  // A too-small value held by a zero-weight cycle: no edge out of 0 weighs 3.
  const EdgeList g{3, {{0, 1, 5}, {1, 2, 0}, {2, 1, 0}}};
  DistMatrix d = DistMatrix::from_edges(g);
  floyd_warshall_blocked(d);
  d.at(0, 1) = d.at(0, 2) = 3;
  std::vector<int32_t> next(d.size());
  try {
    next_hops_host(d.view(), OutEdges::of(g), next.data());
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), open_entry_fault(0, 1, 3));
    EXPECT_NE(std::string(e.what()).find("d[0][1] = 3: no edge out of 0"), std::string::npos);
  }
}

// "" when every entry of pred (harness/solve/paths.hpp: predecessors_host) is right: walking back
// from j along pred reaches i over edges of the graph, weighing d[i][j], repeating no vertex.
std::string predecessor_fault(const EdgeList& g, const DistMatrix& d,
                              const std::vector<int32_t>& pred) {
  const int n = d.n();
  const DistMatrix lightest = DistMatrix::from_edges(g);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const std::string at = "pred[" + std::to_string(i) + "][" + std::to_string(j) + "]";
      if (i == j || d.at(i, j) == kInf) {
        if (pred[static_cast<size_t>(i) * n + j] != kNoHop) return at + " is not -1";
        continue;
      }
      std::vector<char> seen(n, 0);
      int64_t weight = 0;
      for (int v = j; v != i;) {
        const int32_t u = pred[static_cast<size_t>(i) * n + v];
        if (u < 0 || u >= n || u == v || lightest.at(u, v) == kInf)
          return at + ": no edge into " + std::to_string(v) + " from " + std::to_string(u);
        if (seen[u]++) return at + ": the walk back repeats " + std::to_string(u);
        weight += lightest.at(u, v);
        v = u;
      }
      if (weight != d.at(i, j)) return at + ": the path weighs " + std::to_string(weight);
    }
  return "";
}

TEST(Predecessors, LeadBackToTheSourceOnEveryGraph) {
  std::vector<EdgeList> graphs;
  for (const GraphSpec& spec : random_specs()) graphs.push_back(generate(spec));
  // Zero-weight cycles into the target, self loops, duplicates, a one-way pair.
  graphs.push_back({6,
                    {{0, 1, 2},
                     {1, 2, 0},
                     {2, 1, 0},
                     {2, 3, 1},
                     {3, 2, 0},
                     {1, 1, 0},
                     {0, 1, 1},
                     {4, 5, 0},
                     {3, 4, 7}}});
  for (const EdgeList& g : graphs) {
    const Solved s = solve(g);
    std::vector<int32_t> pred(s.d.size(), 12345);
    predecessors_host(s.d.view(), g, pred.data());
    EXPECT_EQ(predecessor_fault(g, s.d, pred), "") << "V = " << g.num_vertices;
    // The reversed graph's next hops, transposed; the same on any number of threads.
    std::vector<int32_t> one(s.d.size());
    predecessors_host(s.d.view(), g, one.data(), 1);
    EXPECT_EQ(one, pred);
  }
}

TEST(Predecessors, OfAMatrixThatIsNotTheDistancesAreRefused) {
  const EdgeList g{3, {{0, 1, 5}, {1, 2, 0}, {2, 1, 0}}};
  DistMatrix d = DistMatrix::from_edges(g);
  floyd_warshall_blocked(d);
  d.at(0, 1) = d.at(0, 2) = 3;
  std::vector<int32_t> pred(d.size());
  EXPECT_THROW(predecessors_host(d.view(), g, pred.data()), std::runtime_error);
}

TEST(Paths, FollowAndDescribe) {
  const Solved s = solve({5, {{3, 1, 2}, {1, 4, 0}, {4, 0, 7}, {0, 3, 1}}});
  std::vector<int32_t> column(5);
  for (int k = 0; k < 5; ++k) column[k] = hop(s, k, 0);
  const std::vector<int32_t> path = follow_hops(column.data(), 5, 3, 0);
  EXPECT_EQ(path, (std::vector<int32_t>{3, 1, 4, 0}));
  EXPECT_EQ(describe_path(3, 0, path, s.d.at(3, 0)), "path 3 -> 0: 3 1 4 0 (length 9)");
  EXPECT_EQ(describe_path(2, 0, follow_hops(column.data(), 5, 2, 0), s.d.at(2, 0)),
            "path 2 -> 0: unreachable");
  EXPECT_EQ(describe_path(0, 0, follow_hops(column.data(), 5, 0, 0), 0),
            "path 0 -> 0: 0 (length 0)");
  column[1] = 3;  // a loop 3 -> 1 -> 3
  EXPECT_THROW(follow_hops(column.data(), 5, 3, 0), std::runtime_error);
}

}  // namespace
}  // namespace apsp::harness
