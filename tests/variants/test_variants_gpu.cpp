// Every variant x every compiled config x the sizes that stress tile edges x graphs with
// unreachable pairs, zero weights and duplicate edges: the device result must equal the CPU
// reference element by element.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/generators.hpp"
#include "core/parallel.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/userkernel/user_kernel.hpp"
#include "harness/verify/certificate.hpp"
#include "tests/variants/pairs_of_rounds_sizes.hpp"
#include "variants/rounds.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

// Not multiples of any tile (31, 33, 63, 65, 127, 129, 191, 200, 300, 1000, 1025) and exact ones;
// 160 and 192 end sm90's last tile exactly at the half it leaves out as padding (tile 64 or
// 128), 129 and 300 within that half.
// APSP_TEST_SIZES=77,100 replaces them (scripts/device-check.sh does so under the sanitizers).
std::vector<int> sizes() {
  std::vector<int> out;
  if (const char* env = std::getenv("APSP_TEST_SIZES")) {
    std::stringstream ss(env);
    for (std::string item; std::getline(ss, item, ',');) out.push_back(std::stoi(item));
    return out;
  }
  return {1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 160, 191, 192, 200, 300, 1000, 1025};
}

enum class Graph { kDense, kSparseUnreachable, kChain, kZeroWeightsDuplicates };
const Graph kGraphs[] = {Graph::kDense, Graph::kSparseUnreachable, Graph::kChain,
                         Graph::kZeroWeightsDuplicates};
const char* name(Graph g) {
  switch (g) {
    case Graph::kDense:
      return "dense";
    case Graph::kSparseUnreachable:
      return "sparse-unreachable";
    case Graph::kChain:
      return "chain";
    case Graph::kZeroWeightsDuplicates:
      return "zero-weights-duplicates";
  }
  return "?";
}

GraphSpec spec(Graph g, int n) {
  GraphSpec s;
  s.num_vertices = n;
  s.seed = 17 * n + static_cast<int>(g);
  switch (g) {
    case Graph::kDense:
      s.density = 0.3;
      break;
    case Graph::kSparseUnreachable:  // 3 components, about 1.5 edges a vertex inside each
      s.kind = GraphKind::kComponents;
      s.components = 3;
      s.density = std::min(1.0, 4.5 / n);
      break;
    case Graph::kChain:
      s.kind = GraphKind::kChain;
      break;
    case Graph::kZeroWeightsDuplicates:
      s.density = std::min(1.0, 8.0 / n);
      s.wmin = 0;
      s.wmax = 3;
      s.duplicates = 0.5;
      break;
  }
  return s;
}

struct Problem {
  DistMatrix input;
  DistMatrix expected;
  int64_t max_weight = 0;  // the input's largest finite entry: what Variant::admits decides on
};

// References are computed once per (graph, n) and shared by every variant and config.
const Problem& problem(Graph g, int n) {
  static std::map<std::pair<Graph, int>, std::unique_ptr<Problem>> cache;
  auto& slot = cache[{g, n}];
  if (!slot) {
    const EdgeList edges = generate(spec(g, n));
    slot = std::make_unique<Problem>(Problem{DistMatrix::from_edges(edges), {}});
    slot->max_weight = max_finite_entry(slot->input);
    slot->expected = slot->input;
    floyd_warshall_blocked(slot->expected);
  }
  return *slot;
}

struct VariantConfig {
  const Variant* variant;
  Config config;
};

// The example user kernels (examples/kernels/), compiled at run time and run in this process,
// with the batched one at the batch sizes that leave partial batches at the matrix's edge.
std::vector<VariantConfig> user_kernel_configs(bool defaults_only) {
  static const harness::UserKernels kernels = harness::register_user_kernels(
      {APSP_SOURCE_DIR "/examples/kernels/fw32.cu",
       APSP_SOURCE_DIR "/examples/kernels/fw_batched.cu"},
      {}, Target::kDevice, {has_device() ? harness::arch_of(query_device()) : "sm_90", ""});
  std::vector<VariantConfig> out;
  for (const Variant* v : kernels.variants) out.push_back({v, v->defaults});
  if (defaults_only) return out;
  const Variant* batched = kernels.variants[1];
  for (auto [b2, b3] : {std::pair{1, 1}, {3, 5}, {8, 8}})
    out.push_back({batched, {{"BATCH2", b2}, {"BATCH3", b3}, {"TILE", 32}}});
  return out;
}

