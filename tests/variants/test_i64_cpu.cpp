// blocked_i64 as the registry declares it, and the int64 ceiling the bench measures for it (no
// device needed; its solves are tests/variants/test_i64_gpu.cpp's).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/precision.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

constexpr int32_t kMaxWeight = std::numeric_limits<int32_t>::max();  // 2^31 - 1

// The bench measures the int64 ceiling only for a plan with an int64 variant.
TEST(ResultsWide, TheInt64CeilingIsMeasuredWhereAnInt64VariantRuns) {
  const Variant* wide = find_variant("blocked_i64");
  ASSERT_NE(wide, nullptr);
  harness::Plan plan;
  harness::Request request;
  request.variant = find_variant("sm90");
  plan.requests = {request};
  EXPECT_EQ(harness::ceiling_precisions(plan),
            (std::vector<std::string>{kPrecisionInt32, kPrecisionU16x2}));
  request.variant = wide;
  plan.requests.push_back(request);
  EXPECT_EQ(harness::ceiling_precisions(plan),
            (std::vector<std::string>{kPrecisionInt32, kPrecisionU16x2, kPrecisionInt64}));
}

// blocked_i64 declares the 64-bit path: int64, run_wide beside run, the caller's matrix unpadded
// with its int64 copy as scratch, every graph of int32 weights admitted, a small space.
TEST(VariantWide, BlockedI64DeclaresIt) {
  const Variant* v = find_variant("blocked_i64");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->precision, kPrecisionInt64);
  EXPECT_TRUE(v->run);
  EXPECT_TRUE(v->run_wide);
  EXPECT_EQ(row_pitch(*v, v->defaults, 1000), 1000) << "no padding";
  EXPECT_EQ(scratch_bytes(*v, v->defaults, 1000), 1000u * 1000 * 8) << "its int64 copy";
  EXPECT_EQ(admission_problem(*v, kMaxN, kMaxWeight), "")
      << "every distance of int32 weights on 2^20 vertices is below 2^51";
  EXPECT_NE(admission_problem(*v, 3, int64_t{1} << 53), "");
  EXPECT_LE(all_configs(*v).size(), 4u) << "a small space: the build stays fast";
  for (const Config& c : all_configs(*v)) EXPECT_EQ(v->check(c, 1537, harness::nominal_h200()), "");
}

}  // namespace
}  // namespace apsp
