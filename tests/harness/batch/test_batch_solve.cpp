// The batched solve's entry point on the host: every fault before any work, the plan's type,
// layout and variant, and its solve equal to the CPU solve it plans.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "harness/batch/batch_solve.hpp"
#include "tests/harness/batch/plan_fault.hpp"
#include "tests/support/graph_batch_cases.hpp"

namespace apsp::harness {
namespace {

BatchRequest host_request(const GraphBatch& b) {
  BatchRequest r;
  r.graphs = b.view();
  r.edges = static_cast<int64_t>(b.src.size());
  return r;
}

TEST(BatchSolve, RefusesBeforeAnyWork) {
  const GraphBatch b = test::mixed_batch(100, 3, true, 5);
  BatchRequest r = host_request(b);
  EXPECT_EQ(plan_fault(r), "");
  r.edges += 1;
  EXPECT_NE(plan_fault(r).find("but there are"), std::string::npos);
  r = host_request(b);
  r.variant = "batch_shared";
  EXPECT_NE(plan_fault(r).find("batch_shared solves a batch on the GPU"), std::string::npos);
  r.variant = "batch_nothing";
  EXPECT_NE(plan_fault(r).find("no batched variant 'batch_nothing'"), std::string::npos);
  r = host_request(b);
  r.unreachable = 5;
  EXPECT_NE(plan_fault(r).find("could be a distance"), std::string::npos);
  r = host_request(b);
  r.padded_n = 50;
  EXPECT_NE(plan_fault(r).find("cannot hold a graph of 100 vertices"), std::string::npos);
  GraphBatch bad = b;
  bad.weight[3] = -1;
  EXPECT_NE(plan_fault(host_request(bad)).find("edge 3 weighs -1"), std::string::npos);
}

TEST(BatchSolve, PlansTheNarrowestTypeAndTheLayout) {
  GraphBatch hops = test::mixed_batch(200, 1, false, 6);
  BatchRequest r = host_request(hops);
  BatchPlan p = plan_batch(r);
  EXPECT_EQ(p.out.type, BatchDistType::kU8);
  EXPECT_EQ(p.out.unreachable, 255);
  EXPECT_EQ(p.variant->name, "batch_cpu");
  EXPECT_EQ(p.elements, ragged_offsets(hops.vertex_ptr.data(), hops.graphs()).back());
  r.unreachable = 510;  // Graphormer's
  r.padded_n = 0;       // the largest graph
  p = plan_batch(r);
  EXPECT_EQ(p.out.type, BatchDistType::kI16);
  EXPECT_EQ(p.out.padded_n, 200);
  EXPECT_EQ(p.out.pad_value, 510);
  EXPECT_EQ(p.elements, hops.graphs() * 200 * 200);
}

TEST(BatchSolve, SolvesWhatItPlans) {
  const GraphBatch b = test::mixed_batch(130, 40, true, 8);
  BatchRequest r = host_request(b);
  r.unreachable = -1;
  const BatchPlan p = plan_batch(r);
  ASSERT_EQ(p.out.type, BatchDistType::kI16);
  std::vector<int16_t> got(p.elements), want(p.elements);
  run_batch(r, p, got.data());
  BatchOutputView out = p.out;
  out.dist = want.data();
  solve_batch_host(b.view(), out, 1);
  EXPECT_EQ(got, want);
}

// Without edge_ptr the pointers come from the sources (PyG's edge_index and ptr alone): the same
// plan and solve; edges out of their graph's order are refused, saying why.
TEST(BatchSolve, DerivesEdgePointersFromSources) {
  const GraphBatch b = test::mixed_batch(80, 5, true, 9);
  BatchRequest r = host_request(b);
  const BatchPlan given = plan_batch(r);
  r.graphs.edge_ptr = nullptr;
  const BatchPlan derived = plan_batch(r);
  EXPECT_EQ(derived.host_edge_ptr, b.edge_ptr);
  EXPECT_EQ(derived.elements, given.elements);
  std::vector<int8_t> a(given.elements * bytes_of(given.out.type));
  std::vector<int8_t> c(a.size());
  run_batch(r, derived, c.data());
  run_batch(host_request(b), given, a.data());
  EXPECT_EQ(a, c);

  GraphBatch shuffled = b;  // the first graph with edges swaps its first edge with the last edge
  const size_t first =
      std::find_if(b.edge_ptr.begin() + 1, b.edge_ptr.end(), [](int64_t p) { return p > 0; }) -
      b.edge_ptr.begin() - 1;
  const size_t last = shuffled.src.size() - 1;
  std::swap(shuffled.src[b.edge_ptr[first]], shuffled.src[last]);
  std::swap(shuffled.dst[b.edge_ptr[first]], shuffled.dst[last]);
  BatchRequest bad = host_request(shuffled);
  bad.graphs.edge_ptr = nullptr;
  EXPECT_NE(plan_fault(bad).find("grouped by graph"), std::string::npos) << plan_fault(bad);
}

}  // namespace
}  // namespace apsp::harness
