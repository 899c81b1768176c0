#include <gtest/gtest.h>

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

TEST(Registry, HasTheCourseVariantsInOrder) {
  EXPECT_EQ(variant_names(),
            (std::vector<std::string>{"naive", "blocked32", "regtile64", "batched", "batched_edge",
                                      "sm90"}));
  for (const Variant& v : registry()) {
    EXPECT_FALSE(v.summary.empty()) << v.name;
    EXPECT_TRUE(v.run) << v.name;
    EXPECT_TRUE(v.check) << v.name;
    EXPECT_NO_THROW(validate_config(v, v.defaults)) << v.name;
  }
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
  EXPECT_EQ(config_problem("sm90", Config{{"chunk", 8}, {"tile", 64}}), "sm90: per_thread is not set");
  EXPECT_EQ(config_problem("batched", Config{{"batch2", 6}, {"batch3", 99}}),
            "batched: batch3=99 is not compiled in (values: 1,2,3,4,5,6,7,8)");
  EXPECT_EQ(config_problem("fast", Config{}), "unknown variant 'fast'");
}

TEST(ConfigText, ErrorsSayWhatIsWrong) {
  EXPECT_EQ(parse_error("fast[x=1]"),
            "unknown variant 'fast' (known: naive, blocked32, regtile64, batched, batched_edge, sm90)");
  EXPECT_EQ(parse_error("batched[batch4=2]"),
            "batched: unknown parameter 'batch4' (it has: batch2, batch3)");
  EXPECT_EQ(parse_error("batched[batch3=99]"),
            "batched: batch3=99 is not compiled in (values: 1,2,3,4,5,6,7,8)");
  EXPECT_EQ(parse_error("batched[batch3=x]"), "'batched[batch3=x]': batch3 must be an integer, found 'x'");
  EXPECT_EQ(parse_error("batched[batch3]"), "'batched[batch3]': expected param=value, found 'batch3'");
  EXPECT_EQ(parse_error("batched[batch3=4"), "'batched[batch3=4': expected 'name[param=value,...]'");
  EXPECT_EQ(parse_error("naive[batch3=4]"), "naive: unknown parameter 'batch3' (it has: none)");
}

}  // namespace
}  // namespace apsp
