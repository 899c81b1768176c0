// apsp's exactness: no a-priori bound on the distances, the proof after the solve
// (core/precision.hpp), on the CPU path (the GPU's is in tests/harness/solve/test_exact_gpu.cpp).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/edge_list.hpp"
#include "core/matrix_io.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "harness/solve/solver.hpp"
#include "harness/verify/certificate.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// V vertices, 8 random out-edges each, weights in [0, max_w]: seeded, the same everywhere.
EdgeList random_weighted(int V, int32_t max_w, uint64_t seed) {
  std::mt19937_64 rng(seed);
  EdgeList g{V, {}};
  for (int u = 0; u < V; ++u)
    for (int k = 0; k < 8; ++k)
      g.edges.push_back({u, static_cast<int32_t>(rng() % V),
                         static_cast<int32_t>(rng() % (static_cast<uint64_t>(max_w) + 1))});
  return g;
}

struct CpuRun {
  test::ScratchDir scratch;
  std::vector<std::string> lines;
  SolveRequest r;
  explicit CpuRun(const EdgeList& g) {
    r.input = scratch.file("g.txt");
    std::ofstream(r.input) << format_edge_list(g);
    r.variant = "cpu";
    r.threads = 2;
    r.distances_to = scratch.file("d.bin");
    r.format = &bin_matrix_format();
    r.log = [this](const std::string& line) { lines.push_back(line); };
  }
  bool said(const std::string& start) const {
    for (const std::string& l : lines)
      if (l.rfind(start, 0) == 0) return true;
    return false;
  }
};

// The first case: V = 1100, weights below 10^6, which the old bound refused ((V - 1) * w
// about 1.1e9): solved exactly in int32, the proof said, the distances Dijkstra's.
TEST(Exactness, AGraphTheOldBoundRefusedIsSolvedAndProven) {
  const EdgeList g = random_weighted(1100, 999999, 7);
  ASSERT_GE(int64_t{1099} * max_edge_weight(g), kInf) << "the old bound refused it";
  CpuRun run(g);
  Solver(run.r).run();
  EXPECT_TRUE(run.said("exact (int32): largest distance ")) << ::testing::PrintToString(run.lines);
  const DistMatrix want = dijkstra_all_pairs(g);
  const std::string bytes = contents(run.scratch.file("d.bin"));
  ASSERT_EQ(bytes.size(), 16 + want.bytes());
  EXPECT_EQ(std::memcmp(bytes.data() + 16, want.data(), want.bytes()), 0);
}

// The bytes of an int64 bin output past its 16-byte header.
std::vector<int64_t> entries64(const std::string& path) {
  const std::string bytes = contents(path);
  EXPECT_EQ(bytes.substr(0, 8), "APSPDS64");
  std::vector<int64_t> out((bytes.size() - 16) / sizeof(int64_t));
  std::memcpy(out.data(), bytes.data() + 16, out.size() * sizeof(int64_t));
  return out;
}

// Distances past int32's unreachable: the int32 solve saturates, the proof fails, and the 64-bit
// path solves the graph again, exactly; the output is int64, as Dijkstra's in 64 bits.
TEST(Exactness, DistancesPastInt32AreSolvedAgainInSixtyFourBits) {
  const EdgeList g{4, {{0, 1, 600000000}, {1, 2, 600000000}, {2, 3, 999999999}, {3, 0, 0}}};
  CpuRun run(g);
  Solver(run.r).run();
  EXPECT_TRUE(run.said("the int32 result is not proven exact (largest distance "))
      << ::testing::PrintToString(run.lines);
  EXPECT_TRUE(run.said("exact (int64): largest distance 2199999999 + largest weight 999999999"))
      << ::testing::PrintToString(run.lines);
  const DistMatrix64 want = dijkstra_all_pairs64(g);
  EXPECT_EQ(entries64(run.scratch.file("d.bin")),
            std::vector<int64_t>(want.data(), want.data() + want.size()));
}

// Weights int32 does not take (up to 2^31 - 1) go to the 64-bit path at once, on a random graph
// of odd size with unreachable pairs, zero weights and duplicate edges.
TEST(Exactness, WeightsPastInt32GoStraightToSixtyFourBits) {
  EdgeList g = random_weighted(77, 2147483647, 3);
  g.num_vertices = 80;                    // 3 vertices no edge reaches
  g.edges.push_back(g.edges.front());     // a duplicate
  g.edges.push_back({5, 6, 0});           // a zero weight
  g.edges.push_back({5, 6, 2147483647});  // its duplicate, larger
  CpuRun run(g);
  Solver(run.r).run();
  EXPECT_FALSE(run.said("exact (int32)")) << ::testing::PrintToString(run.lines);
  EXPECT_TRUE(run.said("exact (int64)")) << ::testing::PrintToString(run.lines);
  const DistMatrix64 want = dijkstra_all_pairs64(g);
  EXPECT_EQ(entries64(run.scratch.file("d.bin")),
            std::vector<int64_t>(want.data(), want.data() + want.size()));
  // The certificate holds in 64 bits, and fails where an entry is wrong.
  CpuRun verify(g);
  verify.r.verify = true;
  Solver(verify.r).run();
  EXPECT_TRUE(verify.said("verified: the shortest-path certificate holds"))
      << ::testing::PrintToString(verify.lines);
  const InEdges in = InEdges::of(g);
  EXPECT_EQ(certify_host(want.view(), in), "");
  DistMatrix64 wrong = want;
  wrong.at(5, 6) += 1;  // 0 through the zero-weight edge
  EXPECT_EQ(certify_host(wrong.view(), in).rfind("d[5][6] = 1: an edge relaxes it", 0), 0u)
      << certify_host(wrong.view(), in);
  // What the 64-bit path does not do is refused before any work.
  CpuRun predecessors(g);
  predecessors.r.predecessors = true;
  try {
    Solver(predecessors.r).run();
    FAIL() << "solved";
  } catch (const SolveError& e) {
    EXPECT_EQ(e.fault, SolveFault::kRefused);
    EXPECT_EQ(std::string(e.what()).rfind("predecessors: the distances need the 64-bit path", 0),
              0u)
        << e.what();
  }
}

