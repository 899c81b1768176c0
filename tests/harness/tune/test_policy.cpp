// Policies (defaults per device model and n) and the picks from tuning databases that can only
// help: apsp --variant auto and apsp_bench --tuned never take a measured config over the
// shipped default unless the same database measured that default, slower, at that n.
#include <gtest/gtest.h>

#include <set>

#include "harness/pipeline/pipeline.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/solver_choice.hpp"

namespace apsp::harness {
namespace {

DeviceInfo h200() {
  DeviceInfo d = nominal_h200();
  d.name = "NVIDIA H200";
  return d;
}

Policy two_ranges() {
  return policy_from_json(nlohmann::json::parse(R"({"schema": "apsp-policy/1",
    "device": {"name": "NVIDIA H200", "cc": "9.0", "sms": 132}, "provenance": {"command": "test"},
    "variants": {"batched": [
      {"n_min": 1, "n_max": 4999, "config": {"batch2": 2, "batch3": 5}, "tuned_n": 2500, "median_ms": 3.4},
      {"n_min": 5000, "n_max": null, "config": {"batch2": 5, "batch3": 7}, "tuned_n": 10000, "median_ms": 158.0}]}})"),
                          "test");
}

TEST(Policy, RangesPickTheConfigPerSizeOnItsDeviceModel) {
  const std::vector<Policy> policies{two_ranges()};
  const Variant& b = *find_variant("batched");
  const DeviceInfo dev = h200();
  EXPECT_EQ(default_config(b, 1000, &dev, policies).config, (Config{{"batch2", 2}, {"batch3", 5}}));
  EXPECT_EQ(default_config(b, 1000, &dev, policies).source, "policy for n 1..4999");
  EXPECT_EQ(default_config(b, 50000, &dev, policies).config,
            (Config{{"batch2", 5}, {"batch3", 7}}));
  DeviceInfo other = dev;
  other.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(default_config(b, 1000, &other, policies).config, b.defaults)
      << "no policy for this model";
  EXPECT_EQ(default_config(b, 1000, &other, policies).source, "declared default");
  EXPECT_EQ(default_config(b, 1000, nullptr, policies).config, b.defaults) << "no device";
  // Without a policy, sm90 follows its heuristic: tile 64 while a round has few tiles, then tile
  // 64's pairs of rounds up to n = 7071 (to 2236 with E deferred and the pass held to three
  // blocks an SM, to 3464 with E deferred at 4 x 4 a thread, to 4472 with E in the chain, then
  // deferred at 8 x 8), tile 128's (the declared default at lookahead 3) from 7072.
  const Variant& sm90 = *find_variant("sm90");
  EXPECT_EQ(default_config(sm90, 1000, &other, policies).config.at("lookahead"), 2);
  EXPECT_EQ(default_config(sm90, 1788, &other, policies).config.at("lookahead"), 2);
  const Config held{{"tile", 64}, {"chunk", 16}, {"per_thread", 4}, {"lookahead", 4}};
  Config deferred = held, in_chain = held, deferred8 = held;
  deferred["lookahead"] = 5;
  in_chain["lookahead"] = 3;
  deferred8["lookahead"] = 5;
  deferred8["per_thread"] = 8;
  EXPECT_EQ(default_config(sm90, 1789, &other, policies).config, held);
  EXPECT_EQ(default_config(sm90, 2236, &other, policies).config, held);
  EXPECT_EQ(default_config(sm90, 2237, &other, policies).config, deferred);
  EXPECT_EQ(default_config(sm90, 2500, &other, policies).config, deferred);
  EXPECT_EQ(default_config(sm90, 3464, &other, policies).config, deferred);
  EXPECT_EQ(default_config(sm90, 3465, &other, policies).config, in_chain);
  EXPECT_EQ(default_config(sm90, 4472, &other, policies).config, in_chain);
  EXPECT_EQ(default_config(sm90, 4473, &other, policies).config, deferred8);
  EXPECT_EQ(default_config(sm90, 7071, &other, policies).config, deferred8);
  Config pairs = sm90.defaults;
  pairs["lookahead"] = 3;
  EXPECT_EQ(default_config(sm90, 7072, &other, policies).config, pairs);
  EXPECT_EQ(default_config(sm90, 10000, &other, policies).config, pairs);
  // sm90_u16's: the next pivot inside phase 3, tile 64 with the side stream up to 3500, the panel
  // (its declared default), its pairs of rounds from 7072.
  const Variant& u16 = *find_variant("sm90_u16");
  auto u16_at = [&](int n) { return default_config(u16, n, &other, policies).config; };
  EXPECT_EQ(u16_at(1500),
            (Config{{"tile", 64}, {"chunk", 16}, {"per_thread", 8}, {"lookahead", 2}}));
  EXPECT_EQ(u16_at(3500),
            (Config{{"tile", 64}, {"chunk", 16}, {"per_thread", 8}, {"lookahead", 1}}));
  EXPECT_EQ(u16_at(3501), u16.defaults);
  EXPECT_EQ(u16_at(7071), u16.defaults);
  EXPECT_EQ(u16_at(7072),
            (Config{{"tile", 128}, {"chunk", 16}, {"per_thread", 8}, {"lookahead", 3}}));
  // JSON round trip.
  const Policy back = policy_from_json(to_json(policies[0]), "roundtrip");
  EXPECT_EQ(back.variants.at("batched").size(), 2u);
  EXPECT_EQ(back.variants.at("batched")[1].n_max, INT_MAX);
}

TEST(Policy, MalformedTablesAreRefusedWithTheirFault) {
  auto fault = [](const std::string& text) {
    try {
      policy_from_json(nlohmann::json::parse(text), "p.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(fault(R"({"schema": "apsp-bench/1"})"),
            "p.json: not a policy table (schema \"apsp-policy/1\" expected)");
  EXPECT_EQ(fault(R"({"schema": "apsp-policy/1", "device": {}})"), "p.json: /device/name: missing");
  EXPECT_EQ(
      fault(
          R"({"schema": "apsp-policy/1", "device": {"name": "X", "cc": "9.0", "sms": 1}, "provenance": {},
    "variants": {"sm90": [{"n_min": 1, "n_max": 10, "config": {}, "tuned_n": 5, "median_ms": 1},
                          {"n_min": 20, "n_max": null, "config": {}, "tuned_n": 50, "median_ms": 1}]}})"),
      "p.json: sm90 has a malformed range at n_min = 20");
}

// A device may have several tables (sm90_u16's, tuned on unweighted graphs, beside the main
// one), but a variant's ranges come from one of them: the first would hide the other's.
TEST(Policy, NoVariantIsInTwoTablesOfOneDevice) {
  std::set<std::pair<std::string, std::string>> seen;  // (device, variant)
  for (const Policy& p : shipped_policies())
    for (const auto& [variant, ranges] : p.variants)
      EXPECT_TRUE(seen.insert({p.device.name, variant}).second)
          << variant << " twice for " << p.device.name;
}

// The tables compiled into this build must name configs it compiles, with their provenance.
TEST(Policy, ShippedTablesNameCompiledConfigs) {
  for (const Policy& p : shipped_policies()) {
    EXPECT_FALSE(p.provenance.value("command", "").empty()) << p.device.name;
    EXPECT_FALSE(p.provenance.value("date", "").empty()) << p.device.name;
    for (const auto& [variant, ranges] : p.variants) {
      EXPECT_EQ(ranges.front().n_min, 1) << variant;
      EXPECT_EQ(ranges.back().n_max, INT_MAX) << variant;
      for (const PolicyRange& r : ranges)
        EXPECT_EQ(config_problem(variant, r.config), "") << p.device.name;
    }
  }
}

// At every range's n_min, tuned n and n_max of both shipped tables, the heuristic gives the
// config the tables pick there: the one both pick, or, where they differ (configs within 0.6% of
// each other on both GPUs; docs/perf-notes.md), one of the two.
TEST(Policy, Sm90HeuristicHoldsATablesConfigOverEveryRange) {
  const Variant& sm90 = *find_variant("sm90");
  DeviceInfo other = nominal_h200();
  other.name = "a device without a table";
  std::vector<const std::vector<PolicyRange>*> tables;
  for (const Policy& p : shipped_policies())
    if (p.variants.count("sm90")) tables.push_back(&p.variants.at("sm90"));
  ASSERT_EQ(tables.size(), 2u) << "the H100's and the H200's tables";
  auto picks_at = [&](int n) {
    std::vector<Config> picks;
    for (const auto* table : tables)
      for (const PolicyRange& r : *table)
        if (n >= r.n_min && n <= r.n_max) picks.push_back(r.config);
    return picks;
  };
  int checked = 0;
  for (const auto* table : tables) {
    for (const PolicyRange& r : *table) {
      const Config held = sm90.heuristic(r.n_min, other);  // one config over the whole range
      for (int n : {r.n_min, r.tuned_n, r.n_max == INT_MAX ? 30000 : r.n_max}) {
        const std::vector<Config> picks = picks_at(n);
        ASSERT_EQ(picks.size(), 2u) << "both tables cover n = " << n;
        EXPECT_EQ(sm90.heuristic(n, other), held) << "n = " << n;
        EXPECT_TRUE(held == picks[0] || held == picks[1]) << "n = " << n;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 16) << "eight tuned sizes a table";
}

// The largest edge weight of the weighted graphs below: too large for 16 bits (0x7FFF and above),
// so --variant auto solves them with sm90.
constexpr int64_t kWeighted = 40000;

TuningEntry measured(const DeviceInfo& dev, const std::string& text, int n, double ms,
                     const std::string& kernels = current_build().kernels) {
  const NamedConfig c = parse_config(text);
  return TuningEntry{DeviceModel::of(dev),
                     c.variant->name,
                     n,
                     c.config,
                     config_name(c.variant->name, c.config),
                     {"random", 0.1, 1000},
                     1,
                     {"abc", kernels},
                     "ok",
                     "",
                     {ms},
                     ms,
                     ""};
}

// After `tuner --search batch --n 10000`, apsp at V = 10000 must not take
// batched[batch2=1,batch3=7] (158.9 ms) over sm90's default (94.4 ms without the database).
TEST(SolverChoice, ABatchOnlyDatabaseNeverBeatsTheSolversDefault) {
  const DeviceInfo dev = h200();
  const Variant& sm90 = *find_variant("sm90");
  const Config shipped = default_config(sm90, 10000, &dev).config;
  TuningDb db;
  db.upsert(measured(dev, "batched[batch2=1,batch3=7]", 10000, 158.9));
  db.upsert(measured(dev, "batched[batch2=6,batch3=6]", 10000, 161.9));
  // Without the solver's default in the database, nothing is picked.
  SolverChoice c = choose_solver(dev, 10000, kWeighted, &db, "tuning.json");
  EXPECT_EQ(c.chosen.variant, &sm90);
  EXPECT_EQ(c.chosen.config, shipped);
  EXPECT_NE(c.why.find("that include that default"), std::string::npos) << c.why;
  // The tuner records it: the default stays, being faster.
  db.upsert(measured(dev, config_name("sm90", shipped), 10000, 70.3));
  c = choose_solver(dev, 10000, kWeighted, &db, "tuning.json");
  EXPECT_EQ(c.chosen.variant, &sm90);
  EXPECT_EQ(c.chosen.config, shipped);
  EXPECT_NE(c.why.find("nothing beat it at n = 10000 (70.300 ms)"), std::string::npos) << c.why;
  // No database at all: the same default.
  EXPECT_EQ(choose_solver(dev, 10000, kWeighted, nullptr, "").chosen.config, shipped);
}

TEST(SolverChoice, APickMustBeFasterOnTheSameBuildNearTheSameSize) {
  const DeviceInfo dev = h200();
  const Variant& sm90 = *find_variant("sm90");
  const Config shipped = default_config(sm90, 2500, &dev).config;
  const std::string faster = shipped.at("lookahead") == 0
                                 ? "sm90[tile=64,chunk=16,per_thread=4,lookahead=1]"
                                 : "sm90[tile=64,chunk=16,per_thread=4,lookahead=0]";
  TuningDb db;
  db.upsert(measured(dev, config_name("sm90", shipped), 2500, 2.6));
  db.upsert(measured(dev, faster, 2500, 1.5));
  db.upsert(measured(dev, "regtile64", 2500, 0.1, "another-build"));  // never: another build
  SolverChoice c = choose_solver(dev, 2500, kWeighted, &db, "db.json");
  EXPECT_EQ(config_name("sm90", c.chosen.config), config_name("sm90", parse_config(faster).config));
  EXPECT_NE(c.why.find("tuned in db.json at n = 2500: 1.500 ms against the default's 2.600 ms"),
            std::string::npos);
  // Within a factor of 2 of a tuned size only.
  EXPECT_EQ(choose_solver(dev, 4000, kWeighted, &db, "db.json").chosen.config,
            parse_config(faster).config);
  EXPECT_EQ(choose_solver(dev, 6000, kWeighted, &db, "db.json").chosen.config,
            default_config(sm90, 6000, &dev).config);
  // Another device model: nothing.
  DeviceInfo other = dev;
  other.name = "Other";
  EXPECT_EQ(choose_solver(other, 2500, kWeighted, &db, "db.json").chosen.config,
            default_config(sm90, 2500, &other).config);
}

// apsp --variant auto tries 16 bits wherever the weights fit them (below 0x7FFF), at any V: the
// result is proven exact after the solve, not bounded before it.
TEST(SolverChoice, SixteenBitsWhereverTheWeightsFit) {
  EXPECT_EQ(solver_for(0).name, "sm90_u16") << "zero weights";
  EXPECT_EQ(solver_for(1).name, "sm90_u16");
  EXPECT_EQ(solver_for(0x7FFE).name, "sm90_u16");
  EXPECT_EQ(solver_for(0x7FFF).name, "sm90") << "the 16-bit unreachable value";
  EXPECT_EQ(solver_for(kWeighted).name, "sm90");
  EXPECT_EQ(solver_for(kInf - 1).name, "sm90");
}

TEST(SolverChoice, AutoSaysWhyItTakesSixteenBits) {
  const DeviceInfo dev = h200();
  const Variant& u16 = *find_variant("sm90_u16");
  const SolverChoice c = choose_solver(dev, 10000, 1, nullptr, "");
  EXPECT_EQ(c.chosen.variant, &u16);
  EXPECT_EQ(c.chosen.config, default_config(u16, 10000, &dev).config);
  EXPECT_EQ(c.why.rfind("16-bit distances, to be proven exact after the solve: largest weight 1 < "
                        "32767; ",
                        0),
            0u)
      << c.why;
  const SolverChoice w = choose_solver(dev, 10000, 40000, nullptr, "");
  EXPECT_EQ(w.chosen.variant->name, "sm90") << "40000 does not fit 16 bits";
  EXPECT_EQ(w.why.find("16-bit"), std::string::npos) << w.why;
}

// A lower bound of the largest distance that, with the largest weight, reaches 0x7FFF rules 16
// bits out (their proof could not hold), one below it does not; nor does a database's 16-bit pick.
TEST(SolverChoice, ADistanceFloorThatRulesSixteenBitsOutTakesInt32) {
  const DeviceInfo dev = h200();
  EXPECT_EQ(choose_solver(dev, 10000, 100, nullptr, "", 32666).chosen.variant->name, "sm90_u16");
  EXPECT_EQ(choose_solver(dev, 10000, 100, nullptr, "", 32667).chosen.variant->name, "sm90")
      << "32667 + 100 = 0x7FFF";
  EXPECT_EQ(solver_for(100, 32667).name, "sm90");
}

// A database's 16-bit entry is never picked for weights 16 bits do not hold, however fast; for one they do, the reference it must beat is sm90_u16's default.
TEST(SolverChoice, ADatabaseNeverPicksSixteenBitsForWeightsThatDoNotFit) {
  const DeviceInfo dev = h200();
  const Variant& sm90 = *find_variant("sm90");
  const Variant& u16 = *find_variant("sm90_u16");
  const Config sm90_default = default_config(sm90, 10000, &dev).config,
               u16_default = default_config(u16, 10000, &dev).config;
  TuningDb db;
  db.upsert(measured(dev, config_name("sm90", sm90_default), 10000, 70.3));
  db.upsert(measured(dev, config_name("sm90_u16", u16_default), 10000, 36.0));
  db.upsert(measured(dev, "sm90_u16[tile=128,chunk=16,lookahead=1]", 10000, 30.0));
  SolverChoice c = choose_solver(dev, 10000, kWeighted, &db, "db.json");
  EXPECT_EQ(c.chosen.variant, &sm90);
  EXPECT_EQ(c.chosen.config, sm90_default);
  EXPECT_NE(c.why.find("nothing beat it at n = 10000 (70.300 ms)"), std::string::npos) << c.why;
  c = choose_solver(dev, 10000, 1, &db, "db.json");
  EXPECT_EQ(c.chosen.variant, &u16);
  EXPECT_EQ(
      config_name("sm90_u16", c.chosen.config),
      config_name("sm90_u16", parse_config("sm90_u16[tile=128,chunk=16,lookahead=1]").config));
  EXPECT_NE(c.why.find("tuned in db.json at n = 10000: 30.000 ms against the default's 36.000 ms"),
            std::string::npos)
      << c.why;
}

}  // namespace
}  // namespace apsp::harness
