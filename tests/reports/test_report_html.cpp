// apsp_report's verdicts, alignment and HTML pieces (reports/), without the program.
#include <gtest/gtest.h>

#include <algorithm>

#include "reports/html.hpp"
#include "reports/report.hpp"
#include "reports/svg.hpp"

namespace apsp::report {
namespace {

RunResult run(const std::string& name, int n, std::vector<double> samples) {
  RunResult r;
  r.variant = r.name = name;
  r.n = n;
  r.verified = "cpu-reference";
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  r.median_ms = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                  : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
  r.samples_ms = std::move(samples);
  return r;
}

Input input(const std::string& path, std::vector<RunResult> runs) {
  Input in;
  in.path = path;
  in.results.context.device = {{"name", "Test GPU"}, {"cc", "9.0"}, {"sms", 132}};
  in.results.runs = std::move(runs);
  return in;
}

std::vector<double> scaled(double by, double spread = 0) {
  std::vector<double> out;
  for (int i = 0; i < 11; ++i)
    out.push_back(by * (10 + 0.01 * (i % 3)) * (1 + (i % 2 ? spread : -spread)));
  return out;
}

TEST(ReportCompare, EachVerdictFromItsInterval) {
  const Input a = input(
      "a.json", {run("same", 1, scaled(1)), run("slow", 1, scaled(1)), run("bit", 1, scaled(1)),
                 run("fast", 1, scaled(1)), run("noisy", 1, scaled(1))});
  const Input b = input("b.json", {run("same", 1, scaled(1)), run("slow", 1, scaled(1.2)),
                                   run("bit", 1, scaled(1.02)), run("fast", 1, scaled(0.8)),
                                   run("noisy", 1, scaled(1, 0.1))});
  const Comparison c = compare(a, b, 0.05, false);
  ASSERT_EQ(c.runs.size(), 5u);
  EXPECT_EQ(c.runs[0].verdict, Verdict::same);
  EXPECT_EQ(c.runs[1].verdict, Verdict::slower_beyond);
  EXPECT_EQ(c.runs[2].verdict, Verdict::slower);  // above 1, within the threshold
  EXPECT_EQ(c.runs[3].verdict, Verdict::faster);
  EXPECT_EQ(c.runs[4].verdict, Verdict::ambiguous) << c.runs[4].lo << " " << c.runs[4].hi;
  EXPECT_EQ(c.ambiguous, 1);
  EXPECT_EQ(c.slower, 2);
  EXPECT_EQ(c.slower_beyond_threshold, 1);
  EXPECT_EQ(c.summary(),
            "1 faster, 2 slower (1 beyond 5%), 1 the same (interval within ±5%), 1 ambiguous");
  // Every format names it.
  for (const char* format : {"text", "md", "csv", "json"})
    EXPECT_NE(render_comparison(c, format).find("ambiguous"), std::string::npos) << format;
  EXPECT_NE(html_comparison(c, a, b).find("<td class=\"ambiguous\">ambiguous</td>"),
            std::string::npos);
}

TEST(ReportTables, FiguresRightTextLeft) {
  for (const char* figure : {"12", "7.7x [7.6, 7.8]", "10.2% (u16)", "[0.998, 1.002]", "3.456"})
    EXPECT_TRUE(figure_cell(figure)) << figure;
  for (const char* text : {"75245ad4b3ec4c7c", "random 0.1 1000", "no baseline", "NVIDIA H200",
                           "batched[batch2=6,batch3=6]", "SLOWER"})
    EXPECT_FALSE(figure_cell(text)) << text;
  const Grid g{{"device", "build", "n", "ms"},
               {"NVIDIA H200", "75245ad4b3ec4c7c", "1000", "1.5"},
               {"NVIDIA H200", "0123abc", "2500", "no baseline"},
               {"NVIDIA H200", "9d0e", "10000", "2.5"}};
  EXPECT_NE(markdown_table(g).find("\n|:---|:---|---:|---:|\n"), std::string::npos)
      << markdown_table(g);
  EXPECT_NE(render_markdown(g, {true, false}).find("\n|---:|:---|:---|:---|\n"), std::string::npos);
}

TEST(ReportHtml, NamesAreTextAndThePageHasOneScript) {
  RunResult naive = run("naive", 100, scaled(10));
  RunResult hostile = run("x", 100, scaled(1));
  hostile.label = "<script>alert(1)</script> & 'q'";
  const std::string page = html_report({input("<r>.json", {naive, hostile})}, std::nullopt, "");
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;q&#39;"),
            std::string::npos);
  EXPECT_NE(page.find("&lt;r&gt;.json"), std::string::npos);
  size_t scripts = 0;
  for (size_t at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1))
    ++scripts;
  EXPECT_EQ(scripts, 1u);
  EXPECT_EQ(page.find("://"), std::string::npos);  // inline SVG needs no namespace: no address
}

TEST(ReportSvg, EachPointHasItsValueOnHoverAndNothingIsDrawnWithoutPoints) {
  const std::string plot = svg::line_plot(
      {"t", "n", "ms", true, true},
      {{"a<b",
        {{1000, 1.5, NAN, NAN, "a<b, n = 1000: 1.500 ms"}, {2000, 12, 10, 14, "tip 2"}},
        false,
        ""}});
  EXPECT_NE(plot.find("<title>a&lt;b, n = 1000: 1.500 ms</title>"), std::string::npos);
  EXPECT_NE(plot.find("<title>tip 2</title>"), std::string::npos);
  EXPECT_NE(plot.find("class=\"ci\""), std::string::npos);  // the interval is drawn
  EXPECT_EQ(svg::line_plot({"t", "n", "ms", true, true}, {{"empty", {}, false, ""}}), "");
  // A log axis leaves out what it cannot show rather than drawing at -infinity.
  EXPECT_EQ(svg::line_plot({"t", "n", "ms", true, true},
                           {{"zero", {{1000, 0, NAN, NAN, ""}}, false, ""}}),
            "");
  EXPECT_EQ(svg::escape("<&>\"'"), "&lt;&amp;&gt;&quot;&#39;");
}

}  // namespace
}  // namespace apsp::report