// Every compiled config and the example user kernels; only the defaults with
// APSP_TEST_DEFAULTS_ONLY=1 (sanitizer runs).
std::vector<VariantConfig> every_config() {
  const bool defaults_only = std::getenv("APSP_TEST_DEFAULTS_ONLY") != nullptr;
  std::vector<VariantConfig> out;
  for (const Variant& v : registry()) {
    if (defaults_only) {
      out.push_back({&v, v.defaults});
      continue;
    }
    for (const Config& c : all_configs(v)) out.push_back({&v, c});
  }
  for (const VariantConfig& c : user_kernel_configs(defaults_only)) out.push_back(c);
  return out;
}

class VariantTest : public testing::TestWithParam<VariantConfig> {};

// Solves every graph of kGraphs at n with (v, config) in the layout it declares (rows padded for
// sm90: harness/measure/matrix_layout.hpp), the buffer poisoned first (bytes 0x7f: a huge distance, so
// a padding entry the layout failed to set shows), and compares with the reference. A graph the
// variant does not admit (sm90_u16: distances beyond 16 bits) is left out, as the harness leaves
// it out; sm90_u16 meets the zero-weight graphs at every size here, the others where they fit
// (its own graphs are in test_u16_gpu.cpp).
void expect_reference(const Variant& v, const Config& config, int n, CudaStream& stream) {
  const std::string why = v.check(config, n, query_device());
  ASSERT_EQ(why, "") << "a compiled config must run on this device at n = " << n;
  const int pitch = row_pitch(v, config, n);
  DeviceBuffer<int> d(buffer_elems(v, config, n));
  DistMatrix got(n);
  for (Graph g : kGraphs) {
    const Problem& p = problem(g, n);
    if (!admission_problem(v, n, p.max_weight).empty()) continue;
    APSP_CUDA_CHECK(cudaMemsetAsync(d.get(), 0x7f, d.size() * sizeof(int), stream.get()));
    harness::put_matrix(d.get(), pitch, p.input.data(), n, cudaMemcpyHostToDevice, stream.get());
    v.run(d.get(), n, config, stream.get(), nullptr);
    harness::get_matrix(got.data(), d.get(), pitch, n, cudaMemcpyDeviceToHost, stream.get());
    stream.synchronize();
    const Mismatch m = compare(got, p.expected);
    ASSERT_FALSE(m) << config_name(v.name, config) << " n=" << n << " graph=" << name(g) << ": "
                    << m.count << " elements differ, first d[" << m.i << "][" << m.j
                    << "] = " << m.got << ", expected " << m.expected;
  }
}

