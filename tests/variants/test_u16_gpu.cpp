// sm90_u16 (16-bit distances) on the graphs whose distances fit: bit-exact against the CPU
// reference on unweighted graphs, weights 0..3 with zero weights and duplicate edges, graphs with
// unreachable pairs, sizes that are no multiple of any tile, and the largest distance 16 bits
// hold ((V - 1) * max_w = 0x7FFE); pairs of rounds at 4 to 12 tiles. Also: an input over the
// limit, run directly (the harness never does), comes back as -1 everywhere; the solve replays as
// a CUDA graph (its scratch is a stream-ordered allocation); the bench's executor counts that
// scratch.
// APSP_TEST_SIZES=77,100 replaces the sizes of the sweep (as in test_variants_gpu.cpp).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/generators.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "harness/measure/executor.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/measure/workbench.hpp"
#include "tests/variants/gpu_test_support.hpp"
#include "tests/variants/pairs_of_rounds_sizes.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

const Variant& u16() {
  const Variant* v = find_variant("sm90_u16");
  if (!v) throw std::runtime_error("sm90_u16 is not registered");
  return *v;
}

// Not multiples of any tile (64, 128), and 1 and 2.
std::vector<int> sizes() { return test::sizes_or_env({1, 2, 63, 65, 129, 1000, 1023}); }

struct Named {
  std::string name;
  GraphSpec spec;
};

// A random graph of n vertices, weights in [wmin, wmax].
GraphSpec random_graph(int n, double density, int wmin, int wmax) {
  GraphSpec s;
  s.num_vertices = n;
  s.density = density;
  s.wmin = wmin;
  s.wmax = wmax;
  return s;
}

// The qualifying graphs of size n.
std::vector<Named> graphs(int n) {
  GraphSpec base;
  base.num_vertices = n;
  base.seed = 31 * n + 7;
  std::vector<Named> out;
  GraphSpec s = base;
  s.wmax = 1;  // apsp_bench --wmax 1: unweighted, distances are hop counts
  s.density = 0.05;
  out.push_back({"unweighted", s});
  s.density = std::min(1.0, 1.5 / n);  // about 1.5 edges a vertex: long paths, unreachable pairs
  out.push_back({"unweighted-sparse", s});
  s = base;
  s.kind = GraphKind::kComponents;  // 4 components: unreachable pairs across them
  s.components = 4;
  s.density = std::min(1.0, 6.0 / n);
  s.wmin = 1;
  s.wmax = 3;
  out.push_back({"components-1..3", s});
  s = base;
  s.density = std::min(1.0, 8.0 / n);
  s.wmin = 0;
  s.wmax = 3;
  s.duplicates = 0.5;  // the smallest weight of a duplicated edge wins
  out.push_back({"weights-0..3-duplicates", s});
  s = base;
  s.kind = GraphKind::kChain;  // distances up to (n - 1) * 5, everything backwards unreachable
  s.wmin = 1;
  s.wmax = 5;
  out.push_back({"chain-1..5", s});
  s = base;
  s.kind = GraphKind::kGrid;
  s.wmin = 0;
  s.wmax = 2;
  out.push_back({"grid-0..2", s});
  return out;
}

// d <- the solve of `input` by (v, c), laid out as the harness lays it (Variant::pitch), in a
// buffer poisoned first (0x7f bytes).
DistMatrix solve(const Variant& v, const Config& c, const DistMatrix& input, CudaStream& stream) {
  const int n = input.n(), pitch = row_pitch(v, c, n);
  DeviceBuffer<int> d(buffer_elems(v, c, n));
  APSP_CUDA_CHECK(cudaMemsetAsync(d.get(), 0x7f, d.size() * sizeof(int), stream.get()));
  harness::put_matrix(d.get(), pitch, input.data(), n, cudaMemcpyHostToDevice, stream.get());
  v.run(d.get(), n, c, stream.get(), nullptr);
  DistMatrix out(n);
  harness::get_matrix(out.data(), d.get(), pitch, n, cudaMemcpyDeviceToHost, stream.get());
  stream.synchronize();
  return out;
}

using test::describe;

struct Problem {
  DistMatrix input, expected;
};

