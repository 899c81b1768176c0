// blocked_i64 (the exact 64-bit path) on the device, every compiled config:
//   - run_wide bit-exact against the 64-bit CPU reference on graphs whose distances pass 2^30
//     (weights up to 2^31 - 1), with unreachable pairs, zero weights, duplicate edges and self
//     loops, on sizes that are no multiple of any tile; and on int64 matrices with entries near
//     2^52 whose sums pass 2^53 where they are not shortest (the FP64 form's rounding range);
//   - run (int32 in and out) bit-exact against the int32 reference, which is min(distance,
//     kInf), on graphs whose distances pass kInf;
//   - the solve replays as a CUDA graph (its int64 copy is a stream-ordered allocation), and the
//     bench's workbench verifies it and counts that copy.
// Run alone: gpu_variant_tests --gtest_filter='*BlockedI64*' (ctest -R gpu_i64). APSP_TEST_SIZES=77,100
// replaces the sizes, as in test_variants_gpu.cpp.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
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
#include "harness/measure/workbench.hpp"
#include "tests/variants/gpu_test_support.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

constexpr int32_t kMaxWeight = std::numeric_limits<int32_t>::max();  // 2^31 - 1

const Variant& wide() {
  const Variant* v = find_variant("blocked_i64");
  if (!v) throw std::runtime_error("blocked_i64 is not registered");
  return *v;
}

// Not multiples of any tile (64), and 1 and 2.
std::vector<int> sizes() { return test::sizes_or_env({1, 2, 63, 65, 127, 1000, 1537}); }

// About per_vertex random edges a vertex, weights in [wmin, wmax] (duplicates and self loops
// among them); a vertex v with v % 4 == 3 has no out-edges, and with `parts` > 1 an edge stays
// inside its part (v % parts): unreachable pairs.
EdgeList random_edges(int n, int per_vertex, int32_t wmin, int32_t wmax, int parts, uint64_t seed) {
  SplitMix64 rng(seed);
  EdgeList g{n, {}};
  const uint64_t span = static_cast<uint64_t>(wmax - wmin) + 1;
  for (int64_t e = 0; e < int64_t{n} * per_vertex; ++e) {
    const int src = static_cast<int>(rng.below(n));
    int dst = static_cast<int>(rng.below(n));
    dst -= (dst % parts + parts - src % parts) % parts;  // dst's part moved to src's
    if (src % 4 == 3 || dst < 0) continue;
    const auto w = static_cast<int32_t>(wmin + static_cast<int64_t>(rng.below(span)));
    g.edges.push_back({src, dst, w});
    if (rng.chance(0.2)) g.edges.push_back({src, dst, w / 2});  // a duplicate: the smaller wins
  }
  return g;
}

EdgeList chain(int n, int32_t w) {
  EdgeList g{n, {}};
  for (int i = 0; i + 1 < n; ++i) g.edges.push_back({i, i + 1, w});
  return g;
}

// Triangles (a, b, c) = (3t, 3t + 1, 3t + 2): a -> b and b -> c weigh 2^52 + a little, a -> c a
// little, and the c's are chained by light edges. Every shortest path holds one heavy edge at
// most (a -> b -> c loses to a -> c), so every distance is below 2^53, while the candidate
// d[a][b] + d[b][c] is past it: the FP64 form's rounding range, which must never win.
DistMatrix64 heavy_triangles(int n, uint64_t seed) {
  SplitMix64 rng(seed);
  DistMatrix64 d(n);
  constexpr int64_t kHeavy = int64_t{1} << 52;
  for (int t = 0; 3 * t + 2 < n; ++t) {
    const int a = 3 * t, b = a + 1, c = a + 2;
    d.at(a, b) = kHeavy + static_cast<int64_t>(rng.below(uint64_t{1} << 40));
    d.at(b, c) = kHeavy + static_cast<int64_t>(rng.below(uint64_t{1} << 40));
    d.at(a, c) = static_cast<int64_t>(rng.below(1000));
    if (c + 3 < n) d.at(c, c + 3) = static_cast<int64_t>(rng.below(uint64_t{1} << 44));
  }
  return d;
}

struct Named {
  std::string name;
  std::function<DistMatrix64(int n)> input;  // the int64 matrix run_wide solves
};

std::vector<Named> wide_graphs() {
  auto from = [](auto make) { return [make](int n) { return DistMatrix64::from_edges(make(n)); }; };
  return {
      {"weights-2^30..2^31-1",
       from([](int n) { return random_edges(n, 3, 1 << 30, kMaxWeight, 1, 11 + n); })},
      {"weights-0..2^31-1-three-parts",
       from([](int n) { return random_edges(n, 4, 0, kMaxWeight, 3, 13 + n); })},
      {"chain-2^31-1", from([](int n) { return chain(n, kMaxWeight); })},
      {"heavy-triangles", [](int n) { return heavy_triangles(n, 17 + n); }},
  };
}

struct Problem {
  DistMatrix64 input, expected;
};

// Each graph's input and 64-bit CPU reference, made once and shared by every config.
const Problem& wide_problem(const Named& g, int n) {
  static std::map<std::pair<std::string, int>, Problem> cache;
  const auto key = std::pair{g.name, n};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Problem p{g.input(n), {}};
  p.expected = p.input;
  floyd_warshall_blocked(p.expected);
  return cache.emplace(key, std::move(p)).first->second;
}

