#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "core/edge_list.hpp"
#include "core/generators.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp {
namespace {

std::string parse_error(const std::string& text, uint64_t max_bytes = 0) {
  try {
    parse_edge_list(text, "g.txt", max_bytes);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(EdgeListReader, ParsesAValidGraph) {
  const EdgeList g = parse_edge_list("3 4\n0 1 5\n1 2 0\r\n2 0 7\n  0 1 3  \n", "g.txt");
  ASSERT_EQ(g.num_vertices, 3);
  ASSERT_EQ(g.edges.size(), 4u);
  EXPECT_EQ(g.edges[3].src, 0);
  EXPECT_EQ(g.edges[3].dst, 1);
  EXPECT_EQ(g.edges[3].w, 3);
  const DistMatrix d = DistMatrix::from_edges(g);
  EXPECT_EQ(d.at(0, 1), 3) << "a duplicate edge keeps the smaller weight";
  EXPECT_EQ(d.at(1, 2), 0);
  EXPECT_EQ(d.at(0, 0), 0);
  EXPECT_EQ(d.at(1, 0), kInf);
}

TEST(EdgeListReader, SelfLoopDoesNotChangeTheDiagonal) {
  const DistMatrix d = DistMatrix::from_edges(parse_edge_list("2 1\n1 1 9\n", "g"));
  EXPECT_EQ(d.at(1, 1), 0);
}

TEST(EdgeListReader, AcceptsNoEdgesAndNoTrailingNewline) {
  EXPECT_EQ(parse_edge_list("5 0", "g").edges.size(), 0u);
  EXPECT_EQ(parse_edge_list("2 1\n0 1 4", "g").edges.size(), 1u);
}

TEST(EdgeListReader, EveryFaultNamesItsLineAndColumn) {
  EXPECT_EQ(parse_error(""), "g.txt:1:1: empty input: expected a first line 'V E'");
  EXPECT_EQ(parse_error("3 x\n"), "g.txt:1:3: expected an integer, found 'x'");
  EXPECT_EQ(parse_error("3 2\n0 1 2\n0 1.5 2\n"), "g.txt:3:3: expected an integer, found '1.5'");
  EXPECT_EQ(parse_error("3\n"), "g.txt:1:2: expected 2 integers 'V E', found 1");
  EXPECT_EQ(parse_error("3 1 4\n"), "g.txt:1:5: expected 2 integers 'V E', found 3");
  EXPECT_EQ(parse_error("0 0\n"), "g.txt:1:1: V must be positive, got 0");
  EXPECT_EQ(parse_error("-4 0\n"), "g.txt:1:1: V must be positive, got -4");
  EXPECT_EQ(parse_error("3 -1\n"), "g.txt:1:3: E must be non-negative, got -1");
  EXPECT_EQ(parse_error("3 3\n0 1 2\n1 2 3\n"), "g.txt:4:1: end of input after 2 of 3 edges");
  EXPECT_EQ(parse_error("3 1\n0 3 2\n"), "g.txt:2:3: vertex 3 out of range [0, 3)");
  EXPECT_EQ(parse_error("3 1\n-1 0 2\n"), "g.txt:2:1: vertex -1 out of range [0, 3)");
  EXPECT_EQ(parse_error("3 1\n0 1 -2\n"), "g.txt:2:5: negative weight -2");
  EXPECT_EQ(parse_error("3 1\n0 1 2147483648\n"),
            "g.txt:2:5: weight 2147483648 is above 2147483647, the largest weight read (2^31 - 1)");
  EXPECT_EQ(parse_error("3 1\n0 1 2 7 8\n"), "g.txt:2:7: expected 3 integers 'src dst w', found 5");
  EXPECT_EQ(parse_error("3 1\n0 1\n"), "g.txt:2:4: expected 3 integers 'src dst w', found 2");
  EXPECT_EQ(parse_error("3 1\n  0   1  \n"),
            "g.txt:2:10: expected 3 integers 'src dst w', found 2");
  EXPECT_EQ(parse_error("3 1\n0 1 2\n1 2 3\n"),
            "g.txt:3:1: unexpected content after the 1 edges the header announced");
  EXPECT_EQ(parse_error("3 1\n0 1 2\n\n  x\n"),
            "g.txt:4:3: unexpected content after the 1 edges the header announced");
  EXPECT_EQ(parse_error("3 2\n"), "g.txt:2:1: end of input after 0 of 2 edges");
  EXPECT_EQ(parse_error("3 1\n0 1 99999999999999999999\n"),
            "g.txt:2:5: integer out of range: '99999999999999999999'");
  EXPECT_EQ(parse_error("3 1\n0 1 3.0\n"), "g.txt:2:5: expected an integer, found '3.0'")
      << "the contest's weights are integers as written";
}

// Excel and Notepad save UTF-8 with a byte order mark: it is skipped, in every reader alike.
TEST(EdgeListReader, AByteOrderMarkIsSkipped) {
  const EdgeList g = parse_edge_list(
      "\xEF\xBB\xBF"
      "2 1\n0 1 4\n",
      "g");
  ASSERT_EQ(g.num_vertices, 2);
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].w, 4);
  EXPECT_EQ(parse_error("\xEF\xBB\xBF"
                        "2 x\n"),
            "g.txt:1:3: expected an integer, found 'x'")
      << "columns count from after the mark";
  EXPECT_EQ(parse_error("2 1\n\xEF\xBB\xBF"
                        "0 1 4\n"),
            "g.txt:2:1: expected an integer, found '\\xEF\\xBB\\xBF0'")
      << "only at the start of the file";
}

TEST(EdgeListReader, InvisibleBytesAreShownAndNamed) {
  EXPECT_EQ(parse_error(std::string("2 1\n0 1 4\0x\n", 12)),
            "g.txt:2:5: expected an integer, found '4\\0x'");
  EXPECT_EQ(parse_error("2 1\n0 1 \xC3\xA9\n"),
            "g.txt:2:5: expected an integer, found '\\xC3\\xA9'");
  EXPECT_EQ(parse_error("3 2\r0 1 5\r1 2 3\r"),
            "g.txt:1:5: expected 2 integers 'V E', found 8 (the lines end in CR alone, as on "
            "classic Mac OS: convert them to \\n, e.g. tr '\\r' '\\n')");
  EXPECT_NO_THROW(parse_edge_list("1 0\r", "g"))
      << "a lone CR is blank space where the file is valid";
}

// Nothing bounds the distances a priori (the solve proves them exact after): a graph whose
// (V - 1) * w reaches the unreachable value reads, and so do weights up to 2^31 - 1.
TEST(EdgeListReader, ReadsAnyWeightUpToTwoToTheThirtyOne) {
  EXPECT_EQ(parse_edge_list("4 2\n0 1 5\n1 2 400000000\n", "g").edges.size(), 2u);
  EXPECT_EQ(parse_edge_list("2 1\n0 1 2147483647\n", "g").edges[0].w, 2147483647);
}

TEST(EdgeListReader, RejectsAMatrixTooLargeBeforeAllocating) {
  const std::string e = parse_error("100000 1\n0 1 1\n", /*max_bytes=*/1ull << 30);
  EXPECT_EQ(e,
            "g.txt:1:1: V = 100000 needs a 40.0 GB distance matrix (40000000000 bytes), more "
            "than the 1.1 GB available");
  // A huge E with a small file fails on the missing lines, not on an allocation.
  EXPECT_EQ(parse_error("3 4000000000000\n0 1 1\n"),
            "g.txt:3:1: end of input after 1 of 4000000000000 edges");
}

TEST(EdgeListReader, ReadsFilesAndReportsMissingOnes) {
  const test::ScratchDir scratch;
  const std::string path = scratch.file("g.txt");
  std::ofstream(path) << "2 1\n0 1 4\n";
  EXPECT_EQ(read_edge_list(path).edges.size(), 1u);
  try {
    read_edge_list("/nonexistent/graph.txt");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "/nonexistent/graph.txt: cannot open: No such file or directory");
  }
}

TEST(EdgeListWriter, GraphRoundTrip) {
  GraphSpec spec;
  spec.num_vertices = 40;
  spec.density = 0.2;
  spec.wmin = 0;
  spec.duplicates = 0.3;
  const EdgeList g = generate(spec);
  const EdgeList back = parse_edge_list(format_edge_list(g), "round");
  ASSERT_EQ(back.num_vertices, g.num_vertices);
  ASSERT_EQ(back.edges.size(), g.edges.size());
  for (size_t e = 0; e < g.edges.size(); ++e) {
    EXPECT_EQ(back.edges[e].src, g.edges[e].src);
    EXPECT_EQ(back.edges[e].dst, g.edges[e].dst);
    EXPECT_EQ(back.edges[e].w, g.edges[e].w);
  }
}

}  // namespace
}  // namespace apsp
