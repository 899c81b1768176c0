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
      g.edges.push_back(
          {u, static_cast<int32_t>(rng() % V), static_cast<int32_t>(rng() % (max_w + 1))});
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

// Distances past int32's unreachable: the int32 solve saturates, the proof fails, and the run
// fails with that line; nothing is written.
TEST(Exactness, DistancesPastInt32AreNeverWrittenAsUnreachable) {
  const EdgeList g{3, {{0, 1, 600000000}, {1, 2, 600000000}}};
  CpuRun run(g);
  try {
    Solver(run.r).run();
    FAIL() << "solved";
  } catch (const SolveError& e) {
    EXPECT_EQ(e.fault, SolveFault::kFailed);
    EXPECT_NE(std::string(e.what()).find("largest distance 600000000 + largest weight 600000000"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(std::ifstream(run.scratch.file("d.bin")).good());
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
