// Every variant x every compiled config x the sizes that stress tile edges x graphs with
// unreachable pairs, zero weights and duplicate edges: the device result must equal the CPU
// reference element by element.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <memory>
#include <tuple>

#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/generators.hpp"
#include "core/reference.hpp"
#include "harness/matrix_layout.hpp"
#include "harness/user_kernel.hpp"
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
    case Graph::kDense: return "dense";
    case Graph::kSparseUnreachable: return "sparse-unreachable";
    case Graph::kChain: return "chain";
    case Graph::kZeroWeightsDuplicates: return "zero-weights-duplicates";
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
};

// References are computed once per (graph, n) and shared by every variant and config.
const Problem& problem(Graph g, int n) {
  static std::map<std::pair<Graph, int>, std::unique_ptr<Problem>> cache;
  auto& slot = cache[{g, n}];
  if (!slot) {
    const EdgeList edges = generate(spec(g, n));
    slot = std::make_unique<Problem>(Problem{DistMatrix::from_edges(edges), {}});
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
      {APSP_SOURCE_DIR "/examples/kernels/fw32.cu", APSP_SOURCE_DIR "/examples/kernels/fw_batched.cu"}, {},
      Target::kDevice, {has_device() ? harness::arch_of(query_device()) : "sm_90", ""});
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
// sm90: harness/matrix_layout.hpp), the buffer poisoned first (bytes 0x7f: a huge distance, so
// a padding entry the layout failed to set shows), and compares with the reference.
void expect_reference(const Variant& v, const Config& config, int n, CudaStream& stream) {
  const std::string why = v.check(config, n, query_device());
  ASSERT_EQ(why, "") << "a compiled config must run on this device at n = " << n;
  const int pitch = row_pitch(v, config, n);
  DeviceBuffer<int> d(buffer_elems(v, config, n));
  DistMatrix got(n);
  for (Graph g : kGraphs) {
    const Problem& p = problem(g, n);
    APSP_CUDA_CHECK(cudaMemsetAsync(d.get(), 0x7f, d.size() * sizeof(int), stream.get()));
    harness::put_matrix(d.get(), pitch, p.input.data(), n, cudaMemcpyHostToDevice, stream.get());
    v.run(d.get(), n, config, stream.get(), nullptr);
    harness::get_matrix(got.data(), d.get(), pitch, n, cudaMemcpyDeviceToHost, stream.get());
    stream.synchronize();
    const Mismatch m = compare(got, p.expected);
    ASSERT_FALSE(m) << config_name(v.name, config) << " n=" << n << " graph=" << name(g) << ": " << m.count
                    << " elements differ, first d[" << m.i << "][" << m.j << "] = " << m.got << ", expected "
                    << m.expected;
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
  for (int n : {2945, 3001}) {
    for (int tile : {64, 128}) {
      Config c = v.defaults;
      c["tile"] = tile;
      if (tile == 64) c["chunk"] = 16, c["per_thread"] = 4;
      ASSERT_TRUE(is_built(v, c)) << config_name(v.name, c);
      ASSERT_EQ(row_pitch(v, c, n) % tile, 0);
      expect_reference(v, c, n, stream);
      if (testing::Test::HasFatalFailure()) return;
      const size_t cells = buffer_elems(v, c, n);
      std::vector<int> all(cells);
      DeviceBuffer<int> d(cells);
      const int pitch = row_pitch(v, c, n);
      harness::put_matrix(d.get(), pitch, problem(Graph::kDense, n).input.data(), n, cudaMemcpyHostToDevice,
                          stream.get());
      v.run(d.get(), n, c, stream.get(), nullptr);
      APSP_CUDA_CHECK(cudaMemcpyAsync(all.data(), d.get(), cells * sizeof(int), cudaMemcpyDeviceToHost, stream.get()));
      stream.synchronize();
      size_t changed = 0;
      for (size_t i = 0; i < cells; ++i) changed += (i / pitch >= static_cast<size_t>(n) || i % pitch >= static_cast<size_t>(n)) && all[i] != harness::kPadding;
      EXPECT_EQ(changed, 0u) << config_name(v.name, c) << " n=" << n << ": padding entries changed";
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

}  // namespace
}  // namespace apsp
