// A sweep tells each run as it finishes (Observer::finished) and a tuning run each leaderboard
// (tune's board_done), with everything finished so far and its statistics, so that the programs
// keep them on disk before the next run starts. Through the CPU-backed test variants.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>

#include "harness/pipeline/pipeline.hpp"
#include "harness/tune/tuning.hpp"
#include "tests/harness/pipeline/cpu_session.hpp"

namespace apsp::harness {
namespace {

using test::cpu_session;

TEST(FinishedRuns, EachRunIsToldAsItFinishesWithItsStatistics) {
  Plan p;
  p.sizes = {30, 40};
  p.baseline = "cpu_naive";
  p.graph.spec.density = 0.2;
  p.graph.spec.wmax = 9;
  // A wrong variant too: its FAILED run is finished as well.
  p.requests = select_requests("cpu_fw,cpu_wrong", {});
  add_baseline(p, false);
  p.sampling = {2, 3, 0.0, false};
  p.ceiling_s = 0;
  std::vector<Results> told;
  Observer obs;
  obs.finished = [&](const Results& so_far) { told.push_back(so_far); };
  const Outcome out = run_plan(p, cpu_session(), obs);
  EXPECT_TRUE(out.results.complete);
  ASSERT_EQ(out.results.runs.size(), 6u);
  ASSERT_EQ(told.size(), 6u) << "once per run";
  for (size_t i = 0; i < told.size(); ++i) {
    EXPECT_FALSE(told[i].complete);
    ASSERT_EQ(told[i].runs.size(), i + 1) << "every run finished so far, the last one just now";
    for (size_t j = 0; j <= i; ++j) {
      const RunResult& then = told[i].runs[j];
      const RunResult& last = out.results.runs[j];
      EXPECT_EQ(then.name, last.name);
      EXPECT_EQ(then.n, last.n);
      EXPECT_EQ(then.verified, last.verified);
      EXPECT_EQ(then.samples_ms, last.samples_ms);
      EXPECT_DOUBLE_EQ(then.median_ms, last.median_ms) << "statistics of the finished runs";
      EXPECT_EQ(then.speedup_vs_naive.has_value(), last.speedup_vs_naive.has_value());
      if (then.speedup_vs_naive && last.speedup_vs_naive) {
        EXPECT_DOUBLE_EQ(*then.speedup_vs_naive, *last.speedup_vs_naive);
      }
    }
  }
  EXPECT_EQ(told.back().runs.back().verified, out.results.runs.back().verified);
  EXPECT_TRUE(std::any_of(told.begin(), told.end(),
                          [](const Results& r) { return r.runs.back().verified == "FAILED"; }));
  // The reader keeps the mark both ways; files without it are whole.
  EXPECT_FALSE(results_from_json(to_json(told.front())).complete);
  EXPECT_TRUE(results_from_json(to_json(out.results)).complete);
}

TEST(FinishedRuns, EachLeaderboardIsToldAsItsSearchFinishes) {
  std::string folder = testing::TempDir() + "apsp-finished-boards-XXXXXX";
  ASSERT_NE(mkdtemp(folder.data()), nullptr);
  const std::string db_path = folder + "/db.json";
  TuneOptions o;
  o.group = "cpu";
  o.baseline = "cpu_naive";
  o.solver = "cpu_fw";
  o.sampling = {3, 3, 0.0, false};
  o.graph.density = 0.2;
  o.graph.wmax = 9;
  const Session s = cpu_session();
  TuningDb db;
  std::vector<TuneReport> told;
  const TuneReport report = tune(tunable_variants("", "cpu"), {60, 80}, o, s, db, db_path, {},
                                 [&](const TuneReport& so_far) { told.push_back(so_far); });
  EXPECT_TRUE(report.complete);
  ASSERT_EQ(report.boards.size(), 2u);
  ASSERT_EQ(told.size(), 2u) << "once per (variant, n)";
  for (size_t i = 0; i < told.size(); ++i) {
    EXPECT_FALSE(told[i].complete);
    ASSERT_EQ(told[i].boards.size(), i + 1);
    EXPECT_EQ(told[i].boards.back().n, report.boards[i].n);
    EXPECT_EQ(told[i].boards.back().rows.size(), report.boards[i].rows.size());
  }
  EXPECT_EQ(leaderboards_json(told[0], s).at("complete"), false);
  EXPECT_EQ(leaderboards_json(report, s).at("complete"), true);
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace apsp::harness