// Each graph's input and CPU reference, made once and shared by every config.
const Problem& problem(const Named& g) {
  static std::map<std::pair<std::string, int>, Problem> cache;
  const auto key = std::pair{g.name, g.spec.num_vertices};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Problem p{DistMatrix::from_edges(generate(g.spec)), {}};
  p.expected = p.input;
  floyd_warshall_blocked(p.expected);
  return cache.emplace(key, std::move(p)).first->second;
}

// (v, c) on every qualifying graph of size n, bit-exact against the CPU reference.
void expect_reference_on_graphs_that_fit(const Variant& v, const Config& c, int n,
                                         CudaStream& stream) {
  for (const Named& g : graphs(n)) {
    const auto& [input, expected] = problem(g);
    ASSERT_EQ(admission_problem(v, n, max_finite_entry(input)), "")
        << g.name << " n=" << n << ": the test's graph must fit";
    const Mismatch m = compare(solve(v, c, input, stream), expected);
    ASSERT_FALSE(m) << config_name(v.name, c) << " n=" << n << " graph=" << g.name << ": "
                    << describe(m);
  }
}

class U16Config : public testing::TestWithParam<Config> {};

TEST_P(U16Config, EqualsTheCpuReferenceOnGraphsThatFit) {
  const Variant& v = u16();
  const Config& c = GetParam();
  CudaStream stream;
  for (int n : sizes()) {
    ASSERT_EQ(v.check(c, n, query_device()), "") << config_name(v.name, c) << " n=" << n;
    expect_reference_on_graphs_that_fit(v, c, n, stream);
    if (testing::Test::HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Sm90U16, U16Config, testing::ValuesIn(all_configs(u16())),
                         [](const testing::TestParamInfo<Config>& info) {
                           return test::test_name("sm90_u16", info.param);
                         });

// Pairs of rounds (lookahead 3, the panel config) at 4 to 12 tiles of 128 a side
// (pairs_of_rounds_sizes), on every qualifying graph: the sweep's sizes give it 1, 2 and 8 tiles only.
TEST(Sm90U16, PairsOfRoundsAtFourToTwelveTiles) {
  const Variant& v = u16();
  Config c = v.defaults;
  c["tile"] = 128;
  c["chunk"] = 16;
  c["lookahead"] = 3;
  ASSERT_TRUE(is_built(v, c)) << config_name(v.name, c);
  CudaStream stream;
  for (int n : apsp::test::pairs_of_rounds_sizes()) {
    expect_reference_on_graphs_that_fit(v, c, n, stream);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// V just under the limit: weight 3 on V = 10923 vertices, (V - 1) * 3 = 32766 = 0x7FFE, the
// largest distance 16 bits hold below their unreachable 0x7FFF. A directed cycle (every pair
// reachable, d[i][j] = 3 ((j - i) mod V): the largest in every row) and the path without its
// closing edge (everything backwards unreachable). Checked against the closed form, row by row.
TEST(Sm90U16, TheLargestDistanceSixteenBitsHold) {
  constexpr int kV = 10923, kW = 3;
  static_assert(int64_t{kV - 1} * kW == 0x7FFE);
  ASSERT_EQ(u16_admission(kV, kW), "");
  ASSERT_NE(u16_admission(kV + 1, kW), "") << "one vertex more is over the limit";
  const Variant& v = u16();
  CudaStream stream;
  for (bool cycle : {true, false}) {
    EdgeList g{kV, {}};
    for (int i = 0; i + 1 < kV; ++i) g.edges.push_back({i, i + 1, kW});
    if (cycle) g.edges.push_back({kV - 1, 0, kW});
    const DistMatrix input = DistMatrix::from_edges(g);
    for (const Config& c : all_configs(v)) {
      const DistMatrix got = solve(v, c, input, stream);
      int64_t wrong = 0;
      int first_i = -1, first_j = -1;
      for (int i = 0; i < kV; ++i) {
        const int32_t* row = got.row(i);
        for (int j = 0; j < kV; ++j) {
          const int32_t want = j >= i ? (j - i) * kW : cycle ? (j - i + kV) * kW : kInf;
          if (row[j] != want && wrong++ == 0) first_i = i, first_j = j;
        }
      }
      EXPECT_EQ(wrong, 0) << config_name(v.name, c) << (cycle ? " cycle" : " path") << ": first d["
                          << first_i << "][" << first_j
                          << "] = " << (wrong ? got.at(first_i, first_j) : 0);
      if (cycle) {
        EXPECT_EQ(got.at(1, 0), 0x7FFE);
      }
    }
  }
}

// A graph past what 16 bits hold: the solve computes min(distance, 0x7FFF) for every pair,
// 0x7FFF coming back as unreachable, and the exactness proof (core/precision.hpp) then fails on
// the result, as apsp checks it: the wrong entries are caught, never taken as distances.
TEST(Sm90U16, ALongChainSaturatesAndFailsTheProof) {
  const Variant& v = u16();
  GraphSpec s;
  s.kind = GraphKind::kChain;
  s.num_vertices = 300;
  s.wmin = s.wmax = 200;  // 299 * 200 = 59800
  const DistMatrix input = DistMatrix::from_edges(generate(s));
  ASSERT_NE(admission_problem(v, 300, max_finite_entry(input)), "") << "the bench never runs it";
  ASSERT_EQ(weights_fit(kPrecisionU16x2, 200), "");
  DistMatrix expected = input;
  floyd_warshall_blocked(expected);
  for (size_t k = 0; k < expected.size(); ++k)
    if (expected.data()[k] >= kInf16) expected.data()[k] = kInf;
  CudaStream stream;
  const DistMatrix got = solve(v, v.defaults, input, stream);
  EXPECT_FALSE(compare(got, expected)) << describe(compare(got, expected));
  EXPECT_NE(exactness_fault(max_finite_entry(got), 200, kInf16), "");
  // 160 vertices (159 * 200 = 31800 < 0x7FFF): the proof holds on the result, which is the
  // reference.
  s.num_vertices = 160;
  const DistMatrix short_input = DistMatrix::from_edges(generate(s));
  DistMatrix short_expected = short_input;
  floyd_warshall_blocked(short_expected);
  const DistMatrix short_got = solve(v, v.defaults, short_input, stream);
  EXPECT_FALSE(compare(short_got, short_expected)) << describe(compare(short_got, short_expected));
  EXPECT_EQ(exactness_fault(max_finite_entry(short_got), 200, kInf16), "");
}

// An input 16 bits do not hold (an entry of 40000): -1 in every entry, not distances that look
// right.
TEST(Sm90U16, AnInputSixteenBitsDoNotHoldComesBackAsMinusOne) {
  const Variant& v = u16();
  CudaStream stream;
  DistMatrix two(2);
  two.at(0, 1) = 40000;
  const DistMatrix back = solve(v, v.defaults, two, stream);
  EXPECT_EQ(back.at(0, 0), -1);
  EXPECT_EQ(back.at(1, 0), -1);
}

// apsp_bench --cuda-graph: the solve (its 16-bit buffer allocated and freed on the stream, and
// the side stream of lookahead 1 and 3) captured once and replayed, twice, from a fresh input.
TEST(Sm90U16, ReplaysAsACudaGraph) {
  const Variant& v = u16();
  const DistMatrix input = DistMatrix::from_edges(generate(random_graph(700, 0.01, 1, 1)));
  DistMatrix expected = input;
  floyd_warshall_blocked(expected);
  // The captured solve makes its own side stream (and destroys the plain solve's) inside it.
  for (const Config& c : all_configs(v)) test::expect_replays_as_cuda_graph(v, c, input, expected);
}

// Through the bench's own executor and workbench: verified against the CPU reference, and the
// solve's device memory counts the 16-bit buffer it allocated (the pool's high-water mark).
TEST(Sm90U16, TheBenchVerifiesItAndCountsItsScratch) {
  const EdgeList g = generate(random_graph(1500, 0.004, 1, 1));
  const size_t l2 = query_device().l2_bytes;
  harness::Workbench bench(g, [l2](Target t, int) { return harness::make_executor(t, l2); });
  const Variant& v = u16();
  const harness::Verdict verdict = bench.verify(v, v.defaults, true);
  EXPECT_EQ(verdict.verified, "cpu-reference") << verdict.error;
  const uint64_t pairs = scratch_bytes(v, v.defaults, 1500);
  EXPECT_GE(verdict.memory.solve_bytes, uint64_t{1500} * 1500 * 4 + pairs - 256)
      << "the int32 matrix and the 16-bit copy (" << pairs << " bytes)";
}

}  // namespace
}  // namespace apsp
