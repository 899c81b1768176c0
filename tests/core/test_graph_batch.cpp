// The batched solve's host side: what is refused before any work, the narrowest exact type, and
// the CPU solve (solve_batch_host, the batch_cpu variant) against the single-graph reference
// graph by graph, ragged and padded, in every element type.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>

#include "core/reference.hpp"
#include "tests/support/graph_batch_cases.hpp"
#include "variants/batch_variant.hpp"

namespace apsp {
namespace {

std::string fault_of(const GraphBatch& b) { return check_batch(b.view(), nullptr); }

TEST(GraphBatch, RefusesMalformedBatches) {
  GraphBatch b = test::mixed_batch(40, 3, true, 1);
  BatchFacts facts;
  ASSERT_EQ(check_batch(b.view(), &facts), "");
  EXPECT_EQ(facts.max_n, 64);
  EXPECT_EQ(facts.max_weight, 3);

  GraphBatch decreasing = b;
  decreasing.vertex_ptr[3] = decreasing.vertex_ptr[2] - 1;
  EXPECT_NE(fault_of(decreasing).find("vertex_ptr decreases at graph 2"), std::string::npos);

  GraphBatch outside = b;
  outside.dst[0] = outside.vertex_ptr.back() + 5;
  EXPECT_NE(fault_of(outside).find("edge 0"), std::string::npos) << fault_of(outside);

  GraphBatch negative = b;
  negative.weight[1] = -2;
  EXPECT_NE(fault_of(negative).find("edge 1 weighs -2"), std::string::npos);

  GraphBatch big;
  EdgeList huge;
  huge.num_vertices = kMaxBatchGraphVertices + 1;
  big.add(huge);
  EXPECT_NE(fault_of(big).find("513 vertices"), std::string::npos);

  GraphBatch shifted = b;
  shifted.edge_ptr[0] = 1;
  EXPECT_NE(fault_of(shifted).find("edge_ptr[0] is 1"), std::string::npos);
}

TEST(GraphBatch, NarrowestExactType) {
  EXPECT_EQ(narrowest_exact_type(254, std::nullopt), BatchDistType::kU8);  // hops, n = 255
  EXPECT_EQ(narrowest_exact_type(255, std::nullopt), BatchDistType::kI16);
  EXPECT_EQ(narrowest_exact_type(14, 510), BatchDistType::kI16);  // Graphormer's 510
  EXPECT_EQ(narrowest_exact_type(14, -1), BatchDistType::kI16);
  EXPECT_EQ(narrowest_exact_type(32766, std::nullopt), BatchDistType::kI16);
  EXPECT_EQ(narrowest_exact_type(32767, std::nullopt), BatchDistType::kI32);
  EXPECT_EQ(narrowest_exact_type(kInf - 1, std::nullopt), BatchDistType::kI32);
  EXPECT_THROW(narrowest_exact_type(kInf, std::nullopt), std::invalid_argument);
  EXPECT_THROW(narrowest_exact_type(20, 16), std::invalid_argument);  // could be a distance
}

TEST(GraphBatch, OutputMustHoldTheBatch) {
  BatchFacts facts{.max_n = 30, .vertices = 30, .edges = 10, .max_weight = 1};
  BatchOutputView out{.type = BatchDistType::kU8, .padded_n = 29, .unreachable = 255};
  EXPECT_NE(check_batch_output(out, facts).find("29 x 29"), std::string::npos);
  out.padded_n = 30;
  EXPECT_EQ(check_batch_output(out, facts), "");
  out.unreachable = -1;
  EXPECT_NE(check_batch_output(out, facts).find("uint8 cannot hold"), std::string::npos);
  out.type = BatchDistType::kI16;
  EXPECT_EQ(check_batch_output(out, facts), "");
  out.unreachable = 29;
  EXPECT_NE(check_batch_output(out, facts).find("could be a distance"), std::string::npos);
}

// Every graph's block of `dist` (element type T) against the single-graph reference.
template <class T>
void expect_reference(const GraphBatch& b, const BatchOutputView& out) {
  for (int64_t g = 0; g < b.graphs(); ++g) {
    const DistMatrix want = solve_reference(b.graph(g), 1);
    const int n = want.n();
    const int pitch = out.padded_n > 0 ? out.padded_n : n;
    const T* block = static_cast<const T*>(out.dist) +
                     (out.padded_n > 0 ? g * int64_t{pitch} * pitch : out.offsets[g]);
    for (int i = 0; i < pitch; ++i) {
      for (int j = 0; j < pitch; ++j) {
        const int64_t expected = i >= n || j >= n        ? out.pad_value
                                 : want.at(i, j) >= kInf ? out.unreachable
                                                         : want.at(i, j);
        ASSERT_EQ(int64_t{block[int64_t{i} * pitch + j]}, expected)
            << "graph " << g << " (n = " << n << ") entry " << i << ", " << j;
      }
    }
  }
}

template <class T>
void check_cpu_solve(const GraphBatch& b, std::optional<int64_t> unreachable, bool padded) {
  BatchFacts facts;
  ASSERT_EQ(check_batch(b.view(), &facts), "");
  BatchOutputView out;
  out.type = narrowest_exact_type(longest_possible_distance(facts), unreachable);
  ASSERT_EQ(bytes_of(out.type), static_cast<int>(sizeof(T)));
  out.unreachable = unreachable.value_or(default_unreachable(out.type));
  const std::vector<int64_t> offsets = ragged_offsets(b.vertex_ptr.data(), b.graphs());
  out.offsets = padded ? nullptr : offsets.data();
  out.padded_n = padded ? facts.max_n + 3 : 0;
  out.pad_value = padded ? -7 : 0;
  if (std::is_unsigned_v<T>) out.pad_value = 200;
  ASSERT_EQ(check_batch_output(out, facts), "");
  const size_t elems = padded ? b.graphs() * size_t(out.padded_n) * out.padded_n : offsets.back();
  std::vector<T> dist(elems, T(99));
  out.dist = dist.data();
  find_batch_variant("batch_cpu")->run({b.view(), out, facts.max_n}, {}, nullptr, 2);
  expect_reference<T>(b, out);
}

TEST(GraphBatch, CpuSolveEqualsTheReferenceGraphByGraph) {
  const GraphBatch hops = test::mixed_batch(255, 1, /*weighted=*/false, 2);
  check_cpu_solve<uint8_t>(hops, std::nullopt, false);
  check_cpu_solve<uint8_t>(hops, std::nullopt, true);
  check_cpu_solve<int16_t>(hops, 510, false);
  const GraphBatch short_weights = test::mixed_batch(kMaxBatchGraphVertices, 64, true, 3);
  check_cpu_solve<int16_t>(short_weights, -1, true);
  const GraphBatch long_weights = test::mixed_batch(300, 1000000, true, 4);
  check_cpu_solve<int32_t>(long_weights, std::nullopt, false);
  check_cpu_solve<int32_t>(long_weights, -1, true);
}

// Molecule-like batches: sizes in range, at most four bonds an atom, every bond both ways, one
// connected molecule each (a tree with ring closures), rings present, the same for the same seed.
TEST(GraphBatch, MoleculeBatches) {
  const GraphBatch b = molecule_batch(2000, 15, 4, 3, 51, 7);
  ASSERT_EQ(check_batch(b.view(), nullptr), "");
  EXPECT_FALSE(b.weighted);
  int64_t rings = 0, vertices = 0;
  for (int64_t g = 0; g < b.graphs(); ++g) {
    const EdgeList m = b.graph(g);
    ASSERT_GE(m.num_vertices, 3);
    ASSERT_LE(m.num_vertices, 51);
    std::vector<int> degree(m.num_vertices);
    for (const Edge& e : m.edges) ++degree[e.src];
    for (int d : degree) ASSERT_LE(d, 4);
    const DistMatrix d = solve_reference(m, 1);
    for (int i = 0; i < d.n(); ++i)
      for (int j = 0; j < d.n(); ++j) ASSERT_EQ(d.at(i, j), d.at(j, i));  // bonds both ways
    for (int j = 0; j < d.n(); ++j) ASSERT_LT(d.at(0, j), kInf) << "graph " << g;
    rings += static_cast<int64_t>(m.edges.size()) / 2 - (m.num_vertices - 1);
    vertices += m.num_vertices;
  }
  EXPECT_GT(rings, 0);
  EXPECT_NEAR(static_cast<double>(vertices) / b.graphs(), 15.0, 0.5);
  const GraphBatch again = molecule_batch(2000, 15, 4, 3, 51, 7);
  EXPECT_EQ(again.src, b.src);
  EXPECT_EQ(again.vertex_ptr, b.vertex_ptr);
}

TEST(GraphBatch, RegistryHoldsTheKind) {
  for (const char* name : {"batch_cpu", "batch_simple", "batch_shared"}) {
    EXPECT_NE(find_batch_variant(name), nullptr) << name;
  }
  const BatchVariant& shared = *find_batch_variant("batch_shared");
  const std::vector<Config> configs = all_batch_configs(shared);
  EXPECT_EQ(configs.size(), 9u);
  EXPECT_EQ(configs.front(), shared.defaults);
  EXPECT_EQ(find_variant("batch_shared"), nullptr);  // not a single-graph variant
}

}  // namespace
}  // namespace apsp