TEST_P(VariantTest, EqualsTheCpuReference) {
  CudaStream stream;
  for (int n : sizes()) {
    expect_reference(*GetParam().variant, GetParam().config, n, stream);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// sm90's padded layout at sizes where tile 64 pads by 63 and tile 128 by 127 (2945), or both
// by a few (3001), with the padding that sm90's own kernels never write checked to stay put.
TEST(Sm90, SolvesInItsPaddedLayoutAndLeavesThePadding) {
  const Variant& v = *find_variant("sm90");
  CudaStream stream;
  Config tile64 = v.defaults, pairs = v.defaults;  // and the default itself: tile 128
  tile64["tile"] = 64, tile64["chunk"] = 16, tile64["per_thread"] = 4;
  pairs["lookahead"] = 3;  // tile 128, pairs of rounds
  for (int n : {2945, 3001}) {
    for (const Config& c : {tile64, v.defaults, pairs}) {
      ASSERT_TRUE(is_built(v, c)) << config_name(v.name, c);
      ASSERT_EQ(row_pitch(v, c, n) % c.at("tile"), 0);
      expect_reference(v, c, n, stream);
      if (testing::Test::HasFatalFailure()) return;
      const size_t cells = buffer_elems(v, c, n);
      std::vector<int> all(cells);
      DeviceBuffer<int> d(cells);
      const int pitch = row_pitch(v, c, n);
      harness::put_matrix(d.get(), pitch, problem(Graph::kDense, n).input.data(), n,
                          cudaMemcpyHostToDevice, stream.get());
      v.run(d.get(), n, c, stream.get(), nullptr);
      APSP_CUDA_CHECK(cudaMemcpyAsync(all.data(), d.get(), cells * sizeof(int),
                                      cudaMemcpyDeviceToHost, stream.get()));
      stream.synchronize();
      size_t changed = 0;
      for (size_t i = 0; i < cells; ++i)
        changed += (i / pitch >= static_cast<size_t>(n) || i % pitch >= static_cast<size_t>(n)) &&
                   all[i] != harness::kPadding;
      EXPECT_EQ(changed, 0u) << config_name(v.name, c) << " n=" << n << ": padding entries changed";
    }
  }
}

// Pairs of rounds (kernels/sm90_pairs.cuh) at 4 to 12 tiles of 128 (pairs_of_rounds_sizes says why).
TEST(Sm90, PairsOfRoundsAtFourToTwelveTiles) {
  const Variant& v = *find_variant("sm90");
  Config c = v.defaults;
  c["lookahead"] = 3;
  ASSERT_TRUE(is_built(v, c)) << config_name(v.name, c);
  CudaStream stream;
  for (int n : apsp::test::pairs_of_rounds_sizes()) {
    expect_reference(v, c, n, stream);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// apsp_bench --cuda-graph on tile 64's pairs of rounds: the side stream and, where E is deferred
// (lookahead 4 and 5), the third stream fork from the captured stream and join it again, and
// the replays give the reference, twice, each from a fresh input. 1000 is 16 tiles of 64 (an even
// end), 1100 18 with a partial tile, 1200 19 (an odd last round).
TEST(Sm90, TileSixtyFourPairsReplayAsACudaGraph) {
  const Variant& v = *find_variant("sm90");
  for (int la : {3, 4, 5}) {
    const Config c{{"tile", 64}, {"chunk", 16}, {"per_thread", 4}, {"lookahead", la}};
    ASSERT_TRUE(is_built(v, c)) << config_name(v.name, c);
    for (int n : {1000, 1100, 1200}) {
      const Problem& p = problem(Graph::kSparseUnreachable, n);
      CudaStream stream;
      const int pitch = row_pitch(v, c, n);
      DeviceBuffer<int> d(buffer_elems(v, c, n));
      auto put = [&] {
        harness::put_matrix(d.get(), pitch, p.input.data(), n, cudaMemcpyHostToDevice,
                            stream.get());
      };
      // One plain solve first, as the bench verifies before it captures: kernel attributes are
      // set outside the capture.
      put();
      v.run(d.get(), n, c, stream.get(), nullptr);
      stream.synchronize();
      cudaGraph_t graph;
      APSP_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
      v.run(d.get(), n, c, stream.get(), nullptr);
      APSP_CUDA_CHECK(cudaStreamEndCapture(stream.get(), &graph));
      cudaGraphExec_t exec;
      APSP_CUDA_CHECK(cudaGraphInstantiate(
          &exec, graph, cudaGraphInstantiateFlagUseNodePriority));  // as the bench
      for (int replay = 0; replay < 2; ++replay) {
        put();
        APSP_CUDA_CHECK(cudaGraphLaunch(exec, stream.get()));
        DistMatrix got(n);
        harness::get_matrix(got.data(), d.get(), pitch, n, cudaMemcpyDeviceToHost, stream.get());
        stream.synchronize();
        const Mismatch m = compare(got, p.expected);
        EXPECT_FALSE(m) << config_name(v.name, c) << " n=" << n << " replay " << replay << ": "
                        << m.count << " elements differ";
      }
      APSP_CUDA_CHECK(cudaGraphExecDestroy(exec));
      APSP_CUDA_CHECK(cudaGraphDestroy(graph));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VariantTest, testing::ValuesIn(every_config()),
                         [](const testing::TestParamInfo<VariantConfig>& info) {
                           std::string s = config_name(info.param.variant->name, info.param.config);
                           for (char& ch : s)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return s;
                         });

// A variant that skipped a barrier or a tile would fail above; this checks the test itself
// can fail: a matrix one step short of the answer is caught.
TEST(VariantHarness, DetectsAWrongResult) {
  const Problem& p = problem(Graph::kChain, 65);
  const Mismatch m = compare(p.input, p.expected);
  EXPECT_TRUE(m);
}

// ---- The index-width boundaries ---------------------------------------------------------------
// n = 46341 is the first size whose n^2 passes 2^31: an index i * n + j computed in int overflows
// in the last row. n = 65537 is the first past 2^32: one computed in unsigned wraps in the last
// two rows (and the int one overflows from row 32768 on). No CPU reference reaches these sizes,
// so a full solve is checked by the shortest-path certificate on the device
// (harness/verify/certificate.hpp), and each course variant's kernels by their last round
// (variants/rounds.hpp) on an input whose answer after that round is known in closed form.
//   By default: full solves of sm90 at 46341 and 65537 and of regtile64 at 46341, and one round
// of naive, blocked32, regtile64, batched and batched_edge at 65537: about a minute on an H100.
//   APSP_TEST_LARGE_VARIANTS=all (or a list: naive,blocked32) solves those variants in full at
// the sizes of APSP_TEST_LARGE_SIZES (default 46341,65537); naive takes about 5 minutes at
// 46341 and 13 at 65537, blocked32 30 s and 80 s. APSP_TEST_LARGE_VARIANTS=none: no full solve.

constexpr int kSignedBoundary = 46341;    // n^2 > 2^31 - 1
constexpr int kUnsignedBoundary = 65537;  // n^2 > 2^32

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

struct LargeCase {
  std::string variant;
  int n;
};
void PrintTo(const LargeCase& c, std::ostream* os) { *os << c.variant << " at n = " << c.n; }

std::vector<LargeCase> large_cases() {
  const char* env = std::getenv("APSP_TEST_LARGE_VARIANTS");
  if (!env)
    return {{"sm90", kSignedBoundary}, {"regtile64", kSignedBoundary}, {"sm90", kUnsignedBoundary}};
  std::vector<int> sizes = {kSignedBoundary, kUnsignedBoundary};
  if (const char* list = std::getenv("APSP_TEST_LARGE_SIZES")) {
    sizes.clear();
    for (const std::string& item : split(list)) sizes.push_back(std::stoi(item));
  }
  std::vector<std::string> names;
  if (std::string(env) == "all") {
    for (const Variant& v : registry())
      if (v.target == Target::kDevice && !v.test_only) names.push_back(v.name);
  } else if (std::string(env) != "none") {
    names = split(env);
  }
  std::vector<LargeCase> out;
  for (int n : sizes)
    for (const std::string& name : names) out.push_back({name, n});
  return out;
}

// "" when the device has `bytes` free (less a margin for the runtime), else why not.
std::string lacks_memory(size_t bytes) {
  size_t free = 0, total = 0;
  APSP_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  const size_t margin = size_t{512} << 20;
  if (free >= bytes + margin) return "";
  return "needs " + std::to_string(bytes + margin) + " bytes of device memory, " +
         std::to_string(free) + " free";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The adjacency matrix of `graph` into d (rows `pitch` apart, kPadding outside n x n: the layout
// put_matrix writes), a band of rows at a time through pinned memory: no n x n host matrix
// (17 GB at n = 65537).
void upload_adjacency(const EdgeList& graph, int* d, int pitch, CudaStream& stream) {
  const int n = graph.num_vertices;
  if (pitch > n) {
    APSP_CUDA_CHECK(cudaMemsetAsync(
        d, harness::kPaddingByte, static_cast<size_t>(pitch) * pitch * sizeof(int), stream.get()));
  }
  std::vector<int64_t> start(static_cast<size_t>(n) + 1, 0);  // the edges by source
  for (const Edge& e : graph.edges) ++start[static_cast<size_t>(e.src) + 1];
  for (int i = 0; i < n; ++i) start[i + 1] += start[i];
  std::vector<Edge> by_src(graph.edges.size());
  std::vector<int64_t> fill(start.begin(), start.end() - 1);
  for (const Edge& e : graph.edges) by_src[fill[e.src]++] = e;
  const int band = std::max(1, static_cast<int>((size_t{64} << 20) / (sizeof(int) * n)));
  PinnedBuffer<int32_t> host(static_cast<size_t>(band) * n);
  std::fill(host.get(), host.get() + host.size(), kInf);
  for (int r0 = 0; r0 < n; r0 += band) {
    const int rows = std::min(band, n - r0);
    auto row = [&](int i) { return host.get() + static_cast<size_t>(i - r0) * n; };
    for (int i = r0; i < r0 + rows; ++i) {
      for (int64_t e = start[i]; e < start[i + 1]; ++e)
        row(i)[by_src[e].dst] = std::min(row(i)[by_src[e].dst], by_src[e].w);
      row(i)[i] = 0;
    }
    APSP_CUDA_CHECK(cudaMemcpy2DAsync(d + static_cast<size_t>(r0) * pitch, sizeof(int) * pitch,
                                      host.get(), sizeof(int) * n, sizeof(int) * n, rows,
                                      cudaMemcpyHostToDevice, stream.get()));
    stream.synchronize();
    for (int i = r0; i < r0 + rows; ++i) {  // back to all kInf for the next band
      for (int64_t e = start[i]; e < start[i + 1]; ++e) row(i)[by_src[e].dst] = kInf;
      row(i)[i] = kInf;
    }
  }
}

class LargeSolve : public testing::TestWithParam<LargeCase> {};

// The declared default config solves a random graph of E = 10^6 (drawn with replacement, weights
// 0..1000: duplicate and zero-weight edges) and the certificate accepts the result; then an entry
// at the end of the last row (past 2^31 from the matrix's start) is made wrong and the
// certificate must name that row.
TEST_P(LargeSolve, CertificateAcceptsTheSolve) {
  const Variant* v = find_variant(GetParam().variant);
  ASSERT_NE(v, nullptr) << "APSP_TEST_LARGE_VARIANTS names no variant '" << GetParam().variant
                        << "'";
  const int n = GetParam().n;
  const Config& config = v->defaults;
  const std::string why = v->check(config, n, query_device());
  ASSERT_EQ(why, "") << config_name(v->name, config) << " must run at n = " << n;
  GraphSpec spec;
  spec.num_vertices = n;
  spec.num_edges = 1000000;
  spec.wmin = 0;
  spec.seed = n;
  const EdgeList graph = generate(spec);
  if (const std::string outside = admission_problem(*v, n, max_edge_weight(graph));
      !outside.empty())
    GTEST_SKIP()
        << outside;  // (sm90_u16 named in APSP_TEST_LARGE_VARIANTS: weights 0..1000 do not fit)
  const harness::InEdges in_edges = harness::InEdges::of(graph);
  const int pitch = row_pitch(*v, config, n);
  const size_t cells = buffer_elems(*v, config, n);
  harness::DeviceCertificate cert(in_edges);
  if (const std::string lack = lacks_memory(cells * sizeof(int) + cert.peak_check_bytes());
      !lack.empty()) {
    GTEST_SKIP() << config_name(v->name, config) << " at n = " << n << " " << lack;
  }
  CudaStream stream;
  DeviceBuffer<int> d(cells);
  auto t0 = std::chrono::steady_clock::now();
  upload_adjacency(graph, d.get(), pitch, stream);
  const double upload_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  v->run(d.get(), n, config, stream.get(), nullptr);
  stream.synchronize();
  const double solve_s = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(cert.check(d.get(), pitch, stream.get()), "")
      << config_name(v->name, config) << " n=" << n;
  const double check_s = seconds_since(t0);
  std::printf("%s n=%d: upload %.1f s, solve %.1f s, certificate %.1f s\n",
              config_name(v->name, config).c_str(), n, upload_s, solve_s, check_s);
  if (HasFailure()) return;
  // The last finite entry of the last row off the diagonal, one too large: an edge into it
  // relaxes it, and only row n - 1 changed, so the fault named is in that row (and the
  // first pass, over the edges, catches it at once if the edge n - 1 -> j itself is tight).
  std::vector<int> last(n);
  int32_t* row = d.get() + static_cast<size_t>(n - 1) * pitch;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(last.data(), row, n * sizeof(int), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  int j = n - 2;
  while (j >= 0 && last[j] >= kInf) --j;
  ASSERT_GE(j, 0) << "the last row reaches nothing: pick another graph";
  const int wrong = last[j] + 1;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(row + j, &wrong, sizeof wrong, cudaMemcpyHostToDevice, stream.get()));
  const std::string fault = cert.check(d.get(), pitch, stream.get());
  EXPECT_EQ(fault.rfind("d[" + std::to_string(n - 1) + "][", 0), 0u)
      << "planted d[" << n - 1 << "][" << j << "] = " << wrong << "; the certificate said: '"
      << fault << "'";
}

INSTANTIATE_TEST_SUITE_P(LargeN, LargeSolve, testing::ValuesIn(large_cases()),
                         [](const testing::TestParamInfo<LargeCase>& info) {
                           return info.param.variant + "_" + std::to_string(info.param.n);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LargeSolve);

// One round's input and answer. k0 = n - 1 lies in the last round of every schedule. The
// matrix holds P = kPadding (a large finite distance) but for the edges i -> k0 of weight a(i),
// k0 -> j of weight b(j), the superdiagonal i -> i + 1 of weight c(i), and the zero diagonal.
// With a and b in [A, 1.25 A) and c in [1.5 A, 3 A), every path through the round's vertices K
// other than i -> k0 -> j is at least 2.5 A > a(i) + b(j) (two c edges, or a c edge and an a or b
// edge, or three edges), and every P edge dearer still. So after the round (Floyd-Warshall over
// the k of K) d[i][j] = min(D[i][j], a(i) + b(j)), with a(k0) = b(k0) = 0: the first round's
// answer for any K that holds k0, naive's single step k0 included.
struct RoundProblem {
  static constexpr int kA = 1 << 20;
  int n, k0;
  std::vector<int32_t> a, b, c;
  explicit RoundProblem(int n_) : n(n_), k0(n_ - 1), a(n_), b(n_), c(n_) {
    SplitMix64 rng(static_cast<uint64_t>(n_));
    for (int i = 0; i < n; ++i) {
      a[i] = kA + static_cast<int32_t>(rng.below(kA / 4));
      b[i] = kA + static_cast<int32_t>(rng.below(kA / 4));
      c[i] = kA + kA / 2 + static_cast<int32_t>(rng.below(3 * kA / 2));
    }
    a[k0] = b[k0] = 0;
  }
  int32_t input(int i, int j) const {
    if (i == j) return 0;
    if (i == k0) return b[j];
    if (j == k0) return a[i];
    if (j == i + 1) return c[i];
    return harness::kPadding;
  }
  int32_t answer(int i, int j) const { return std::min(input(i, j), a[i] + b[j]); }
  // The input into d (n x n on the device): a byte fill, then four strided copies.
  void upload(int* d, CudaStream& stream) const {
    const size_t row = sizeof(int) * n, diagonal = row + sizeof(int);
    // Each vector in pinned memory of its own until the copies are done: they are asynchronous,
    // so a host write into one of them (the zeros over a, before) races with its DMA.
    PinnedBuffer<int32_t> vectors(4 * static_cast<size_t>(n));
    int32_t* const pa = vectors.get();
    int32_t* const pb = pa + n;
    int32_t* const pc = pb + n;
    int32_t* const pz = pc + n;
    std::copy(a.begin(), a.end(), pa);
    std::copy(b.begin(), b.end(), pb);
    std::copy(c.begin(), c.end(), pc);
    std::fill(pz, pz + n, 0);
    const cudaStream_t s = stream.get();
    const auto h2d = cudaMemcpyHostToDevice;
    APSP_CUDA_CHECK(cudaMemsetAsync(d, harness::kPaddingByte, row * n, s));
    APSP_CUDA_CHECK(
        cudaMemcpy2DAsync(d + 1, diagonal, pc, sizeof(int), sizeof(int), n - 1, h2d, s));      // c
    APSP_CUDA_CHECK(cudaMemcpy2DAsync(d + k0, row, pa, sizeof(int), sizeof(int), n, h2d, s));  // a
    APSP_CUDA_CHECK(cudaMemcpyAsync(d + static_cast<size_t>(k0) * n, pb, row, h2d, s));        // b
    APSP_CUDA_CHECK(
        cudaMemcpy2DAsync(d, diagonal, pz, sizeof(int), sizeof(int), n, h2d, s));  // 0 (after a)
    stream.synchronize();
  }
};

struct RoundMismatch {
  int64_t count = 0;
  int i = -1, j = -1;
  int32_t got = 0, expected = 0;
};

// Every entry of d (n x n on the device) against p.answer, a band of rows at a time.
RoundMismatch check_round(const RoundProblem& p, const int* d, CudaStream& stream) {
  const int n = p.n;
  const int band = std::max(1, static_cast<int>((size_t{64} << 20) / (sizeof(int) * n)));
  PinnedBuffer<int32_t> host(static_cast<size_t>(band) * n);
  RoundMismatch all;
  for (int r0 = 0; r0 < n; r0 += band) {
    const int rows = std::min(band, n - r0);
    APSP_CUDA_CHECK(cudaMemcpyAsync(host.get(), d + static_cast<size_t>(r0) * n,
                                    sizeof(int) * rows * n, cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
    std::vector<RoundMismatch> found(rows);
    parallel_for(rows, 0, [&](int r) {
      const int i = r0 + r;
      const int32_t* got = host.get() + static_cast<size_t>(r) * n;
      const int32_t ai = p.a[i];
      for (int j = 0; j < n; ++j) {
        // a(i) + b(j) everywhere but on the diagonal and the superdiagonal
        const int32_t expected = j == i || j == i + 1 ? p.answer(i, j) : ai + p.b[j];
        if (got[j] == expected) continue;
        if (found[r].count++ == 0) found[r] = {1, i, j, got[j], expected};
      }
    });
    for (const RoundMismatch& m : found) {
      if (m.count == 0) continue;
      if (all.count == 0) all = {0, m.i, m.j, m.got, m.expected};  // the first, row-major
      all.count += m.count;
    }
  }
  return all;
}

class LargeRound : public testing::TestWithParam<const RoundSchedule*> {};

// The last round of the declared default config at n = 65537, checked entry by entry: the
// kernels' indices at their largest (the last row and column of tiles, phase 3 over the whole
// matrix) and the grids at their widest.
TEST_P(LargeRound, LastRoundAtTheUnsignedBoundary) {
  const RoundSchedule& schedule = *GetParam();
  const Variant* v = find_variant(schedule.variant);
  ASSERT_NE(v, nullptr);
  const int n = kUnsignedBoundary;
  ASSERT_EQ(row_pitch(*v, v->defaults, n), n) << "a round schedule runs on an n x n matrix";
  ASSERT_EQ(v->check(v->defaults, n, query_device()), "");
  if (const std::string lack = lacks_memory(static_cast<size_t>(n) * n * sizeof(int));
      !lack.empty()) {
    GTEST_SKIP() << lack;
  }
  const RoundProblem problem(n);
  CudaStream stream;
  DeviceBuffer<int> d(static_cast<size_t>(n) * n);
  const auto t0 = std::chrono::steady_clock::now();
  problem.upload(d.get(), stream);
  const int last = schedule.count(n) - 1;
  schedule.run(d.get(), n, v->defaults, last, last + 1, stream.get(), nullptr);
  stream.synchronize();
  const RoundMismatch m = check_round(problem, d.get(), stream);
  std::printf("%s n=%d: round %d of %d checked in %.1f s\n", schedule.variant, n, last, last + 1,
              seconds_since(t0));
  EXPECT_EQ(m.count, 0) << config_name(v->name, v->defaults) << " n=" << n << ", round " << last
                        << ": first d[" << m.i << "][" << m.j << "] = " << m.got << ", expected "
                        << m.expected;
}

INSTANTIATE_TEST_SUITE_P(LargeN, LargeRound,
                         testing::Values(&kNaiveRounds, &kBlocked32Rounds, &kRegtile64Rounds,
                                         &kBatchedRounds, &kBatchedEdgeRounds),
                         [](const testing::TestParamInfo<const RoundSchedule*>& info) {
                           return std::string(info.param->variant);
                         });

}  // namespace
}  // namespace apsp
