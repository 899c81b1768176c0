#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/generators.hpp"
#include "core/reference.hpp"

namespace apsp {
namespace {

struct Case {
  GraphKind kind;
  int n;
  double density;
  int wmin;
  double duplicates;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << to_string(c.kind) << " n=" << c.n << " density=" << c.density << " wmin=" << c.wmin
      << " duplicates=" << c.duplicates;
}

class ReferenceTest : public testing::TestWithParam<Case> {};

TEST_P(ReferenceTest, BlockedEqualsTripleLoopAndDijkstra) {
  const Case c = GetParam();
  GraphSpec s;
  s.kind = c.kind;
  s.num_vertices = c.n;
  s.density = c.density;
  s.wmin = c.wmin;
  s.duplicates = c.duplicates;
  s.seed = 1000 + c.n;
  const EdgeList g = generate(s);
  DistMatrix plain = DistMatrix::from_edges(g);
  floyd_warshall_plain(plain);
  for (int threads : {1, 3}) {
    DistMatrix blocked = DistMatrix::from_edges(g);
    floyd_warshall_blocked(blocked, threads);
    const Mismatch m = compare(blocked, plain);
    EXPECT_FALSE(m) << m.count << " differ, first (" << m.i << "," << m.j << "): " << m.got
                    << " != " << m.expected << " with " << threads << " threads";
  }
  const Mismatch m = compare(dijkstra_all_pairs(g), plain);
  EXPECT_FALSE(m) << "dijkstra: " << m.count << " differ";
}

INSTANTIATE_TEST_SUITE_P(
    Graphs, ReferenceTest,
    testing::Values(
        Case{GraphKind::kRandom, 1, 0.5, 1, 0}, Case{GraphKind::kRandom, 2, 0.5, 1, 0},
        Case{GraphKind::kRandom, 63, 0.3, 1, 0}, Case{GraphKind::kRandom, 65, 0.02, 1, 0},
        Case{GraphKind::kRandom, 130, 0.1, 0, 0.5}, Case{GraphKind::kRandom, 200, 0.005, 1, 0},
        Case{GraphKind::kChain, 129, 0, 0, 0}, Case{GraphKind::kGrid, 150, 0, 1, 0},
        Case{GraphKind::kComponents, 191, 0.05, 0, 0.3}, Case{GraphKind::kStar, 97, 0, 1, 0}),
    [](const testing::TestParamInfo<Case>& info) {
      return std::string(to_string(info.param.kind)) + "_n" + std::to_string(info.param.n);
    });

TEST(Reference, ChainDistancesAreKnown) {
  GraphSpec s;
  s.kind = GraphKind::kChain;
  s.num_vertices = 70;
  s.wmin = s.wmax = 2;
  const DistMatrix d = solve_reference(generate(s));
  EXPECT_EQ(d.at(0, 69), 138);
  EXPECT_EQ(d.at(10, 12), 4);
  EXPECT_EQ(d.at(12, 10), kInf);
  EXPECT_EQ(d.at(33, 33), 0);
}

// The rounds apsp's progress line and estimate count: one call per 64-wide k-block, in order,
// and the answer is the one without the callback.
TEST(Reference, ReportsEachRoundAndSolvesTheSame) {
  GraphSpec spec;
  spec.num_vertices = 200;
  spec.density = 0.05;
  const DistMatrix start = DistMatrix::from_edges(generate(spec));
  DistMatrix plain = start, reported = start;
  floyd_warshall_blocked(plain, 2);
  std::vector<std::pair<int, int>> rounds;
  floyd_warshall_blocked(reported, 2, [&](int done, int all) { rounds.emplace_back(done, all); });
  EXPECT_EQ(rounds, (std::vector<std::pair<int, int>>{{1, 4}, {2, 4}, {3, 4}, {4, 4}}));
  EXPECT_EQ(reported, plain);
}

TEST(Compare, CountsAndLocatesDifferences) {
  DistMatrix a(4), b(4);
  b.at(2, 1) = 5;
  b.at(3, 0) = 6;
  const Mismatch m = compare(a, b);
  EXPECT_EQ(m.count, 2);
  EXPECT_EQ(m.i, 2);
  EXPECT_EQ(m.j, 1);
  EXPECT_EQ(m.got, kInf);
  EXPECT_EQ(m.expected, 5);
  EXPECT_FALSE(compare(a, a));
}

}  // namespace
}  // namespace apsp
