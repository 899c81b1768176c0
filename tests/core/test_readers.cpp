// The readers of results files, tuning databases and policies refuse what no run can produce,
// with one line naming the JSON path and the fault (the program puts the file name in front).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/results.hpp"
#include "core/tuning_db.hpp"
#include "harness/tune/policy.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp {
namespace {

#define EXPECT_THROW_MSG(statement, message)                  \
  try {                                                       \
    statement;                                                \
    ADD_FAILURE() << "no exception; expected: " << (message); \
  } catch (const std::runtime_error& e) {                     \
    EXPECT_STREQ(e.what(), message);                          \
  }

using nlohmann::json;

json results_with(const json& run_changes, double ceiling = 16.5e12) {
  json run = {{"variant", "sm90"}, {"config", {{"tile", 64}}}, {"name", "sm90[tile=64]"},
              {"n", 1000},         {"verified", "naive"},      {"samples_ms", {0.5, 0.6}},
              {"median_ms", 0.55}, {"pct_of_ceiling", 11.0}};
  if (run_changes.is_object()) run.update(run_changes);
  return {{"schema", "apsp-bench/1"},
          {"context", {{"device", {{"name", "NVIDIA H200"}}}, {"ceiling_updates_per_s", ceiling}}},
          {"runs", {run}}};
}

std::string results_error(const json& run_changes, double ceiling = 16.5e12) {
  try {
    results_from_json(results_with(run_changes, ceiling));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ResultsReader, RefusesSizesOutOfRangeInsteadOfWrapping) {
  EXPECT_EQ(results_error({{"n", 1e20}}), "/runs/0/n: 1e+20 is not an integer in [1, 1048576]");
  EXPECT_EQ(results_error({{"n", -5}}), "/runs/0/n: -5 is not an integer in [1, 1048576]");
  EXPECT_EQ(results_error({{"n", 0}}), "/runs/0/n: 0 is not an integer in [1, 1048576]");
  EXPECT_EQ(results_error({{"n", 10.5}}), "/runs/0/n: 10.5 is not an integer in [1, 1048576]");
  EXPECT_EQ(results_error({{"n", "1000"}}), "/runs/0/n: expected an integer, found \"1000\"");
  EXPECT_EQ(results_error({{"n", 1000.0}}), "") << "an integral float is the integer";
}

TEST(ResultsReader, DeviceMemoryIsTwoByteCountsWithTheSolveWithinThePeak) {
  const auto memory = [](json solve, json peak) {
    return json{{"device_memory", {{"solve_bytes", solve}, {"peak_bytes", peak}}}};
  };
  EXPECT_EQ(results_error(memory(409010176, 1176408958)), "");
  const Results back = results_from_json(results_with(memory(409010176, 1176408958)));
  EXPECT_EQ(back.runs[0].solve_device_bytes, 409010176u);
  EXPECT_EQ(back.runs[0].peak_device_bytes, 1176408958u);
  EXPECT_EQ(to_json(back)["runs"][0]["device_memory"]["solve_bytes"], 409010176)
      << "written back as read";
  EXPECT_EQ(results_error(memory(-1, 5)),
            "/runs/0/device_memory/solve_bytes: -1 is not an integer in [0, 9223372036854775807]");
  EXPECT_EQ(results_error(memory(7, 5)),
            "/runs/0/device_memory: solve_bytes is larger than peak_bytes");
  EXPECT_EQ(
      results_error(memory(1e30, 5)),
      "/runs/0/device_memory/solve_bytes: 1e+30 is not an integer in [0, 9223372036854775807]");
  EXPECT_EQ(results_error({{"device_memory", 5}}), "/runs/0/device_memory: not an object");
  EXPECT_EQ(results_error({{"device_memory", {{"peak_bytes", 5}}}}),
            "/runs/0/device_memory: no solve_bytes");
}

TEST(ResultsReader, RefusesNegativeAndNonFiniteTimes) {
  EXPECT_EQ(results_error({{"median_ms", -0.9}}),
            "/runs/0/median_ms: -0.9 is not a finite number >= 0");
  EXPECT_EQ(results_error({{"samples_ms", {0.5, -4.6}}}),
            "/runs/0/samples_ms/1: -4.6 is not a finite number >= 0");
  EXPECT_EQ(results_error({{"median_ms", 0.0}}),
            "/runs/0/median_ms: a timed run's median must be positive");
  EXPECT_EQ(results_error({{"speedup_vs_naive", -2}}),
            "/runs/0/speedup_vs_naive: -2 is not a finite number >= 0");
  EXPECT_EQ(results_error({{"samples_ms", "fast"}}),
            "/runs/0/samples_ms: expected an array, found \"fast\"");
  EXPECT_EQ(results_error(json::object(), -1.0),
            "/context/ceiling_updates_per_s: -1.0 is not a finite number >= 0");
}

TEST(ResultsReader, RefusesAShareOfTheCeilingBeyondNoise) {
  EXPECT_EQ(results_error({{"pct_of_ceiling", 1213.7}}, 1.0775e12),
            "/runs/0/pct_of_ceiling: 1213.7% of the measured ceiling (1.08e+12 updates/s in "
            "/context/ceiling_updates_per_s) is impossible beyond noise (105%): the ceiling or the "
            "time is wrong");
  EXPECT_EQ(results_error({{"pct_of_ceiling", 103.0}}), "")
      << "within the noise of two measurements";
  EXPECT_EQ(results_error({{"pct_of_ceiling", 1213.7}, {"verified", "FAILED"}, {"error", "wrong"}}),
            "")
      << "a failed run is not shown as a share";
}

// A 16-bit run (sm90_u16) carries its precision, and its share is against the 16-bit ceiling
// in the context; files from before either field read as int32 and no 16-bit ceiling.
TEST(ResultsReader, SixteenBitRunsAndTheirCeiling) {
  json j =
      results_with({{"precision", "u16x2"}, {"variant", "sm90_u16"}, {"pct_of_ceiling", 80.0}});
  j["context"]["ceiling_u16_updates_per_s"] = 30.5e12;
  const Results r = results_from_json(j);
  EXPECT_EQ(r.runs[0].precision, "u16x2");
  EXPECT_DOUBLE_EQ(r.context.ceiling_u16_updates_per_s, 30.5e12);
  EXPECT_DOUBLE_EQ(r.context.ceiling_for("u16x2"), 30.5e12);
  EXPECT_DOUBLE_EQ(r.context.ceiling_for("int32"), 16.5e12);
  const Results back = results_from_json(to_json(r));  // written and read back the same
  EXPECT_EQ(back.runs[0].precision, "u16x2");
  EXPECT_DOUBLE_EQ(back.context.ceiling_u16_updates_per_s, 30.5e12);
  const Results old = results_from_json(results_with(json::object()));
  EXPECT_EQ(old.runs[0].precision, "int32") << "absent: an older file, all int32";
  EXPECT_EQ(old.context.ceiling_u16_updates_per_s, 0);
  EXPECT_EQ(results_error({{"precision", "fp8"}}),
            "/runs/0/precision: \"fp8\" is not one of \"int32\", \"u16x2\", \"int64\"");
  EXPECT_EQ(results_error({{"precision", 16}}), "/runs/0/precision: expected a string, found 16");
  j["context"]["ceiling_u16_updates_per_s"] = -1;
  EXPECT_THROW_MSG(results_from_json(j),
                   "/context/ceiling_u16_updates_per_s: -1 is not a finite number >= 0");
  j["context"]["ceiling_u16_updates_per_s"] = 1e12;
  j["runs"][0]["pct_of_ceiling"] = 990.0;
  EXPECT_THROW_MSG(results_from_json(j),
                   "/runs/0/pct_of_ceiling: 990.0% of the measured ceiling (1e+12 updates/s in "
                   "/context/ceiling_u16_updates_per_s) is impossible beyond noise (105%): the "
                   "ceiling or the time is wrong");
}

TEST(ResultsReader, MissingFieldsAreNamedByTheirPath) {
  json j = results_with(json::object());
  j["runs"][0].erase("verified");
  try {
    results_from_json(j);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "/runs/0/verified: missing");
  }
}

std::string db_error(const json& entry_changes) {
  json e = {{"device", {{"name", "NVIDIA H200"}, {"cc", "9.0"}, {"sms", 132}}},
            {"variant", "batched"},
            {"n", 2500},
            {"config", {{"batch2", 1}}},
            {"name", "batched[batch2=1]"},
            {"graph", {{"kind", "random"}, {"density", 0.1}, {"wmax", 1000}}},
            {"seed", 1},
            {"build", {{"commit", "c"}, {"kernels", "k"}}},
            {"status", "ok"},
            {"reason", ""},
            {"samples_ms", {3.0, 3.1}},
            {"median_ms", 3.05},
            {"date", "d"}};
  if (entry_changes.is_object()) e.update(entry_changes);
  const test::ScratchDir scratch;
  const std::string path = scratch.file("reader_db.json");
  std::ofstream(path) << json{{"schema", "apsp-tuning/2"}, {"entries", {e}}}.dump();
  try {
    TuningDb::load(path);
  } catch (const std::runtime_error& err) {
    const std::string what = err.what();
    return what.substr(what.find(": ") + 2);  // without the path
  }
  return "";
}

TEST(TuningDbReader, RefusesWhatWouldRankFirstWithoutBeingMeasured) {
  EXPECT_EQ(db_error(json::object()), "");
  EXPECT_EQ(db_error({{"median_ms", -1}}), "/entries/0/median_ms: -1 is not a finite number >= 0");
  EXPECT_EQ(db_error({{"median_ms", 0}}),
            "/entries/0/median_ms: an ok entry's median must be positive");
  EXPECT_EQ(db_error({{"n", 1e20}}), "/entries/0/n: 1e+20 is not an integer in [1, 1048576]");
  EXPECT_EQ(db_error({{"samples_ms", {1.0, -3.0}}}),
            "/entries/0/samples_ms/1: -3.0 is not a finite number >= 0");
  EXPECT_EQ(db_error({{"status", "great"}}),
            "/entries/0/status: \"great\" is not ok, failed or rejected");
  EXPECT_EQ(db_error({{"build", {{"commit", "c"}}}}), "/entries/0/build/kernels: missing");
  EXPECT_EQ(db_error({{"status", "rejected"}, {"median_ms", 0}}), "")
      << "a rejected point has no time";
}

TEST(PolicyReader, RefusesSizesAndTimesNoTunerWrites) {
  json p = {{"schema", "apsp-policy/1"},
            {"device", {{"name", "NVIDIA H200"}, {"cc", "9.0"}, {"sms", 132}}},
            {"provenance", json::object()},
            {"variants",
             {{"sm90",
               {{{"n_min", 1},
                 {"n_max", nullptr},
                 {"config", {{"tile", 64}}},
                 {"tuned_n", 1000},
                 {"median_ms", 0.2}}}}}}};
  EXPECT_NO_THROW(harness::policy_from_json(p, "p.json"));
  p["variants"]["sm90"][0]["tuned_n"] = 1e20;
  try {
    harness::policy_from_json(p, "p.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "p.json: /variants/sm90/0/tuned_n: 1e+20 is not an integer in [1, 2147483647]");
  }
}

// Found by the fuzz targets (tests/fuzz): a wrong type in an optional field escaped as a bare
// nlohmann type_error naming no path, and bytes of the file reached the message unescaped.
TEST(ResultsReader, WrongTypesInOptionalFieldsAreNamedByTheirPath) {
  json r = results_with(json::object());
  r["context"]["host"] = 5;
  EXPECT_THROW_MSG(results_from_json(r), "/context/host: expected a string, found 5");
  r = results_with({{"graph", {{"seed", "one"}}}});
  EXPECT_THROW_MSG(results_from_json(r), "/runs/0/graph/seed: expected an integer, found \"one\"");
  r = results_with({{"graph", {{"wmax", 1e20}}}});
  EXPECT_THROW_MSG(results_from_json(r),
                   "/runs/0/graph/wmax: 1e+20 is not an integer in [0, 2147483647]");
  r = results_with({{"config", {{"tile\n", "64"}}}});
  EXPECT_THROW_MSG(results_from_json(r),
                   "/runs/0/config/tile\\x0A: expected an integer, found \"64\"");
}

TEST(TuningDbReader, ParseFaultsAreOnePrintableLine) {
  try {
    TuningDb::parse(std::string("\n \"entries\": [\x01\x02", 16), "db.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("db.json: not JSON (", 0), 0u) << what;
    EXPECT_EQ(what.find_first_of("\n\x01\x02"), std::string::npos) << what;
  }
  EXPECT_EQ(db_error({{"status", "o\nk"}}),
            "/entries/0/status: \"o\\x0Ak\" is not ok, failed or rejected");
  EXPECT_EQ(db_error({{"reason", 3}}), "/entries/0/reason: expected a string, found 3");
}

TEST(PolicyReader, ConfigValuesAreCheckedIntegers) {
  json p = {{"schema", "apsp-policy/1"},
            {"device", {{"name", "NVIDIA H200"}, {"cc", "9.0"}, {"sms", 132}}},
            {"provenance", json::object()},
            {"variants",
             {{"sm90",
               {{{"n_min", 1},
                 {"n_max", nullptr},
                 {"config", {{"tile", 1e20}}},
                 {"tuned_n", 1000},
                 {"median_ms", 0.2}}}}}}};
  EXPECT_THROW_MSG(
      harness::policy_from_json(p, "p.json"),
      "p.json: /variants/sm90/0/config/tile: 1e+20 is not an integer in [-2147483648, 2147483647]");
  p["variants"]["sm90"][0]["config"]["tile"] = 64;
  // After an open range (n_max null = INT_MAX): n_max + 1 overflowed (UBSan, fuzz_policy).
  p["variants"]["sm90"].push_back({{"n_min", 5},
                                   {"n_max", nullptr},
                                   {"config", json::object()},
                                   {"tuned_n", 5},
                                   {"median_ms", 1}});
  EXPECT_THROW_MSG(harness::policy_from_json(p, "p.json"),
                   "p.json: sm90 has a malformed range at n_min = 5");
  p["variants"]["sm90"].erase(1);
  p["device"]["sms"] = "132";
  EXPECT_THROW_MSG(harness::policy_from_json(p, "p.json"),
                   "p.json: /device/sms: expected an integer, found \"132\"");
}

}  // namespace
}  // namespace apsp
