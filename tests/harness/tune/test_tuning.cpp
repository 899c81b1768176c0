#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/tuning_db.hpp"
#include "harness/tune/search.hpp"
#include "tests/support/scratch_dir.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {
namespace {

const std::vector<Param> kSpace = {Param{"a", {1, 2, 3, 4, 5, 6, 7, 8}, "", "g"},
                                   Param{"b", {1, 2, 3, 4, 5, 6, 7, 8}, "", "g"}};
const Config kStart{{"a", 1}, {"b", 1}, {"fixed", 9}};

// A bowl with its minimum at a = 6, b = 3; a = 8 is "rejected" (nullopt).
std::optional<double> bowl(const Config& c) {
  if (c.at("a") == 8) return std::nullopt;
  EXPECT_EQ(c.at("fixed"), 9) << "parameters outside the space stay as given";
  return 1.0 + std::pow(c.at("a") - 6, 2) + 2 * std::pow(c.at("b") - 3, 2);
}

TEST(Search, GridEvaluatesEveryPointOnceAndFindsTheOptimum) {
  int calls = 0;
  const SearchResult r = grid_search(kSpace, kStart, [&](const Config& c) {
    ++calls;
    return bowl(c);
  });
  EXPECT_EQ(r.evaluated, 64);
  EXPECT_EQ(calls, 64);
  ASSERT_TRUE(r.best);
  EXPECT_EQ(r.best->at("a"), 6);
  EXPECT_EQ(r.best->at("b"), 3);
  EXPECT_DOUBLE_EQ(r.best_score, 1.0);
}

TEST(Search, RandomRespectsBudgetAndSeed) {
  const SearchResult r1 = random_search(kSpace, kStart, 10, 42, bowl);
  const SearchResult r2 = random_search(kSpace, kStart, 10, 42, bowl);
  const SearchResult r3 = random_search(kSpace, kStart, 10, 43, bowl);
  EXPECT_EQ(r1.evaluated, 10);
  ASSERT_EQ(r1.points.size(), 10u);
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(r1.points[i].first, r2.points[i].first);
  bool differs = false;
  for (size_t i = 0; i < 10; ++i) differs |= r1.points[i].first != r3.points[i].first;
  EXPECT_TRUE(differs);
  std::set<Config> distinct;
  for (const auto& p : r1.points) distinct.insert(p.first);
  EXPECT_EQ(distinct.size(), 10u);
  EXPECT_EQ(random_search(kSpace, kStart, 1000, 1, bowl).evaluated, 64)
      << "never more than the space";
}

TEST(Search, LocalSearchImprovesOnItsStartWithinBudget) {
  const SearchResult r = hill_climb(kSpace, kStart, 25, 7, bowl);
  EXPECT_LE(r.evaluated, 25);
  ASSERT_TRUE(r.best);
  EXPECT_LT(r.best_score, *bowl(kStart));
  EXPECT_EQ(r.points.front().first, kStart) << "starts from the given point";
  // With enough budget the smooth bowl is solved exactly.
  const SearchResult full = hill_climb(kSpace, kStart, 40, 7, bowl);
  EXPECT_LE(full.evaluated, 40);
  EXPECT_DOUBLE_EQ(full.best_score, 1.0) << "the bowl's minimum within 40 of its 64 points";
}

// Combinations that are not points (a variant's uncompiled configs) are never visited, counted
// or charged to the budget.
TEST(Search, StrategiesSkipCombinationsThatDoNotExist) {
  const Exists no_b7 = [](const Config& c) { return c.at("b") != 7; };
  int calls = 0;
  const Objective f = [&](const Config& c) {
    ++calls;
    EXPECT_NE(c.at("b"), 7) << "visited a combination that does not exist";
    return bowl(c);
  };
  const SearchResult grid = grid_search(kSpace, kStart, f, no_b7);
  EXPECT_EQ(grid.evaluated, 56);
  EXPECT_EQ(calls, 56);
  EXPECT_EQ(random_search(kSpace, kStart, 1000, 1, f, no_b7).evaluated, 56)
      << "never more than the points";
  const SearchResult some = random_search(kSpace, kStart, 20, 5, f, no_b7);
  EXPECT_EQ(some.evaluated, 20) << "the budget buys 20 points";
  const SearchResult local = hill_climb(kSpace, kStart, 1000, 7, f, no_b7);
  EXPECT_EQ(local.evaluated, 56) << "restarts until every point is visited";
  EXPECT_DOUBLE_EQ(local.best_score, 1.0);
}

TEST(Search, EnumerateKeepsOtherParameters) {
  const auto all = enumerate_space({kSpace[0]}, kStart);
  ASSERT_EQ(all.size(), 8u);
  for (const Config& c : all) EXPECT_EQ(c.at("b"), 1);
}

const DeviceModel kH200{"NVIDIA H200", "9.0", 132};
const GraphKey kRandom{"random", 0.1, 1000};

TuningEntry entry(const DeviceModel& d, int n, int batch, double ms,
                  const std::string& kernels = "k1") {
  TuningEntry e;
  e.device = d;
  e.variant = "batched";
  e.n = n;
  e.config = {{"batch2", batch}, {"batch3", batch}};
  e.name = config_name("batched", e.config);
  e.graph = kRandom;
  e.build = {"abc123", kernels};
  e.status = "ok";
  e.samples_ms = {ms, ms};
  e.median_ms = ms;
  return e;
}

TuningMatch match_for(const DeviceModel& d, const std::string& kernels = "k1") {
  TuningMatch m;
  m.device = d;
  m.graph = kRandom;
  m.kernels = kernels;
  return m;
}

TEST(TuningDb, KeyedByDeviceGraphAndBuild) {
  const DeviceModel other{"Other", "8.0", 108};
  TuningDb db;
  db.upsert(entry(kH200, 2500, 4, 5.0));
  db.upsert(entry(kH200, 2500, 4, 3.0));        // same key: replaces the first
  db.upsert(entry(kH200, 2500, 4, 9.0, "k0"));  // another build: a separate entry
  TuningEntry sparse = entry(kH200, 2500, 4, 7.0);
  sparse.graph.density = 0.01;  // another graph spec: a separate entry
  db.upsert(sparse);
  db.upsert(entry(other, 2500, 4, 1.0));
  EXPECT_EQ(db.entries().size(), 4u);

  const test::ScratchDir scratch;
  const std::string path = scratch.file("tuning_test.json");
  db.save(path);
  const TuningDb back = TuningDb::load(path);
  ASSERT_EQ(back.entries().size(), 4u);
  EXPECT_EQ(back.find(match_for(kH200), "batched[batch2=4,batch3=4]", 2500)->median_ms, 3.0);
  EXPECT_EQ(back.find(match_for(kH200, "k0"), "batched[batch2=4,batch3=4]", 2500)->median_ms, 9.0);
  EXPECT_EQ(back.find(match_for(kH200), "batched[batch2=4,batch3=4]", 10000), nullptr);
  TuningMatch strict = match_for(kH200);
  EXPECT_FALSE(strict.accepts(back.entries()[1])) << "another build is never accepted unless asked";
  EXPECT_FALSE(strict.accepts(back.entries()[2]))
      << "another graph spec is never accepted unless asked";
  strict.any_build = true;
  EXPECT_TRUE(strict.accepts(back.entries()[1]));
  strict.any_graph = true;
  EXPECT_TRUE(strict.accepts(back.entries()[2]));
  EXPECT_FALSE(strict.accepts(back.entries()[3])) << "another device model never";
  // The write went through a temporary file that is gone now.
  for (const auto& f : std::filesystem::directory_iterator(scratch.path()))
    EXPECT_EQ(f.path().string().find("tuning_test.json.tmp"), std::string::npos) << f.path();
}

TEST(TuningDb, VersionOneIsMigratedAndNeverMatches) {
  const test::ScratchDir scratch;
  const std::string path = scratch.file("tuning_v1.json");
  std::ofstream(path)
      << R"({"schema": "apsp-tuning/1", "entries": [{"device": {"name": "NVIDIA H200", "cc": "9.0",
    "sms": 132}, "variant": "batched", "n": 1000, "config": {"batch2": 6, "batch3": 6},
    "name": "batched[batch2=6,batch3=6]", "status": "ok", "samples_ms": [1.0], "median_ms": 1.0,
    "git": "old"}]})";
  std::string note;
  const TuningDb db = TuningDb::load(path, &note);
  ASSERT_EQ(db.entries().size(), 1u);
  EXPECT_NE(note.find("apsp-tuning/1 database migrated to apsp-tuning/2"), std::string::npos)
      << note;
  EXPECT_NE(note.find("kept but never picked"), std::string::npos) << note;
  EXPECT_EQ(db.entries()[0].build.commit, "old");
  TuningMatch m = match_for(kH200);
  EXPECT_FALSE(m.accepts(db.entries()[0]));
  m.any_graph = m.any_build = true;
  EXPECT_TRUE(m.accepts(db.entries()[0]))
      << "kept: usable when the user asks for any build and graph";
  db.save(path);
  std::string again;
  EXPECT_EQ(TuningDb::load(path, &again).entries().size(), 1u);
  EXPECT_EQ(again, "") << "saved as /2";
  std::filesystem::remove(path);
}

TEST(TuningDb, AbsentIsEmptyMalformedIsAnError) {
  EXPECT_TRUE(TuningDb::load("/nonexistent/tuning.json").entries().empty());
  const test::ScratchDir scratch;
  const std::string path = scratch.file("tuning_bad.json");
  std::ofstream(path) << "{\"schema\": \"apsp-bench/1\"}";
  EXPECT_THROW(TuningDb::load(path), std::runtime_error);
  std::ofstream(path) << "not json";
  EXPECT_THROW(TuningDb::load(path), std::runtime_error);
}

}  // namespace
}  // namespace apsp::harness