TEST(Exactness, TheProofsArithmetic) {
  EXPECT_EQ(unreachable_of(kPrecisionU16x2), kInf16);
  EXPECT_EQ(unreachable_of(kPrecisionInt32), kInf);
  EXPECT_EQ(unreachable_of(kPrecisionInt64), kInf64);
  EXPECT_EQ(exactness_fault(kInf - 11, 10, kInf), "");
  EXPECT_EQ(exactness_fault(kInf - 10, 10, kInf),
            "largest distance 1073741813 + largest weight 10 = 1073741823 is not below the "
            "unreachable value 1073741823");
  EXPECT_EQ(weights_fit(kPrecisionU16x2, 0x7FFE), "");
  EXPECT_EQ(weights_fit(kPrecisionU16x2, 0x7FFF),
            "u16x2 solves weights below 32767; the largest weight here is 32767");
  EXPECT_EQ(weights_fit(kPrecisionInt64, kInf), "");
}

// The contest's text format keeps its meaning whatever precision solved the graph: unreachable is
// 1073741823 where the 64-bit path solved it. Both sides of the boundary: the largest distance
// 2^30 - 2 is written as it is; 2^30 - 1, which the format cannot hold, is saturated and said.
TEST(Exactness, TheContestTextFormatKeepsItsMeaningInSixtyFourBits) {
  const auto solved = [](int32_t first_weight, std::vector<std::string>* lines) {
    CpuRun run(EdgeList{3, {{0, 1, first_weight}, {1, 2, 1}}});
    run.r.format = &text_matrix_format();
    run.r.distances_to = run.scratch.file("d.txt");
    Solver(run.r).run();
    *lines = run.lines;
    return contents(run.scratch.file("d.txt"));
  };
  std::vector<std::string> lines;
  EXPECT_EQ(solved(kInf - 2, &lines),
            "0 1073741821 1073741822\n1073741823 0 1\n1073741823 1073741823 0\n");
  const auto said = [&](const std::string& start) {
    for (const std::string& l : lines)
      if (l.rfind(start, 0) == 0) return true;
    return false;
  };
  EXPECT_TRUE(said("exact (int64)")) << "the int32 proof fails: " << testing::PrintToString(lines);
  EXPECT_FALSE(said("1 pairs")) << testing::PrintToString(lines);
  EXPECT_EQ(solved(kInf - 1, &lines),
            "0 1073741822 1073741823\n1073741823 0 1\n1073741823 1073741823 0\n");
  EXPECT_TRUE(
      said("1 pairs have distances of 1073741823 or more, which the contest's text format "
           "cannot hold: written as 1073741823 (saturated"))
      << testing::PrintToString(lines);
}

// The 64-bit path answers what int32 answers: the summary, chosen rows, the next hops and a path.
TEST(Exactness, SixtyFourBitsAnswerTheSummaryTheSourcesAndThePaths) {
  EdgeList chain{2000, {}};
  for (int v = 0; v + 1 < 2000; ++v) chain.edges.push_back({v, v + 1, 1000000});
  CpuRun summary(chain);
  summary.r.summary = true;
  summary.r.distances_to.reset();
  Solver s(summary.r);
  s.run();
  EXPECT_EQ(s.precision(), kPrecisionInt64);
  EXPECT_NE(s.summary_lines().find("diameter: 1999000000\n"), std::string::npos)
      << s.summary_lines();
  // sum over i < j of (j - i) * 10^6 = 10^6 * C(2001, 3), over C(2000, 2) pairs: 667000000.
  EXPECT_NE(s.summary_lines().find("average shortest path length: 667000000 (= "
                                   "1333333000000000 / 1999000:"),
            std::string::npos)
      << s.summary_lines();

  const EdgeList g{4, {{0, 1, 2147483647}, {1, 2, 5}, {0, 2, 2147483647}, {2, 3, 0}}};
  CpuRun rows(g);
  rows.r.sources = "2,0";
  Solver(rows.r).run();
  const std::string bytes = contents(rows.scratch.file("d.bin"));
  ASSERT_EQ(bytes.size(), 24 + 8 * 8u);
  EXPECT_EQ(bytes.substr(0, 8), "APSPRO64");
  std::vector<int64_t> got(8);
  std::memcpy(got.data(), bytes.data() + 24, 64);
  EXPECT_EQ(got,
            (std::vector<int64_t>{kInf64, kInf64, 0, 0, 0, 2147483647, 2147483647, 2147483647}));

  CpuRun path(g);
  path.r.path = {{0, 3}};
  path.r.next_hops_to = path.scratch.file("next.txt");
  path.r.format = &text_matrix_format();
  path.r.distances_to.reset();
  Solver p(path.r);
  p.run();
  EXPECT_EQ(p.path_line(), "path 0 -> 3: 0 2 3 (length 2147483647)");
  EXPECT_EQ(contents(path.scratch.file("next.txt")),
            "-1 1 2 2\n-1 -1 2 2\n-1 -1 -1 3\n-1 -1 -1 -1\n");
}

}  // namespace
}  // namespace apsp::harness
