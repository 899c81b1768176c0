// The exact 64-bit path on the host: DistMatrix64 (the rules of DistMatrix, kInf64 for no edge),
// widen and narrow, the 64-bit CPU reference against the triple loop and Dijkstra on graphs whose
// distances pass kInf (weights up to 2^31 - 1), and the narrowed 64-bit answer equal to the int32
// reference; results files with int64 runs and their ceiling.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/generators.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "core/results.hpp"
#include "core/tables.hpp"

namespace apsp {
namespace {

constexpr int32_t kMaxWeight = std::numeric_limits<int32_t>::max();  // 2^31 - 1

// About `per_vertex` random edges a vertex with weights in [wmin, wmax] (duplicates and self
// loops among them), and every fourth vertex a sink: unreachable pairs. Seeded: the same graph
// everywhere.
EdgeList random_wide_graph(int n, int per_vertex, int32_t wmin, int32_t wmax, uint64_t seed) {
  SplitMix64 rng(seed);
  EdgeList g{n, {}};
  const uint64_t span = static_cast<uint64_t>(wmax - wmin) + 1;
  for (int64_t e = 0; e < int64_t{n} * per_vertex; ++e) {
    const int src = static_cast<int>(rng.below(n)), dst = static_cast<int>(rng.below(n));
    if (src % 4 == 3) continue;
    g.edges.push_back(
        {src, dst, static_cast<int32_t>(wmin + static_cast<int64_t>(rng.below(span)))});
  }
  return g;
}

int64_t largest_finite(const DistMatrix64& d) {
  int64_t most = 0;
  for (size_t e = 0; e < d.size(); ++e)
    if (d.data()[e] < kInf64) most = std::max(most, d.data()[e]);
  return most;
}

TEST(DistMatrix64, FromEdgesKeepsTheRulesOfDistMatrix) {
  const EdgeList g{
      4, {{0, 1, kMaxWeight}, {0, 1, 1 << 30}, {1, 2, 7}, {2, 2, 5}, {3, 0, 0}, {1, 2, 9}}};
  const DistMatrix64 d = DistMatrix64::from_edges(g);
  ASSERT_EQ(d.n(), 4);
  EXPECT_EQ(d.at(0, 1), int64_t{1} << 30) << "the smallest weight of a duplicated edge";
  EXPECT_EQ(d.at(1, 2), 7);
  EXPECT_EQ(d.at(2, 2), 0) << "a self loop never beats the zero diagonal";
  EXPECT_EQ(d.at(3, 0), 0) << "a zero weight is an edge";
  EXPECT_EQ(d.at(0, 3), kInf64);
  EXPECT_EQ(d.bytes(), 16u * sizeof(int64_t));
  EXPECT_EQ(DistMatrix64::from_edges(EdgeList{1, {{0, 0, 3}}}), DistMatrix64(1));
  const DistMatrix64 max_weight = DistMatrix64::from_edges(EdgeList{2, {{1, 0, kMaxWeight}}});
  EXPECT_EQ(max_weight.at(1, 0), kMaxWeight) << "weights at or above int32's kInf are edges";
  EXPECT_THROW(DistMatrix64(-1), std::invalid_argument);
}

TEST(DistMatrix64, WidenAndNarrow) {
  DistMatrix d(3);
  d.at(0, 1) = 5;
  d.at(1, 2) = kInf - 1;
  const DistMatrix64 w = widen(d);
  EXPECT_EQ(w.at(0, 1), 5);
  EXPECT_EQ(w.at(1, 2), kInf - 1);
  EXPECT_EQ(w.at(2, 0), kInf64) << "int32's unreachable is int64's";
  EXPECT_EQ(narrow(w), d);
  DistMatrix64 far = w;
  far.at(0, 2) = kInf;
  far.at(2, 1) = int64_t{3} << 40;
  const DistMatrix back = narrow(far);
  EXPECT_EQ(back.at(0, 2), kInf) << "a distance that reaches kInf is kInf in int32";
  EXPECT_EQ(back.at(2, 1), kInf);
  EXPECT_EQ(back.at(1, 2), kInf - 1);
}

TEST(DistMatrix64, CompareNamesTheFirstDifferenceInFull) {
  DistMatrix64 a(3), b(3);
  b.at(1, 2) = int64_t{5} << 33;
  b.at(2, 0) = 1;
  const Mismatch m = compare(a, b);
  EXPECT_EQ(m.count, 2);
  EXPECT_EQ(m.i, 1);
  EXPECT_EQ(m.j, 2);
  EXPECT_EQ(m.got, kInf64);
  EXPECT_EQ(m.expected, int64_t{5} << 33);
  EXPECT_FALSE(compare(a, a));
}

struct WideCase {
  int n, per_vertex;
  int32_t wmin, wmax;
};

class Reference64 : public testing::TestWithParam<WideCase> {};

// Blocked (1 and 3 threads) = the triple loop = Dijkstra, in 64 bits, on sizes that are no
// multiple of the reference's tile, with zero weights, duplicates, self loops and sinks.
TEST_P(Reference64, BlockedEqualsTripleLoopAndDijkstra) {
  const WideCase c = GetParam();
  const EdgeList g = random_wide_graph(c.n, c.per_vertex, c.wmin, c.wmax, 977 + c.n);
  DistMatrix64 plain = DistMatrix64::from_edges(g);
  floyd_warshall_plain(plain);
  if (c.n > 2 && c.wmin > 0) {
    EXPECT_GT(largest_finite(plain), kInf) << "distances pass kInf";
  }
  for (int threads : {1, 3}) {
    DistMatrix64 blocked = DistMatrix64::from_edges(g);
    floyd_warshall_blocked(blocked, threads);
    const Mismatch m = compare(blocked, plain);
    EXPECT_FALSE(m) << m.count << " differ, first (" << m.i << "," << m.j << "): " << m.got
                    << " != " << m.expected << " with " << threads << " threads";
  }
  EXPECT_FALSE(compare(dijkstra_all_pairs64(g), plain)) << "dijkstra";
  EXPECT_EQ(solve_reference64(g, 2), plain);
}

INSTANTIATE_TEST_SUITE_P(
    Graphs, Reference64,
    testing::Values(WideCase{1, 2, 1, kMaxWeight}, WideCase{2, 2, 1, kMaxWeight},
                    WideCase{63, 3, 1 << 29, kMaxWeight}, WideCase{65, 2, 0, kMaxWeight},
                    WideCase{130, 2, 1, kMaxWeight}, WideCase{200, 1, 1 << 30, kMaxWeight}),
    [](const testing::TestParamInfo<WideCase>& info) {
      return "n" + std::to_string(info.param.n);
    });

// A chain of the largest int32 weight: d[i][j] = (j - i) (2^31 - 1), far past kInf.
TEST(Reference64, ChainOfTheLargestWeight) {
  constexpr int kV = 150;
  EdgeList g{kV, {}};
  for (int i = 0; i + 1 < kV; ++i) g.edges.push_back({i, i + 1, kMaxWeight});
  const DistMatrix64 d = solve_reference64(g);
  EXPECT_EQ(d.at(0, kV - 1), int64_t{kV - 1} * kMaxWeight);
  EXPECT_EQ(d.at(10, 12), 2 * int64_t{kMaxWeight});
  EXPECT_EQ(d.at(12, 10), kInf64);
  EXPECT_EQ(d.at(33, 33), 0);
  int rounds = 0;
  DistMatrix64 again = DistMatrix64::from_edges(g);
  floyd_warshall_blocked(again, 2, [&](int done, int all) {
    EXPECT_EQ(done, ++rounds);
    EXPECT_EQ(all, 3);
  });
  EXPECT_EQ(rounds, 3);
  EXPECT_EQ(again, d);
}

// What blocked_i64's run() relies on: the int32 solve computes min(true distance, kInf) on every
// input, so the narrowed 64-bit answer equals it bit for bit, where distances pass kInf too.
TEST(Reference64, NarrowedEqualsTheInt32Reference) {
  for (const EdgeList& g :
       {random_wide_graph(129, 3, 1 << 26, 1 << 29, 5), random_wide_graph(97, 2, 0, kInf - 1, 6)}) {
    DistMatrix int32 = DistMatrix::from_edges(g);
    floyd_warshall_blocked(int32);
    const DistMatrix64 wide = solve_reference64(g);
    ASSERT_GT(largest_finite(wide), kInf) << "some distances pass kInf";
    const Mismatch m = compare(narrow(wide), int32);
    EXPECT_FALSE(m) << m.count << " differ, first (" << m.i << "," << m.j << "): " << m.got
                    << " != " << m.expected;
  }
}

// The arithmetic of blocked_i64's FP64 form (kernels/blocked_i64.cuh, Fp64Pipe), on the host's
// IEEE doubles (round to nearest, subnormals kept, as FP64 on the GPU): the int64 bits read as
// doubles, added, compared, the smaller's bits kept.
int64_t fp64_update(int64_t c, int64_t a, int64_t b) {
  const double s = std::bit_cast<double>(a) + std::bit_cast<double>(b);
  const double old = std::bit_cast<double>(c);
  return std::bit_cast<int64_t>(s < old ? s : old);
}

TEST(Fp64Form, AddsBelowTwoToThe53AndNeverUndercutsPastIt) {
  constexpr int64_t k52 = int64_t{1} << 52, k53 = int64_t{1} << 53;
  EXPECT_EQ(fp64_update(kInf64, 3, 4), 7) << "subnormals add as integers";
  EXPECT_EQ(fp64_update(kInf64, 0, 0), 0);
  EXPECT_EQ(fp64_update(kInf64, k52, k52 - 1), k53 - 1) << "into the smallest normal binade";
  EXPECT_EQ(fp64_update(kInf64, k52 - 5, 9), k52 + 4);
  EXPECT_EQ(fp64_update(5, k52 + 1, k52 + 3), 5) << "a sum past 2^53 rounds, but stays past it";
  EXPECT_EQ(fp64_update(k53 - 1, k52 + 1, k52 + 3), k53 - 1);
  EXPECT_EQ(fp64_update(kInf64, kInf64, 12345), kInf64) << "unreachable stays kInf64 exactly";
  EXPECT_EQ(fp64_update(kInf64, kInf64, kInf64), kInf64);
  EXPECT_EQ(fp64_update(kInf64, kInf64 - 1, 1), kInf64 - 1) << "never below the true sum's c";
  EXPECT_EQ(fp64_update(kInf - 1, int64_t{kMaxWeight} * 1000, 17), kInf - 1);
}

// Floyd-Warshall through the FP64 form equals the integer one on graphs whose distances stay
// below 2^53: weights to 2^31 - 1 with sinks, and heavy edges of 2^52 + x whose pairs' sums
// (past 2^53) lose to a light edge.
TEST(Fp64Form, FloydWarshallThroughItIsExact) {
  DistMatrix64 heavy(90);
  SplitMix64 rng(3);
  for (int t = 0; t < 30; ++t) {
    const int a = 3 * t;
    heavy.at(a, a + 1) = (int64_t{1} << 52) + static_cast<int64_t>(rng.below(uint64_t{1} << 40));
    heavy.at(a + 1, a + 2) = (int64_t{1} << 52) + static_cast<int64_t>(rng.below(1000));
    heavy.at(a, a + 2) = static_cast<int64_t>(rng.below(1000));
    if (a + 5 < 90) heavy.at(a + 2, a + 5) = static_cast<int64_t>(rng.below(uint64_t{1} << 44));
  }
  for (const DistMatrix64& input :
       {DistMatrix64::from_edges(random_wide_graph(150, 3, 0, kMaxWeight, 8)), heavy}) {
    DistMatrix64 exact = input, fp64 = input;
    floyd_warshall_plain(exact);
    const int n = input.n();
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          fp64.at(i, j) = fp64_update(fp64.at(i, j), fp64.at(i, k), fp64.at(k, j));
    ASSERT_LT(largest_finite(exact), int64_t{1} << 53);
    const Mismatch m = compare(fp64, exact);
    EXPECT_FALSE(m) << m.count << " differ, first (" << m.i << "," << m.j << "): " << m.got
                    << " != " << m.expected;
  }
}

// An int64 run carries its precision, its share is of the int64 ceiling, and a file without
// that ceiling (none measured, or from before the 64-bit path) reads as 0.
TEST(ResultsWide, Int64RunsAndTheirCeiling) {
  Results r;
  r.context.device = {{"name", "Test GPU"}};
  r.context.ceiling_updates_per_s = 16e12;
  r.context.ceiling_i64_updates_per_s = 4e12;
  RunResult run;
  run.variant = "blocked_i64";
  run.name = "blocked_i64[chunk=16,fp64=1]";
  run.n = 1000;
  run.verified = "cpu-reference";
  run.samples_ms = {1.0, 1.0};
  run.median_ms = run.min_ms = 1.0;
  run.pct_of_ceiling = 50;
  run.precision = kPrecisionInt64;
  r.runs = {run};
  EXPECT_DOUBLE_EQ(r.context.ceiling_for(kPrecisionInt64), 4e12);
  const Results back = results_from_json(to_json(r));
  EXPECT_EQ(back.runs[0].precision, "int64");
  EXPECT_DOUBLE_EQ(back.context.ceiling_i64_updates_per_s, 4e12);
  EXPECT_EQ(detail_grid(back)[1][6], "50.0 (i64)");
  EXPECT_EQ(ceilings_line(back.context),
            "Measured min-plus ceilings: int32 16.00 T updates/s, int64 4.00 T updates/s. A run's "
            "share of the ceiling is against its own precision's.");
  r.context.ceiling_i64_updates_per_s = 0;
  EXPECT_FALSE(to_json(r)["context"].contains("ceiling_i64_updates_per_s"))
      << "not measured: not written";
  EXPECT_EQ(results_from_json(to_json(r)).context.ceiling_i64_updates_per_s, 0);
  r.context.ceiling_i64_updates_per_s = 1e12;
  r.runs[0].pct_of_ceiling = 400;
  try {
    results_from_json(to_json(r));
    ADD_FAILURE() << "a share of 400% was read";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "/runs/0/pct_of_ceiling: 400.0% of the measured ceiling (1e+12 updates/s in "
                 "/context/ceiling_i64_updates_per_s) is impossible beyond noise (105%): the "
                 "ceiling or the time is wrong");
  }
}

}  // namespace
}  // namespace apsp
