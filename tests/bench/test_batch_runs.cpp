// The batch sweep's parts that need no GPU (harness/cli/batch_runs.hpp): which batch a shape
// makes, which batched variants and configs a command line selects and what it refuses, the
// bytes and updates a solve is counted as, and a measurement of the CPU variant: verified
// against the reference on every graph, then sampled, and where a wrong output first differs.
#include <gtest/gtest.h>

#include <vector>

#include "core/device_info.hpp"
#include "harness/batch/batch_solve.hpp"
#include "harness/cli/batch_runs.hpp"
#include "tests/support/message_of.hpp"

namespace apsp::harness {
namespace {

using test::message_of;

TEST(BatchRuns, ShapesMakeTheirBatches) {
  const GraphBatch fixed = make_batch({50, "fixed", 24, 3, 1});
  ASSERT_EQ(fixed.graphs(), 50);
  for (int64_t g = 0; g < 50; ++g) EXPECT_EQ(fixed.vertex_ptr[g + 1] - fixed.vertex_ptr[g], 24);
  EXPECT_FALSE(fixed.weighted);
  const GraphBatch molecules = make_batch({400, "molecules", 0, 3, 1});
  EXPECT_EQ(molecules.vertex_ptr, molecule_batch(400, 15, 4, 3, 51, 3).vertex_ptr)
      << "gen_graph --kind molecules' batch of the same seed";
  const GraphBatch weighted = make_batch({20, "fixed", 10, 3, 9});
  ASSERT_TRUE(weighted.weighted);
  ASSERT_EQ(weighted.weight.size(), weighted.src.size());
  for (int32_t w : weighted.weight) EXPECT_TRUE(w >= 1 && w <= 9);
  EXPECT_EQ(batch_shape_problem({10, "fixed", 513, 1, 1}),
            "--n 513: a batch's graphs have 1 to 512 vertices");
  EXPECT_EQ(batch_shape_problem({0, "fixed", 16, 1, 1}), "--graphs 0 is not in [1, 2^36]");
  EXPECT_EQ(batch_shape_problem({10, "molecules", 0, 1, 1}), "");
}

TEST(BatchRuns, CasesFromTheCommandLine) {
  const auto all = select_batch_cases("", {});
  ASSERT_FALSE(all.empty());
  for (const BatchCase& c : all) EXPECT_EQ(c.variant->target, Target::kDevice) << c.name;
  const auto picked = select_batch_cases("batch_cpu", {"batch_shared[lanes=16]"});
  ASSERT_EQ(picked.size(), 2u);
  EXPECT_EQ(picked[0].name, "batch_cpu");
  EXPECT_EQ(picked[0].source, "declared default");
  EXPECT_EQ(picked[1].name, "batch_shared[lanes=16,threads=256]");
  EXPECT_EQ(picked[1].source, "asked");
  EXPECT_EQ(select_batch_cases("", {"batch_shared[lanes=8,threads=128]"}).size(), 1u)
      << "configs alone: only they run";
  EXPECT_EQ(message_of([] { select_batch_cases("naive", {}); }),
            "no batched variant 'naive' (with --graphs: batch_cpu, batch_simple, batch_shared)");
  EXPECT_EQ(message_of([] { parse_batch_case("batch_shared[lanes=7]"); }),
            "batch_shared has no 'lanes=7'");
  EXPECT_EQ(message_of([] { parse_batch_case("batch_shared[warps=2]"); }),
            "batch_shared has no 'warps=2'");
  EXPECT_EQ(message_of([] { select_batch_cases("batch_cpu,batch_cpu", {}); }),
            "batch_cpu is asked for twice");
}

TEST(BatchRuns, UpdatesAndBytesOfASolve) {
  const GraphBatch b = make_batch({10, "fixed", 8, 1, 1});
  EXPECT_DOUBLE_EQ(batch_updates(b), 10.0 * 8 * 8 * 8);
  const double edges = static_cast<double>(b.src.size());
  EXPECT_DOUBLE_EQ(batch_bytes(b, 640, BatchDistType::kU8), 3.0 * 11 * 8 + edges * 16 + 640);
  const GraphBatch w = make_batch({10, "fixed", 8, 1, 5});
  EXPECT_DOUBLE_EQ(batch_bytes(w, 640, BatchDistType::kI16), 3.0 * 11 * 8 + edges * 20 + 1280);
}

TEST(BatchRuns, TheCpuVariantIsVerifiedThenSampled) {
  const GraphBatch b = make_batch({300, "molecules", 0, 5, 1});
  BatchBench bench(b);
  SampleOptions sampling;
  sampling.min_reps = 2;
  sampling.max_reps = 3;
  sampling.min_time_s = 0;
  const BatchMeasurement m = bench.measure(parse_batch_case("batch_cpu"), sampling);
  EXPECT_EQ(m.verified, "cpu-reference") << m.error;
  EXPECT_EQ(m.samples_ms.size(), 2u);
  EXPECT_EQ(m.type, BatchDistType::kU8);
  EXPECT_EQ(m.facts.vertices, b.vertex_ptr.back());
}

TEST(BatchRuns, AGpuVariantWithoutADeviceIsSkipped) {
  if (has_device()) GTEST_SKIP() << "a device is present";
  const GraphBatch b = make_batch({5, "fixed", 4, 1, 1});
  BatchBench bench(b);
  const BatchMeasurement m = bench.measure(parse_batch_case("batch_simple"), {});
  EXPECT_EQ(m.verified, "skipped");
  EXPECT_EQ(m.error, "no CUDA device");
}

// Three graphs of 3 vertices, ragged u8: the report names the first wrong graph and its first
// wrong entry, also where that entry is the block's first (0, 0).
TEST(BatchRuns, AWrongOutputIsReportedAtItsFirstDifference) {
  const GraphBatch b = make_batch({3, "fixed", 3, 1, 1});
  BatchPlan plan;
  plan.out.type = BatchDistType::kU8;
  plan.host_offsets = {0, 9, 18, 27};
  const std::vector<uint8_t> want(27, 1);
  EXPECT_EQ(compare_with_reference(b, plan, want.data(), want.data()), "");
  std::vector<uint8_t> got = want;
  got[9] = got[9 + 5] = got[18 + 7] = 0;
  EXPECT_EQ(compare_with_reference(b, plan, got.data(), want.data()),
            "2 of 3 graphs differ from the CPU reference; the first, graph 1 (n = 3), at (0, 0)");
  got[9] = 1;
  EXPECT_EQ(compare_with_reference(b, plan, got.data(), want.data()),
            "2 of 3 graphs differ from the CPU reference; the first, graph 1 (n = 3), at (1, 2)");
}

}  // namespace
}  // namespace apsp::harness
