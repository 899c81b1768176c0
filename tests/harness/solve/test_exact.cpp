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
  // What the 64-bit path does not do is refused before any work.
  CpuRun verify(g);
  verify.r.verify = true;
  try {
    Solver(verify.r).run();
    FAIL() << "solved";
  } catch (const SolveError& e) {
    EXPECT_EQ(e.fault, SolveFault::kRefused);
    EXPECT_EQ(std::string(e.what()).rfind("--verify: the distances need the 64-bit path", 0), 0u)
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

}  // namespace
}  // namespace apsp::harness
