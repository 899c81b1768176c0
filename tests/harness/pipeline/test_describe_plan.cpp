// The one dry-run printer (harness/pipeline/describe_plan.hpp) of apsp_bench and the tuner: the
// lines that do not depend on the device the dry run plans for.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "harness/pipeline/describe_plan.hpp"
#include "harness/tune/tuning.hpp"

namespace apsp::harness {
namespace {

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

TEST(DescribePlan, TheBenchsRunsOneConfigPerSize) {
  Plan p;
  p.sizes = {100, 3000};
  p.requests = select_requests("naive", {});
  const std::string text = describe_plan(p);
  EXPECT_EQ(text.rfind(
                "plan: 2 run(s) of 1 request(s) at 2 size(s); samples 3..10, at least 1 s each; L2 "
                "flushed before each sample\n",
                0),
            0u)
      << text;
  EXPECT_TRUE(has_line(text, "graph: random, density 0.1, weights [1, 1000], seed 1")) << text;
  EXPECT_TRUE(has_line(text, "  naive")) << text;
  EXPECT_TRUE(has_line(text, "    n = 100: naive (declared default)")) << text;
  EXPECT_TRUE(has_line(text, "  n =    100: verified against cpu-reference; device memory 80.0 KB"))
      << text;
  EXPECT_EQ(text.find("model ("), std::string::npos) << "no model on one GPU";
  p.sampling.flush_l2 = false;
  p.requests[0].config = Config{};
  EXPECT_NE(describe_plan(p).find("; L2 warm\n"), std::string::npos);
  EXPECT_TRUE(has_line(describe_plan(p), "    n = 3000: naive (asked)"));
}

TEST(DescribePlan, SeveralGpusAddTheModel) {
  Plan p;
  p.sizes = {100000};
  p.gpus = {1, 8};
  p.requests = select_requests("sm90", {});
  const std::string text = describe_plan(p);
  EXPECT_TRUE(has_line(text, "  sm90  (on 1, 8 GPUs)")) << text;
  EXPECT_NE(text.find("\nmodel (docs/multi-gpu.md; H200 rate "), std::string::npos) << text;
  EXPECT_NE(text.find("n = 100000 on 8 GPUs: "), std::string::npos) << text;
}

// The tuner's plan: a search per request; what a budget leaves of the runnable points.
TEST(DescribePlan, TheTunersSearches) {
  Plan p;
  p.sizes = {1000};
  p.requests = {Request{find_variant("batched"), std::nullopt}};
  TuneOptions o;
  o.strategy = "random";
  o.budget = 3;
  PlanNotes notes;
  notes.searches.emplace({search_space(*find_variant("batched"), o)});
  const SearchSpace& s = notes.searches->front();
  EXPECT_EQ(s.strategy, "random");
  EXPECT_EQ(s.visits, 3u);
  const std::string text = describe_plan(p, notes);
  EXPECT_EQ(text.rfind("device: ", 0), 0u) << text;
  EXPECT_NE(text.find(fmt::format("\nbatched: {} point(s) over batch2={{", s.points.size())),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; strategy random\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  n = 1000: at most 3 to measure (a random search, --budget 3, of "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; reference: batched["), std::string::npos) << text;
}

}  // namespace
}  // namespace apsp::harness
