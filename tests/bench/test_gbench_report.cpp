// --gbench-json: the samples of each run as Google Benchmark's JSON, written atomically.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/cli/gbench_report.hpp"

namespace apsp::harness {
namespace {

TEST(GbenchReport, UnknownFlagsAndTheOutputFlagsAreRefused) {
  EXPECT_THROW(init_gbench_flags("apsp_bench", {"--benchmark_bogus=1"}), std::invalid_argument);
  EXPECT_THROW(init_gbench_flags("apsp_bench", {"--benchmark_out=x.json"}), std::invalid_argument);
  EXPECT_NO_THROW(init_gbench_flags("apsp_bench", {"--benchmark_min_time=0.5"}));
}

TEST(GbenchReport, WritesEachRunsSamplesAndNothingElse) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("apsp-gbench-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "g.json").string();
  Results r;
  RunResult run;
  run.name = "naive";
  run.n = 100;
  run.samples_ms = {2.0, 4.0, 3.0};
  r.runs.push_back(run);
  RunResult failed = run;  // no samples: not a benchmark
  failed.name = "broken";
  failed.samples_ms.clear();
  r.runs.push_back(failed);
  write_gbench_json(r, path);
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(path));
  ASSERT_EQ(j.at("benchmarks").size(), 1u);
  const nlohmann::json& b = j["benchmarks"][0];
  EXPECT_EQ(b.at("name"), "naive/n=100/random(seed=1,density=0,wmax=0)/manual_time");
  EXPECT_EQ(b.at("iterations"), 3);
  EXPECT_NEAR(b.at("real_time").get<double>(), 3.0, 1e-9);  // the mean of the samples, in ms
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "no temporary left";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace apsp::harness
