// --gbench-json for compare.py: a run's name is the same whatever its sample count, and names
// its config, n, GPUs and graph; --benchmark_repetitions=K makes K repetitions of different
// samples (consecutive groups), never the same samples K times.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/cli/gbench_report.hpp"

namespace apsp::harness {
namespace {

RunResult timed_run(const std::string& name, int n, std::vector<double> samples) {
  RunResult r;
  r.variant = name.substr(0, name.find('['));
  r.name = name;
  r.n = n;
  r.graph = {"random", 7, 0.25, 100, ""};
  r.samples_ms = std::move(samples);
  return r;
}

class GbenchFile : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::TempDir() + "apsp-gbench-names-XXXXXX";
    ASSERT_NE(mkdtemp(dir_.data()), nullptr);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  nlohmann::json write(const Results& r, int repetitions = 1) {
    const std::string path = dir_ + "/g.json";
    write_gbench_json(r, path, repetitions);
    return nlohmann::json::parse(std::ifstream(path));
  }
  std::string dir_;
};

TEST_F(GbenchFile, NamesAreTheSameWhateverTheSampleCount) {
  Results three, seven;
  three.runs.push_back(timed_run("batched[batch2=2,batch3=5]", 1000, {1, 2, 3}));
  seven.runs.push_back(timed_run("batched[batch2=2,batch3=5]", 1000, {1, 2, 3, 4, 5, 6, 7}));
  const std::string a = write(three)["benchmarks"][0].at("name");
  const std::string b = write(seven)["benchmarks"][0].at("name");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a,
            "batched[batch2=2,batch3=5]/n=1000/random(seed=7,density=0.25,wmax=100)/manual_time");
}

TEST_F(GbenchFile, NamesSayTheGpusTheGraphFileAndTellTwinsApart) {
  Results r;
  r.runs.push_back(timed_run("sm90[tile=64]", 5000, {1, 2, 3}));
  r.runs.back().gpus = 4;
  r.runs.push_back(timed_run("sm90[tile=64]", 5000, {1, 2, 3}));
  r.runs.back().graph = {"file", 1, 0, 0, "g.txt"};
  r.runs.push_back(r.runs.back());  // the same run twice: asked for by name and by its config
  const nlohmann::json j = write(r);
  ASSERT_EQ(j["benchmarks"].size(), 3u);
  EXPECT_EQ(j["benchmarks"][0]["name"],
            "sm90[tile=64]/n=5000/gpus=4/random(seed=7,density=0.25,wmax=100)/manual_time");
  EXPECT_EQ(j["benchmarks"][1]["name"], "sm90[tile=64]/n=5000/file(g.txt)/manual_time");
  EXPECT_EQ(j["benchmarks"][2]["name"], "sm90[tile=64]/n=5000/file(g.txt)/copy=2/manual_time");
}

TEST_F(GbenchFile, RepetitionsAreConsecutiveGroupsOfTheSamples) {
  Results r;
  r.runs.push_back(timed_run("naive", 100, {1, 2, 3, 4, 5, 6, 7}));  // the 7th is left out
  const nlohmann::json j = write(r, 3);
  std::vector<double> times;
  double stddev = -1, mean = -1;
  for (const nlohmann::json& b : j["benchmarks"]) {
    EXPECT_EQ(b["run_name"], "naive/n=100/random(seed=7,density=0.25,wmax=100)/manual_time");
    if (b["run_type"] == "iteration") {
      EXPECT_EQ(b["iterations"], 2);
      times.push_back(b["real_time"]);
    } else if (b["aggregate_name"] == "stddev") {
      stddev = b["real_time"];
    } else if (b["aggregate_name"] == "mean") {
      mean = b["real_time"];
    }
  }
  EXPECT_EQ(times, (std::vector<double>{1.5, 3.5, 5.5}));
  EXPECT_DOUBLE_EQ(mean, 3.5);
  EXPECT_DOUBLE_EQ(stddev, 2.0);
}

TEST_F(GbenchFile, FewerSamplesThanRepetitionsAreRefusedWhole) {
  Results r;
  r.runs.push_back(timed_run("naive", 100, {1, 2, 3, 4}));
  r.runs.push_back(timed_run("blocked32", 100, {1, 2}));
  EXPECT_THROW(write(r, 3), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/g.json"));
  const nlohmann::json j = write(r, 2);
  EXPECT_EQ(std::count_if(j["benchmarks"].begin(), j["benchmarks"].end(),
                          [](const nlohmann::json& b) { return b["run_type"] == "iteration"; }),
            4)
      << "two runs of two repetitions: nothing left registered by the refusal";
}

TEST(GbenchFlags, RepetitionsAreReadAndCheckedAgainstTheFewestSamples) {
  EXPECT_EQ(init_gbench_flags("apsp_bench", {"--benchmark_repetitions=4"}).repetitions, 4);
  EXPECT_EQ(init_gbench_flags("apsp_bench", {}).repetitions, 1);
  EXPECT_THROW(init_gbench_flags("apsp_bench", {"--benchmark_repetitions=0"}),
               std::invalid_argument);
  EXPECT_EQ(repetitions_problem(3, 3), "");
  EXPECT_EQ(repetitions_problem(5, 3),
            "--benchmark_repetitions=5: each repetition is a group of a run's own samples, and a "
            "run may take as few as 3 (--min-reps): give --min-reps 5 or more");
  init_gbench_flags("apsp_bench", {"--benchmark_repetitions=1"});
}

}  // namespace
}  // namespace apsp::harness
