#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/integer.hpp"
#include "harness/plan/plan.hpp"
#include "variants/instances.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

std::string parse_error(const std::string& text) {
  try {
    parse_config(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

// The registry is whatever the variant files registered: every entry complete, names unique,
// sorted by file name, so the course variants come first in the order users read them.
TEST(Registry, EveryRegisteredVariantIsCompleteAndOrderedByFile) {
  const std::vector<std::string> course{"naive",   "blocked32",    "regtile64",
                                        "batched", "batched_edge", "sm90"};
  const std::vector<std::string> names = variant_names();
  ASSERT_GE(names.size(), course.size());
  EXPECT_TRUE(std::equal(course.begin(), course.end(), names.begin()));
  std::set<std::string> unique(names.begin(), names.end());
  EXPECT_EQ(unique.size(), names.size());
  for (size_t i = 0; i < registry().size(); ++i) {
    const Variant& v = registry()[i];
    EXPECT_FALSE(v.summary.empty()) << v.name;
    EXPECT_TRUE(v.run) << v.name;
    EXPECT_TRUE(v.check) << v.name;
    EXPECT_FALSE(v.test_only) << v.name
                              << ": test-only variants are listed only with APSP_TEST_VARIANTS";
    EXPECT_NO_THROW(validate_config(v, v.defaults)) << v.name;
    for (const Param& p : v.space) EXPECT_FALSE(p.group.empty()) << v.name << "." << p.name;
    if (i > 0) {
      EXPECT_LE(registry()[i - 1].source, v.source) << v.name;
    }
  }
}

// A sharded variant (sm90) has a compiled instance for every config it lists and none for the
// combinations its constraints rule out: no shard missing from the build, none compiled twice.
TEST(Registry, ShardedVariantsHaveAnInstanceForEveryBuiltConfig) {
  int sharded = 0;
  for (const Variant& v : registry()) {
    const std::vector<Config> all = enumerate_space(v.space, {});
    const bool has_instances = std::any_of(all.begin(), all.end(), [&](const Config& c) {
      return find_instance(v.name, c) != nullptr;
    });
    if (!has_instances) continue;
    ++sharded;
    for (const Config& c : all)
      EXPECT_EQ(find_instance(v.name, c) != nullptr, is_built(v, c)) << config_name(v.name, c);
  }
  EXPECT_GE(sharded, 1) << "sm90 is compiled in instance shards";
}

TEST(Registry, SearchGroupsComeFromTheDeclaredParameters) {
  EXPECT_EQ(search_groups(), (std::vector<std::string>{"batch", "tile"}));
  EXPECT_EQ(params_in_group(*find_variant("batched"), "batch").size(), 2u);
  EXPECT_EQ(params_in_group(*find_variant("batched"), "tile").size(), 0u);
  EXPECT_EQ(params_in_group(*find_variant("sm90"), "all").size(),
            find_variant("sm90")->space.size());
}

TEST(Registry, ConstraintsRuleOutCombinationsWithTheirRule) {
  for (const Variant& v : registry()) {
    const auto built = all_configs(v);
    for (const Config& c : enumerate_space(v.space, {})) {
      const bool listed = std::find(built.begin(), built.end(), c) != built.end();
      EXPECT_EQ(listed, is_built(v, c)) << config_name(v.name, c);
      if (!listed) {
        EXPECT_NE(broken_constraint(v, c).find("makes no kernel: needs "), std::string::npos);
      }
    }
  }
}

// sm90's panel config: built at look-ahead 1 only, the declared default, and its solve counts
// its two panels (128 rows of the padded n each) as scratch; tile 128 at chunk 8 has none.
TEST(Registry, Sm90PanelConfigIsBuiltAtLookaheadOneWithTwoPanelsOfScratch) {
  const Variant* v = find_variant("sm90");
  ASSERT_NE(v, nullptr);
  const Config panel = parse_config("sm90[tile=128,chunk=16,per_thread=8,lookahead=1]").config;
  EXPECT_TRUE(is_built(*v, panel));
  EXPECT_EQ(v->defaults, panel);
  EXPECT_EQ(scratch_bytes(*v, panel, 10000), 2u * 128 * 10112 * 4) << "10000 padded to 10112";
  EXPECT_EQ(scratch_bytes(
                *v, parse_config("sm90[tile=128,chunk=8,per_thread=8,lookahead=1]").config, 10000),
            0u);
  EXPECT_EQ(scratch_bytes(
                *v, parse_config("sm90[tile=64,chunk=16,per_thread=8,lookahead=1]").config, 10000),
            0u);
  for (int lookahead : {0, 2}) {
    Config other = panel;
    other["lookahead"] = lookahead;
    EXPECT_FALSE(is_built(*v, other)) << config_name("sm90", other);
  }
}

// Each config has no kernel, and the first rule it breaks says `why`.
void expect_unbuilt_by(const Variant& v, const std::vector<Config>& configs,
                       const std::string& why) {
  for (const Config& c : configs) {
    EXPECT_FALSE(is_built(v, c)) << config_name(v.name, c);
    EXPECT_NE(broken_constraint(v, c).find(why), std::string::npos)
        << config_name(v.name, c) << ": " << broken_constraint(v, c);
  }
}

// Pairs of rounds (lookahead 3): built where the ordinary tiles run the ring (chunk 16: tile 128
// at 8 x 8 a thread, tile 64 at either), with two panels of two columns of tiles each as scratch.
// sm90_u16 has them at tile 128 only.
TEST(Registry, Sm90PairsOfRoundsAreBuiltOnThePanelOnlyWithTwoDoublePanelsOfScratch) {
  const Variant* v = find_variant("sm90");
  ASSERT_NE(v, nullptr);
  const Config pairs = parse_config("sm90[tile=128,chunk=16,per_thread=8,lookahead=3]").config;
  EXPECT_TRUE(is_built(*v, pairs));
  EXPECT_EQ(broken_constraint(*v, pairs), "");
  EXPECT_EQ(scratch_bytes(*v, pairs, 10000), 2u * 256 * 10112 * 4) << "10000 padded to 10112";
  for (int per_thread : {4, 8}) {
    const Config tile64{{"tile", 64}, {"chunk", 16}, {"per_thread", per_thread}, {"lookahead", 3}};
    EXPECT_TRUE(is_built(*v, tile64)) << config_name("sm90", tile64);
    EXPECT_EQ(scratch_bytes(*v, tile64, 2500), 2u * 128 * 2560 * 4) << "2500 padded to 2560";
  }
  const Variant* u16 = find_variant("sm90_u16");
  ASSERT_NE(u16, nullptr);
  EXPECT_FALSE(
      is_built(*u16, Config{{"tile", 64}, {"chunk", 16}, {"per_thread", 8}, {"lookahead", 3}}));
  expect_unbuilt_by(*v,
                    {Config{{"tile", 128}, {"chunk", 8}, {"per_thread", 8}, {"lookahead", 3}},
                     Config{{"tile", 64}, {"chunk", 8}, {"per_thread", 8}, {"lookahead", 3}},
                     Config{{"tile", 64}, {"chunk", 32}, {"per_thread", 4}, {"lookahead", 3}}},
                    "makes no kernel: needs lookahead 3");
}

// The short chain's schedules: E deferred (lookahead 5) at tile 64, chunk 16, either per_thread;
// with the pass held to three blocks an SM too (lookahead 4) at 4 x 4 only. Both allocate the
// row panels beside lookahead 3's panels; sm90_u16 declares neither value.
TEST(Registry, Sm90ShortChainSchedulesAreBuiltAtTile64Only) {
  const Variant* v = find_variant("sm90");
  ASSERT_NE(v, nullptr);
  const Config held = parse_config("sm90[tile=64,chunk=16,per_thread=4,lookahead=4]").config;
  Config deferred = held, deferred8 = held, pairs = held;
  deferred["lookahead"] = 5;
  deferred8["lookahead"] = 5;
  deferred8["per_thread"] = 8;
  pairs["lookahead"] = 3;
  for (const Config& c : {held, deferred, deferred8}) {
    EXPECT_TRUE(is_built(*v, c)) << config_name("sm90", c);
    EXPECT_EQ(broken_constraint(*v, c), "") << config_name("sm90", c);
  }
  // 2500 padded to 2560: two panels of two columns of tiles
  const uint64_t panels = 2u * 128 * 2560 * 4;
  EXPECT_EQ(scratch_bytes(*v, pairs, 2500), panels);
  for (const Config& c : {held, deferred, deferred8})
    EXPECT_EQ(scratch_bytes(*v, c, 2500), 2 * panels) << "and two row panels of two rows of tiles";
  expect_unbuilt_by(*v,
                    {Config{{"tile", 64}, {"chunk", 16}, {"per_thread", 8}, {"lookahead", 4}},
                     Config{{"tile", 128}, {"chunk", 8}, {"per_thread", 8}, {"lookahead", 4}},
                     Config{{"tile", 64}, {"chunk", 32}, {"per_thread", 4}, {"lookahead", 4}},
                     Config{{"tile", 128}, {"chunk", 8}, {"per_thread", 8}, {"lookahead", 5}},
                     Config{{"tile", 64}, {"chunk", 32}, {"per_thread", 4}, {"lookahead", 5}}},
                    "makes no kernel: needs lookahead 4 only at tile 64");
  const Variant* u16 = find_variant("sm90_u16");
  ASSERT_NE(u16, nullptr);
  const auto lookahead = std::find_if(u16->space.begin(), u16->space.end(),
                                      [](const Param& p) { return p.name == "lookahead"; });
  ASSERT_NE(lookahead, u16->space.end());
  EXPECT_EQ(std::count(lookahead->values.begin(), lookahead->values.end(), 4), 0);
  EXPECT_EQ(std::count(lookahead->values.begin(), lookahead->values.end(), 5), 0);
  EXPECT_EQ(lookahead->help.find("; 4 ("), std::string::npos) << lookahead->help;
}

// Every lookahead value sm90 compiles is explained in its parameter's help (tuner --dry-run,
// apsp_bench --list).
TEST(Registry, Sm90LookaheadHelpExplainsEveryValue) {
  const Variant* v = find_variant("sm90");
  ASSERT_NE(v, nullptr);
  const auto lookahead = std::find_if(v->space.begin(), v->space.end(),
                                      [](const Param& p) { return p.name == "lookahead"; });
  ASSERT_NE(lookahead, v->space.end());
  for (int value : lookahead->values) {
    const std::string v_text = std::to_string(value), h = "; " + lookahead->help;
    EXPECT_TRUE(h.find("; " + v_text + ":") != std::string::npos ||
                h.find("; " + v_text + " (") != std::string::npos)
        << "lookahead " << value << " is not explained: " << lookahead->help;
  }
}

// The shared memory the held schedules ask the device for (Variant::check): look-ahead 4's pass
// an SM's over four (three blocks fit, not four), look-ahead 2's pivot block half an SM's;
// look-ahead 3 its ring only.
TEST(Registry, Sm90HeldSchedulesAskForTheirShareOfAnSm) {
  const Variant* v = find_variant("sm90");
  ASSERT_NE(v, nullptr);
  DeviceInfo dev;  // an H200's limits
  dev.cc_major = 9;
  dev.sms = 132;
  dev.max_threads_per_block = 1024;
  dev.smem_per_block_optin = 232448;
  dev.smem_per_sm = 233472;
  const Config held{{"tile", 64}, {"chunk", 16}, {"per_thread", 4}, {"lookahead", 4}};
  Config pairs = held, next_pivot = held;
  pairs["lookahead"] = 3;
  next_pivot["lookahead"] = 2;
  for (const Config& c : {held, pairs, next_pivot})
    EXPECT_EQ(v->check(c, 2500, dev), "") << config_name("sm90", c);
  const int held_bytes = dev.smem_per_sm / 4;
  EXPECT_EQ(held_bytes, 58368);
  EXPECT_LE(3 * (held_bytes + 1024), dev.smem_per_sm) << "three blocks fit";
  EXPECT_GT(4 * (held_bytes + 1024), dev.smem_per_sm) << "a fourth does not";
  dev.smem_per_block_optin = held_bytes - 1;
  EXPECT_NE(v->check(held, 2500, dev).find("needs 58368 bytes of shared memory per block"),
            std::string::npos)
      << v->check(held, 2500, dev);
  EXPECT_EQ(v->check(pairs, 2500, dev), "");
  EXPECT_NE(v->check(next_pivot, 2500, dev).find("needs 116736 bytes"), std::string::npos);
}

TEST(Registry, ConfigsAreTheCartesianProductDefaultsFirst) {
  const Variant* b = find_variant("batched");
  ASSERT_NE(b, nullptr);
  const auto configs = all_configs(*b);
  EXPECT_EQ(configs.size(), b->space[0].values.size() * b->space[1].values.size());
  EXPECT_EQ(configs.front(), (Config{{"batch2", 6}, {"batch3", 6}}));
  EXPECT_EQ(all_configs(*find_variant("naive")).size(), 1u);
}

TEST(ConfigText, PrintedNameParsesBack) {
  for (const Variant& v : registry()) {
    for (const Config& c : all_configs(v)) {
      const std::string text = config_name(v.name, c);
      const NamedConfig back = parse_config(text);
      EXPECT_EQ(back.variant, &v) << text;
      EXPECT_EQ(back.config, c) << text;
    }
  }
  EXPECT_EQ(config_name("batched", {{"batch2", 6}, {"batch3", 4}}), "batched[batch2=6,batch3=4]");
  EXPECT_EQ(config_name("naive", {}), "naive");
}

TEST(ConfigText, UnnamedParametersTakeDefaults) {
  const NamedConfig c = parse_config("batched[batch3=4]");
  EXPECT_EQ(c.config, (Config{{"batch2", 6}, {"batch3", 4}}));
  EXPECT_EQ(parse_config("batched").config, (Config{{"batch2", 6}, {"batch3", 6}}));
}

// Configs read back from files an older build wrote: a tuning database from before sm90 had
// per_thread and lookahead names sm90[chunk=8,tile=64].
TEST(ConfigText, ProblemsOfStoredConfigs) {
  EXPECT_EQ(config_problem("sm90", find_variant("sm90")->defaults), "");
  EXPECT_EQ(config_problem("naive", Config{}), "");
  EXPECT_EQ(config_problem("sm90", Config{{"chunk", 8}, {"tile", 64}}),
            "sm90: per_thread is not set");
  EXPECT_EQ(config_problem("batched", Config{{"batch2", 6}, {"batch3", 99}}),
            "batched: batch3=99 is not compiled in (values: 1,2,3,4,5,6,7,8)");
  EXPECT_EQ(config_problem("fast", Config{}), "unknown variant 'fast'");
}

TEST(ConfigText, ErrorsSayWhatIsWrong) {
  std::string known;
  for (const std::string& name : variant_names()) known += (known.empty() ? "" : ", ") + name;
  EXPECT_EQ(parse_error("fast[x=1]"), "unknown variant 'fast' (known: " + known + ")");
  EXPECT_EQ(parse_error("batched[batch4=2]"),
            "batched: unknown parameter 'batch4' (it has: batch2, batch3)");
  EXPECT_EQ(parse_error("batched[batch3=99]"),
            "batched: batch3=99 is not compiled in (values: 1,2,3,4,5,6,7,8)");
  EXPECT_EQ(parse_error("batched[batch3=x]"),
            "'batched[batch3=x]': batch3 must be an integer, found 'x'");
  EXPECT_EQ(parse_error("batched[batch3]"),
            "'batched[batch3]': expected param=value, found 'batch3'");
  EXPECT_EQ(parse_error("batched[batch3=4"),
            "'batched[batch3=4': expected 'name[param=value,...]'");
  EXPECT_EQ(parse_error("naive[batch3=4]"), "naive: unknown parameter 'batch3' (it has: none)");
}

// One way to read an integer everywhere: no sign prefix, no spaces; a key given twice is refused
// rather than the last one silently winning.
TEST(ConfigText, SignPrefixesAndDuplicateKeysAreRefused) {
  EXPECT_EQ(parse_error("batched[batch2=+6]"),
            "'batched[batch2=+6]': batch2 must be an integer, found '+6'");
  EXPECT_EQ(parse_error("batched[batch2= 6]"),
            "'batched[batch2= 6]': batch2 must be an integer, found ' 6'");
  EXPECT_EQ(parse_error("batched[batch2=]"),
            "'batched[batch2=]': batch2 must be an integer, found ''");
  EXPECT_EQ(parse_error("batched[batch2=6,batch2=5]"),
            "'batched[batch2=6,batch2=5]': batch2 is given twice");
}

std::string sizes_error(const std::string& text) {
  try {
    harness::parse_sizes(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SizeList, EmptyItemsSignsAndRangeAreRefusedAlike) {
  EXPECT_EQ(harness::parse_sizes("1000,2500"), (std::vector<int>{1000, 2500}));
  EXPECT_EQ(sizes_error("1000,"), "--n: an empty size in '1000,'");
  EXPECT_EQ(sizes_error(",1000"), "--n: an empty size in ',1000'");
  EXPECT_EQ(sizes_error("1000,,2500"), "--n: an empty size in '1000,,2500'");
  EXPECT_EQ(sizes_error("+1000"), "--n: '+1000' is not an integer");
  EXPECT_EQ(sizes_error("99999999999"), "--n: 99999999999 is out of range (at most 1048576)");
  EXPECT_EQ(sizes_error("1048577"), "--n: 1048577 is out of range (at most 1048576)");
  // No 46340 cap: what fits is decided by the memory of the device and the host.
  EXPECT_EQ(harness::parse_sizes("46341,65536,180000"), (std::vector<int>{46341, 65536, 180000}));
}

TEST(SampleCounts, ContradictoryRepsAreRefusedAndADefaultFollowsTheOneGiven) {
  harness::SampleOptions s;
  s.min_reps = 5;
  s.max_reps = 3;
  EXPECT_THROW(harness::check_reps(s, true, true), std::invalid_argument);
  harness::check_reps(s, /*min_given=*/true, /*max_given=*/false);
  EXPECT_EQ(s.max_reps, 5);
  s = {3, 2, 1, true};
  harness::check_reps(s, /*min_given=*/false, /*max_given=*/true);
  EXPECT_EQ(s.min_reps, 2);
}

// The one integer reader of the programs' options and config values.
TEST(IntegerText, FromCharsThenRange) {
  EXPECT_EQ(parse_integer<int>("42", 1, 100), 42);
  EXPECT_EQ(parse_integer<uint64_t>("18446744073709551615", 0, UINT64_MAX), UINT64_MAX);
  const auto fault = [](auto f) {
    try {
      f();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(fault([] { parse_integer<uint64_t>("-1", 0, UINT64_MAX); }),
            "-1 is out of range [0, 18446744073709551615]");
  EXPECT_EQ(fault([] { parse_integer<uint64_t>("-99999999999999999999", 0, 5); }),
            "-99999999999999999999 is out of range [0, 5]");
  EXPECT_EQ(fault([] { parse_integer<int>("+5", 1, 9); }), "'+5' is not an integer");
  EXPECT_EQ(fault([] { parse_integer<int>(" 5", 1, 9); }), "' 5' is not an integer");
  EXPECT_EQ(fault([] { parse_integer<int>("5x", 1, 9); }), "'5x' is not an integer");
  EXPECT_EQ(fault([] { parse_integer<int>("", 1, 9); }), "'' is not an integer");
  EXPECT_EQ(fault([] { parse_integer<int>("99999999999", 1, 9); }),
            "99999999999 is out of range [1, 9]");
  EXPECT_EQ(fault([] { parse_integer<int>("10", 1, 9); }), "10 is out of range [1, 9]");
  EXPECT_EQ(fault([] { parse_integer<int>("1\n", 1, 9); }), "'1\\x0A' is not an integer");
}

}  // namespace
}  // namespace apsp
