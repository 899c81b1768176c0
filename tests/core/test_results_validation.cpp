// What the results reader (core/results: results_from_json, load_results) and the tuning
// database reader refuse besides malformed JSON: a file that contradicts itself (a median outside
// its samples, the same run twice), absurd values (a 1e300 median, a 1e7 speedup, n beyond
// kMaxN), an unknown `verified`; and a file that cannot be read, named with its path. Markdown
// cells escape what would break a table.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <limits>

#include "core/results.hpp"
#include "core/tables.hpp"
#include "core/tuning_db.hpp"
#include "tests/support/message_of.hpp"

namespace apsp {
namespace {

using nlohmann::json;

json run_json(const json& changes = json::object()) {
  json run = {{"variant", "sm90"},       {"config", {{"tile", 64}}},
              {"name", "sm90[tile=64]"}, {"n", 1000},
              {"verified", "naive"},     {"samples_ms", {0.58, 0.61, 0.59}},
              {"median_ms", 0.59},       {"pct_of_ceiling", 11.0},
              {"updates_per_s", 1.7e12}, {"speedup_vs_naive", 40},
              {"speedup_ci95", {39, 41}}};
  run.update(changes);
  return run;
}

json results_of(const std::vector<json>& runs) {
  return {{"schema", "apsp-bench/1"},
          {"context", {{"device", {{"name", "NVIDIA H200"}}}, {"ceiling_updates_per_s", 16.5e12}}},
          {"runs", runs}};
}

// The reader's one line for a file of one run with `changes`; "" when it reads.
std::string error_of(const json& results) {
  try {
    results_from_json(results);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}
std::string run_error(const json& changes) { return error_of(results_of({run_json(changes)})); }

TEST(ResultsValidation, AMedianLiesWithinItsSamples) {
  EXPECT_EQ(run_error(json::object()), "");
  EXPECT_EQ(run_error({{"median_ms", 9999}}),
            "/runs/0/median_ms: 9999 is outside its samples' range [0.58, 0.61]");
  EXPECT_EQ(run_error({{"median_ms", 0.3}}),
            "/runs/0/median_ms: 0.3 is outside its samples' range [0.58, 0.61]");
  EXPECT_EQ(run_error({{"median_ms", 0.61}}), "") << "the range's ends are in it";
  EXPECT_EQ(run_error({{"median_ms", 0},
                       {"samples_ms", json::array()},
                       {"error", "no device"},
                       {"verified", "skipped"}}),
            "")
      << "a skipped run has no samples and no median";
}

TEST(ResultsValidation, AbsurdTimesAndRatesAreRefusedNotPrinted) {
  EXPECT_EQ(run_error({{"median_ms", 1e300}, {"samples_ms", {1e300}}}),
            "/runs/0/samples_ms/0: 1e+300 ms is more than 1e+09 ms, the longest time a file may "
            "hold");
  EXPECT_EQ(run_error({{"cuda_graph_median_ms", 2e9}}),
            "/runs/0/cuda_graph_median_ms: 2e+09 ms is more than 1e+09 ms, the longest time a "
            "file may hold");
  EXPECT_EQ(run_error({{"phases_ms", {{"other", 0}, {"1", 1e12}}}}),
            "/runs/0/phases_ms/1: 1e+12 ms is more than 1e+09 ms, the longest time a file may "
            "hold");
  EXPECT_EQ(run_error({{"median_ms", std::numeric_limits<double>::infinity()}}),
            "/runs/0/median_ms: null is not a finite number >= 0");
  EXPECT_EQ(run_error({{"updates_per_s", 1e300}}),
            "/runs/0/updates_per_s: 1e+300 is more than 1e+17, the most a rate in updates/s may "
            "be");
  EXPECT_EQ(run_error({{"speedup_vs_naive", 1e7}}),
            "/runs/0/speedup_vs_naive: 1e+07 is more than 1e+06, the most a speedup may be");
  EXPECT_EQ(run_error({{"speedup_ci95", {41, 39}}}),
            "/runs/0/speedup_ci95: [41, 39] is not an interval");
  EXPECT_EQ(run_error({{"cv", 1e5}}),
            "/runs/0/cv: 100000 is more than 1000, the most a coefficient of variation may be");
  EXPECT_EQ(run_error({{"graph", {{"kind", "random"}, {"density", 2}}}}),
            "/runs/0/graph/density: 2 is more than 1, the most an edge probability may be");
  json ceiling = results_of({run_json()});
  ceiling["context"]["ceiling_u16_updates_per_s"] = 1e18;
  EXPECT_EQ(error_of(ceiling),
            "/context/ceiling_u16_updates_per_s: 1e+18 is more than 1e+17, the most a rate in "
            "updates/s may be");
}

TEST(ResultsValidation, SizesAndEfficienciesWithinThePrograms) {
  EXPECT_EQ(run_error({{"n", kMaxN}}), "");
  EXPECT_EQ(run_error({{"n", kMaxN + 1}}), "/runs/0/n: 1048577 is not an integer in [1, 1048576]");
  const auto efficiency = [](double e) {
    return run_error({{"gpus", 8}, {"parallel_efficiency", e}});
  };
  EXPECT_EQ(efficiency(0.93), "");
  EXPECT_EQ(efficiency(1.5), "");
  const std::string why =
      " is not in (0, 1.5]: t(1) / (gpus x t(gpus)) is neither zero nor far "
      "beyond linear";
  EXPECT_EQ(efficiency(0), "/runs/0/parallel_efficiency: 0" + why);
  EXPECT_EQ(efficiency(1.6), "/runs/0/parallel_efficiency: 1.6" + why);
}

TEST(ResultsValidation, VerifiedIsOneOfTheWritersWords) {
  for (const char* v : kVerifiedValues) {
    json changes = {{"verified", v}};
    if (std::string(v) == "FAILED" || std::string(v) == "skipped")
      changes.update({{"samples_ms", json::array()}, {"median_ms", 0}, {"error", "why"}});
    EXPECT_EQ(run_error(changes), "") << v;
  }
  EXPECT_EQ(run_error({{"verified", "banana"}}),
            "/runs/0/verified: \"banana\" is not one of \"cpu-reference\", \"certificate\", "
            "\"naive\", \"baseline\", \"FAILED\", \"skipped\"");
  EXPECT_EQ(run_error({{"verified", "ok\n"}}),
            "/runs/0/verified: \"ok\\x0A\" is not one of \"cpu-reference\", \"certificate\", "
            "\"naive\", \"baseline\", \"FAILED\", \"skipped\"")
      << "one line";
}

TEST(ResultsValidation, EachRunAppearsOnce) {
  EXPECT_EQ(error_of(results_of({run_json(), run_json({{"n", 2000}}), run_json()})),
            "/runs/2: the same run as /runs/0 (sm90[tile=64] at n = 1000 on 1 GPU(s), the same "
            "graph): each run appears once");
  // What tells runs apart: the label (a variant by name beside the same config asked for), the
  // GPU count, the graph.
  EXPECT_EQ(error_of(results_of({run_json(), run_json({{"label", "sm90"}})})), "");
  EXPECT_EQ(error_of(results_of({run_json(), run_json({{"gpus", 2}})})), "");
  EXPECT_EQ(error_of(results_of({run_json({{"graph", {{"kind", "random"}, {"seed", 1}}}}),
                                 run_json({{"graph", {{"kind", "random"}, {"seed", 2}}}})})),
            "");
  EXPECT_NE(error_of(results_of({run_json({{"label", "sm90"}}), run_json({{"label", "sm90"}})})),
            "");
}

// A folder of its own for the file tests.
class ResultsFiles : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = testing::TempDir() + "results_validation.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string dir_;
};

// The reader's refusal, "" when it reads the file.
std::string load_error(const std::function<void()>& load) { return test::message_of(load); }

TEST_F(ResultsFiles, LoadResultsNamesTheFile) {
  const std::string good = file("r.json", results_of({run_json()}).dump());
  EXPECT_EQ(load_results(good).runs.size(), 1u);
  const std::string median = file("m.json", results_of({run_json({{"median_ms", 9999}})}).dump());
  EXPECT_EQ(load_error([&] { load_results(median); }),
            median + ": /runs/0/median_ms: 9999 is outside its samples' range [0.58, 0.61]");
  EXPECT_EQ(load_error([&] { load_results(file("bad.json", "{bad")); }),
            dir_ + "/bad.json: not a results file (not JSON)");
  EXPECT_EQ(load_error([&] { load_results(dir_); }), dir_ + ": is a folder, not a results file");
  EXPECT_EQ(load_error([&] { load_results(dir_ + "/none.json"); }),
            dir_ + "/none.json: cannot open: No such file or directory");
}

TEST_F(ResultsFiles, ATuningDatabaseThatMustBeThere) {
  EXPECT_TRUE(TuningDb::load(dir_ + "/none.json").entries().empty()) << "the tuner starts one";
  EXPECT_EQ(load_error([&] { TuningDb::load_existing(dir_ + "/none.json"); }),
            dir_ + "/none.json: cannot open: No such file or directory");
  EXPECT_EQ(load_error([&] { TuningDb::load(dir_); }),
            dir_ + ": is a folder, not a tuning database");
  const std::string bad = file("bad.json", "{bad");
  EXPECT_EQ(load_error([&] { TuningDb::load(bad); }).rfind(bad + ": not JSON (", 0), 0u);
  json entry = {{"device", {{"name", "NVIDIA H200"}, {"cc", "9.0"}, {"sms", 132}}},
                {"variant", "batched"},
                {"n", 2500},
                {"config", json::object()},
                {"name", "batched"},
                {"graph", {{"kind", "random"}, {"density", 0.1}, {"wmax", 1000}}},
                {"seed", 1},
                {"build", {{"commit", "c"}, {"kernels", "k"}}},
                {"status", "ok"},
                {"samples_ms", {3.0, 3.1}},
                {"median_ms", 9999}};
  const std::string db =
      file("db.json", json{{"schema", "apsp-tuning/2"}, {"entries", {entry}}}.dump());
  EXPECT_EQ(load_error([&] { TuningDb::load_existing(db); }),
            db + ": /entries/0/median_ms: 9999 is outside its samples' range [3, 3.1]");
}

TEST(MarkdownCells, ARunsNameCannotBreakTheTable) {
  EXPECT_EQ(markdown_cell("sm90[tile=64]"), "sm90[tile=64]");
  EXPECT_EQ(markdown_cell("a|b"), "a\\|b");
  EXPECT_EQ(markdown_cell("a\\|b"), "a\\\\\\|b");
  EXPECT_EQ(markdown_cell("two\nlines\r\tand a tab"), "two lines  and a tab");
  const std::string md = render_markdown({{"run", "n"}, {"x|y\nz", "1000"}});
  EXPECT_EQ(md, "| run | n |\n|:---|---:|\n| x\\|y z | 1000 |\n");
}

}  // namespace
}  // namespace apsp