// `input` solved on the device by solve(device pointer), in a buffer poisoned first (0x7f
// bytes), rows n apart: blocked_i64's layout for both of its entry points.
template <class Matrix, class Solve>
Matrix solve_on_device(const Matrix& input, CudaStream& stream, Solve&& solve) {
  using T = typename Matrix::Element;
  DeviceBuffer<T> d(std::max<size_t>(input.size(), 1));
  APSP_CUDA_CHECK(cudaMemsetAsync(d.get(), 0x7f, d.size() * sizeof(T), stream.get()));
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(d.get(), input.data(), input.bytes(), cudaMemcpyHostToDevice, stream.get()));
  solve(d.get());
  Matrix out(input.n());
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(out.data(), d.get(), out.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return out;
}

using test::describe;

int64_t largest_finite(const DistMatrix64& d) {
  int64_t most = 0;
  for (size_t e = 0; e < d.size(); ++e)
    if (d.data()[e] < kInf64) most = std::max(most, d.data()[e]);
  return most;
}

class BlockedI64Config : public testing::TestWithParam<Config> {};

TEST_P(BlockedI64Config, RunWideEqualsThe64BitReference) {
  const Variant& v = wide();
  const Config& c = GetParam();
  CudaStream stream;
  for (int n : sizes()) {
    ASSERT_EQ(v.check(c, n, query_device()), "") << config_name(v.name, c) << " n=" << n;
    for (const Named& g : wide_graphs()) {
      const auto& [input, expected] = wide_problem(g, n);
      ASSERT_LT(largest_finite(expected), int64_t{1} << 53) << g.name << ": the test's own rule";
      if (n >= 60 && g.name != "heavy-triangles") {
        ASSERT_GT(largest_finite(expected), int64_t{1} << 30) << g.name << " n=" << n;
      }
      const Mismatch m =
          compare(solve_on_device(input, stream,
                                  [&](int64_t* d) { v.run_wide(d, n, c, stream.get(), nullptr); }),
                  expected);
      ASSERT_FALSE(m) << config_name(v.name, c) << " n=" << n << " graph=" << g.name << ": "
                      << describe(m);
    }
  }
}

// Weights below kInf, distances past it: the int32 reference clips them to kInf, and so must
// run's narrowing; and an ordinary graph whose distances fit.
TEST_P(BlockedI64Config, RunEqualsTheInt32Reference) {
  const Variant& v = wide();
  const Config& c = GetParam();
  ASSERT_EQ(row_pitch(v, c, 1000), 1000) << "the caller's matrix as it is";
  CudaStream stream;
  for (int n : sizes()) {
    GraphSpec ordinary;
    ordinary.num_vertices = n;
    ordinary.density = std::min(1.0, 8.0 / n);
    ordinary.wmin = 0;
    ordinary.wmax = 3;
    ordinary.duplicates = 0.5;
    ordinary.seed = 5 + n;
    for (const EdgeList& g :
         {random_edges(n, 3, 1 << 28, kInf - 1, 2, 7 + n), chain(n, 1 << 29), generate(ordinary)}) {
      const DistMatrix input = DistMatrix::from_edges(g);
      ASSERT_EQ(admission_problem(v, n, max_finite_entry(input)), "");
      DistMatrix expected = input;
      floyd_warshall_blocked(expected);
      const Mismatch m = compare(
          solve_on_device(input, stream, [&](int* d) { v.run(d, n, c, stream.get(), nullptr); }),
          expected);
      ASSERT_FALSE(m) << config_name(v.name, c) << " n=" << n << " edges=" << g.edges.size() << ": "
                      << describe(m);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BlockedI64, BlockedI64Config, testing::ValuesIn(all_configs(wide())),
                         [](const testing::TestParamInfo<Config>& info) {
                           return test::test_name("blocked_i64", info.param);
                         });

// apsp_bench --cuda-graph: the solve (its int64 copy allocated and freed on the stream) captured
// once and replayed, twice, from a fresh input.
TEST(BlockedI64, ReplaysAsACudaGraph) {
  const Variant& v = wide();
  const DistMatrix input = DistMatrix::from_edges(random_edges(700, 3, 1 << 28, kInf - 1, 1, 3));
  DistMatrix expected = input;
  floyd_warshall_blocked(expected);
  for (const Config& c : all_configs(v)) test::expect_replays_as_cuda_graph(v, c, input, expected);
}

// Through the bench's own executor and workbench: verified against the CPU reference, and the
// solve's device memory counts the int64 copy it allocated (the pool's high-water mark).
TEST(BlockedI64, TheBenchVerifiesItAndCountsItsScratch) {
  const EdgeList g = random_edges(1500, 3, 1, 1000, 1, 9);
  const size_t l2 = query_device().l2_bytes;
  harness::Workbench bench(g, [l2](Target t, int) { return harness::make_executor(t, l2); });
  const Variant& v = wide();
  const harness::Verdict verdict = bench.verify(v, v.defaults, true);
  EXPECT_EQ(verdict.verified, "cpu-reference") << verdict.error;
  const uint64_t copy = scratch_bytes(v, v.defaults, 1500);
  EXPECT_EQ(copy, uint64_t{1500} * 1500 * 8);
  EXPECT_GE(verdict.memory.solve_bytes, uint64_t{1500} * 1500 * 4 + copy)
      << "the int32 matrix and its int64 copy";
}

}  // namespace
}  // namespace apsp
