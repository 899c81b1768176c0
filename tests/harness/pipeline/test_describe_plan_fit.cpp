// The dry run tells the truth: only the runs a real run makes (the baseline not asked for by name
// is not timed above baseline_max_n, by the pipeline's own rule, runs_at), memory in human units,
// and a warning, with `fits` false, where a size does not fit the device it plans for (the real
// run's check, memory_problem). The sizes here fit, or do not, on any device.
#include <gtest/gtest.h>

#include <string>

#include "harness/pipeline/describe_plan.hpp"

namespace apsp::harness {
namespace {

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

Plan plan_of(const std::string& variants, std::vector<int> sizes) {
  Plan p;
  p.sizes = std::move(sizes);
  p.requests = select_requests(variants, {});
  add_baseline(p, false);
  return p;
}

TEST(DryRunTruth, TheBaselineNotAskedForByNameRunsUpToItsLimit) {
  for (const std::string variants : {"sm90", "all"}) {
    const Plan p = plan_of(variants, {1000, 100000});
    const Request& naive = p.requests.front();
    ASSERT_EQ(naive.variant->name, "naive") << variants;
    EXPECT_FALSE(naive.named) << variants;
    EXPECT_TRUE(runs_at(p, naive, 16384)) << variants;
    EXPECT_FALSE(runs_at(p, naive, 16385)) << variants;
    const std::string text = describe_plan(p);
    EXPECT_TRUE(has_line(text, "    n = 1000: naive (declared default)")) << text;
    EXPECT_EQ(text.find("    n = 100000: naive"), std::string::npos) << text;
    EXPECT_NE(text.find("    not run at n = 100000: the baseline, not asked for by name, is not "
                        "timed above n = 16384"),
              std::string::npos)
        << text;
  }
  const Plan all = plan_of("all", {1000, 100000});
  const size_t requests = all.requests.size();
  EXPECT_GE(requests, 7u) << "every variant";
  EXPECT_EQ(describe_plan(all).rfind("plan: " + std::to_string(2 * requests - 1) + " run(s) of " +
                                         std::to_string(requests) + " request(s) at 2 size(s)",
                                     0),
            0u)
      << "naive once, the others twice";
}

TEST(DryRunTruth, TheBaselineAskedForByNameRunsEverywhere) {
  for (const std::string variants : {"naive", "all,naive", "naive,all"}) {
    const Plan p = plan_of(variants, {100000});
    EXPECT_TRUE(p.requests.front().named) << variants;
    EXPECT_TRUE(runs_at(p, p.requests.front(), 100000)) << variants;
  }
  Plan p = plan_of("sm90", {100000});
  p.requests.front().config = Config{};  // --config naive: asked
  EXPECT_TRUE(runs_at(p, p.requests.front(), 100000));
}

TEST(DryRunTruth, MemoryInHumanUnitsAndAWarningWhereItDoesNotFit) {
  bool fits = false;
  const std::string small = describe_plan(plan_of("sm90", {1000}), {}, &fits);
  EXPECT_TRUE(fits) << small;
  EXPECT_EQ(small.find("warning:"), std::string::npos) << small;
  EXPECT_NE(small.find("device memory 9.2 MB"), std::string::npos) << small;
  const std::string huge = describe_plan(plan_of("sm90", {1000, 1000000}), {}, &fits);
  EXPECT_FALSE(fits) << huge;
  EXPECT_NE(huge.find("\n  n = 1000000: verified against certificate; device memory 9.6 TB\n"
                      "  warning: n = 1000000 needs 9.6 TB of device memory, "),
            std::string::npos)
      << huge;
  EXPECT_NE(huge.find(" are free on "), std::string::npos) << huge;
  EXPECT_NE(huge.find(": the plan does not fit\n"), std::string::npos) << huge;
}

TEST(DryRunTruth, SizesAreGivenOnce) {
  EXPECT_EQ(parse_sizes("1000,2500"), (std::vector<int>{1000, 2500}));
  try {
    parse_sizes("1000,2500,1000");
    ADD_FAILURE() << "a size given twice was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--n: n = 1000 is given twice");
  }
}

}  // namespace
}  // namespace apsp::harness
