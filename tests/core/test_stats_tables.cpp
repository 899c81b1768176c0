#include <gtest/gtest.h>

#include "core/results.hpp"
#include "core/stats.hpp"
#include "core/tables.hpp"

namespace apsp {
namespace {

TEST(Stats, MedianOddEvenAndSummary) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  const Summary s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_NEAR(s.stddev, 2.138089935, 1e-9);  // sample standard deviation (n - 1)
  EXPECT_NEAR(s.cv, 2.138089935 / 5, 1e-9);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(Stats, BootstrapIntervalContainsTheRatioAndIsSeeded) {
  const std::vector<double> naive{100, 101, 99, 102, 98, 100, 100};
  const std::vector<double> fast{10, 10.2, 9.9, 10.1, 10, 9.8, 10};
  const auto [lo, hi] = bootstrap_ratio_ci95(naive, fast);
  EXPECT_LE(lo, 10.0);
  EXPECT_GE(hi, 10.0);
  EXPECT_GT(lo, 9.5);
  EXPECT_LT(hi, 10.5);
  EXPECT_EQ(bootstrap_ratio_ci95(naive, fast), bootstrap_ratio_ci95(naive, fast));
  const auto point = bootstrap_ratio_ci95({50}, {5});
  EXPECT_DOUBLE_EQ(point.first, 10);
  EXPECT_DOUBLE_EQ(point.second, 10);
}

Results sample_results() {
  Results r;
  r.context.device = {{"name", "Test GPU"}};
  RunResult naive;
  naive.variant = naive.name = "naive";
  naive.n = 100;
  naive.verified = "cpu-reference";
  naive.samples_ms = {10, 10};
  naive.median_ms = naive.min_ms = 10;
  naive.speedup_vs_naive = 1.0;
  naive.speedup_ci95 = std::pair{1.0, 1.0};
  RunResult fast = naive;
  fast.variant = "batched";
  fast.config = {{"batch2", 6}, {"batch3", 4}};
  fast.name = "batched[batch2=6,batch3=4]";
  fast.samples_ms = {2, 2};
  fast.median_ms = fast.min_ms = 2;
  fast.speedup_vs_naive = 5.0;
  fast.speedup_ci95 = std::pair{4.5, 5.5};
  RunResult bad = fast;
  bad.variant = bad.name = "sm90";
  bad.verified = "FAILED";
  bad.error = "1 elements differ";
  bad.speedup_vs_naive.reset();
  r.runs = {naive, fast, bad};
  return r;
}

TEST(Tables, SpeedupTableGolden) {
  EXPECT_EQ(render_markdown(speedup_grid(sample_results())),
            "| n | naive | batched[batch2=6,batch3=4] | sm90 |\n"
            "|:---|---:|---:|---:|\n"
            "| 100 | 10.00 ms | 2.00 ms (5.0x) | FAILED |\n");
  EXPECT_EQ(render_text(speedup_grid(sample_results())),
            "n       naive  batched[batch2=6,batch3=4]    sm90\n"
            "100  10.00 ms              2.00 ms (5.0x)  FAILED\n");
}

TEST(Tables, DetailTableAddsTheGraphColumnOnlyWhenTimed) {
  Results r = sample_results();
  EXPECT_EQ(detail_grid(r)[0].size(), 9u);
  r.runs[1].graph_median_ms = 1.5;
  const Grid g = detail_grid(r);
  ASSERT_EQ(g[0].back(), "graph ms");
  EXPECT_EQ(g[1].back(), "-");
  EXPECT_EQ(g[2].back(), "1.500");
  EXPECT_EQ(g[3].size(), g[0].size()) << "a FAILED row keeps the table rectangular";
  EXPECT_EQ(g[3][8], "FAILED: 1 elements differ");
}

TEST(Tables, PhaseColumnsAndTheirJson) {
  Results r = sample_results();
  r.runs[1].phases_ms = std::array<double, 4>{0.5, 1.0, 2.0, 3.0};
  const Grid g = detail_grid(r);
  ASSERT_EQ(g[0].size(), 13u);
  EXPECT_EQ(g[0][9], "phase 1 ms");
  EXPECT_EQ(g[2][9], "1.000");
  EXPECT_EQ(g[2][11], "3.000");
  EXPECT_EQ(g[2][12], "0.500");
  EXPECT_EQ(g[1][9], "-");
  EXPECT_EQ(results_from_json(to_json(r)).runs[1].phases_ms, r.runs[1].phases_ms);
}

TEST(Tables, LabelledRunsShareAColumn) {
  Results r = sample_results();
  RunResult other = r.runs[1];
  other.n = 200;
  other.config = {{"batch2", 7}, {"batch3", 7}};
  other.name = "batched[batch2=7,batch3=7]";
  r.runs[1].label = other.label = "batched (tuned)";
  r.runs.push_back(other);
  const Grid g = speedup_grid(r);
  ASSERT_EQ(g[0], (std::vector<std::string>{"n", "naive", "batched (tuned)", "sm90"}));
  EXPECT_EQ(g[2][2], "2.00 ms (5.0x)");
  EXPECT_EQ(results_from_json(to_json(r)).runs[1].label, "batched (tuned)");
}

TEST(Results, JsonRoundTripAndSchemaErrors) {
  const Results r = sample_results();
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["schema"], "apsp-bench/1");
  const Results back = results_from_json(j);
  ASSERT_EQ(back.runs.size(), 3u);
  EXPECT_EQ(back.runs[1].config, r.runs[1].config);
  EXPECT_EQ(back.runs[1].speedup_ci95, r.runs[1].speedup_ci95);
  EXPECT_EQ(back.runs[2].verified, "FAILED");
  EXPECT_EQ(back.runs[2].error, r.runs[2].error);
  EXPECT_EQ(to_json(back), j);

  auto error = [](const nlohmann::json& x) {
    try {
      results_from_json(x);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error(nlohmann::json::array()), "not a results file: no \"schema\" field");
  nlohmann::json v2 = j;
  v2["schema"] = "apsp-bench/2";
  EXPECT_EQ(error(v2), "unknown schema \"apsp-bench/2\" (this build reads \"apsp-bench/1\")");
  nlohmann::json broken = j;
  broken["runs"][1].erase("median_ms");
  EXPECT_EQ(error(broken), "/runs/1/median_ms: missing");  // a JSON pointer to the fault
}

}  // namespace
}  // namespace apsp
