// The readers' fast paths read what the general ones did, with the same faults: integers of up
// to 18 digits read without from_chars, SNAP ids below 2^24 through a table (the rest through a
// hash map) and then sorted, and gzip inflated straight into the text it unpacks to.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/graph_formats.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp {
namespace {

using test::message_of;

// The id the SNAP reader reads in "ID ID\n" (a self loop: one vertex, row 0), or its refusal.
std::string snap_id(const std::string& id) {
  EdgeList g;
  const std::string fault = message_of(
      [&] { g = snap_graph_format().parse(id + " " + id + "\n", "g", 64u << 20, nullptr); });
  if (!fault.empty()) return fault;
  return g.ids.empty() ? "0" : std::to_string(g.ids.at(0));
}

TEST(GraphReaderFastPaths, IntegersReadAsFromCharsReadThem) {
  EXPECT_EQ(snap_id("0"), "0");
  EXPECT_EQ(snap_id("-0"), "0");
  EXPECT_EQ(snap_id("007"), "7");
  EXPECT_EQ(snap_id("-12"), "-12");
  EXPECT_EQ(snap_id("123456789012345678"), "123456789012345678");    // 18 digits
  EXPECT_EQ(snap_id("1234567890123456789"), "1234567890123456789");  // 19: from_chars
  EXPECT_EQ(snap_id("-1234567890123456789"), "-1234567890123456789");
  EXPECT_EQ(snap_id("99999999999999999999"),
            "g:1:1: vertex id: integer out of range: '99999999999999999999'");
  EXPECT_EQ(snap_id("+5"), "g:1:1: vertex id: expected an integer, found '+5'");
  EXPECT_EQ(snap_id("-"), "g:1:1: vertex id: expected an integer, found '-'");
  EXPECT_EQ(snap_id("1-2"), "g:1:1: vertex id: expected an integer, found '1-2'");
  EXPECT_EQ(snap_id("12a"), "g:1:1: vertex id: expected an integer, found '12a'");
}

TEST(GraphReaderFastPaths, WeightsReadAsBefore) {
  const auto weight = [](const std::string& w) {
    std::string out;
    const std::string fault = message_of([&] {
      out = std::to_string(dimacs_graph_format()
                               .parse("p sp 2 1\na 1 2 " + w + "\n", "g", 1 << 20, nullptr)
                               .edges.at(0)
                               .w);
    });
    return fault.empty() ? out : fault;
  };
  EXPECT_EQ(weight("0"), "0");
  EXPECT_EQ(weight("-0"), "0");
  EXPECT_EQ(weight("0035"), "35");
  EXPECT_EQ(weight("3.0"), "3");
  EXPECT_EQ(weight("1e3"), "1000");
  EXPECT_EQ(weight("1073741822"), "1073741822");
  EXPECT_EQ(weight("-5"), "g:2:7: negative weight -5");
  EXPECT_EQ(weight("1073741823"), "1073741823");
  EXPECT_EQ(weight("2147483647"), "2147483647");
  EXPECT_EQ(weight("2147483648"),
            "g:2:7: weight 2147483648 is above 2147483647, the largest weight read (2^31 - 1)");
  EXPECT_EQ(weight("3e9"),
            "g:2:7: weight 3e9 is above 2147483647, the largest weight read (2^31 - 1)");
  EXPECT_EQ(weight("123456789012345678901"),
            "g:2:7: weight 123456789012345678901 is above 2147483647, the largest weight read "
            "(2^31 - 1)");
  EXPECT_EQ(weight("0x10"), "g:2:7: expected a weight, found '0x10'");
  EXPECT_EQ(weight("2.5"), "g:2:7: weight 2.5 is not an integer: weights are integers");
}

// Ids on both sides of the table's end, negative ones and repeats: one row each, in increasing
// id order, whatever order they first appear in.
TEST(GraphReaderFastPaths, SnapIdsOnBothSidesOfTheTable) {
  std::string note;
  const EdgeList g = snap_graph_format().parse(
      "5 -3\n16777216 16777215\n-3 5\n4000000000 16777216\n16777215 5\n", "g", 64u << 20, &note);
  ASSERT_EQ(g.num_vertices, 5);
  std::string pairs;
  for (const Edge& e : g.edges) pairs += std::to_string(e.src) + ">" + std::to_string(e.dst) + " ";
  EXPECT_EQ(pairs, "1>0 3>2 0>1 4>3 2>1 ");
  EXPECT_EQ(g.ids, (std::vector<int64_t>{-3, 5, 16777215, 16777216, 4000000000}));
  EXPECT_EQ(note,
            "read a SNAP edge list: 5 ids from -3 to 4000000000, sparse: rows 0..4 are the ids in "
            "increasing order (--row-ids FILE writes them)");
}

// A file gzip wrote (through zlib's gz* functions), read back whole.
std::string gzipped(const test::ScratchDir& dir, const std::string& text) {
  const std::string path = dir.file("t.gz");
  gzFile f = gzopen(path.c_str(), "wb9");
  EXPECT_NE(f, nullptr);
  EXPECT_EQ(gzwrite(f, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  EXPECT_EQ(gzclose(f), Z_OK);
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A text that packs a hundred times tighter than 16 (the first allocation's bound) grows its
// output by doubling; exactly max_bytes is read, one byte more is refused.
TEST(GraphReaderFastPaths, GzipGrowsItsOutputAndKeepsItsBound) {
  const test::ScratchDir dir;
  std::string text = "p sp 2 100000\n";
  for (int i = 0; i < 100000; ++i) text += "a 1 2 7\n";
  const std::string packed = gzipped(dir, text);
  ASSERT_LT(packed.size() * 16, text.size()) << "the test needs a text that packs tightly";
  EXPECT_EQ(gunzip_if_gzip(packed, "t.gz", text.size(), nullptr), text);
  EXPECT_EQ(message_of([&] { gunzip_if_gzip(packed, "t.gz", text.size() - 1, nullptr); }),
            "t.gz: unpacks to more than the 800.0 KB available");
  // Two members: the first one's size is not the whole.
  EXPECT_EQ(gunzip_if_gzip(packed + gzipped(dir, "c end\n"), "t.gz", 0, nullptr), text + "c end\n");
  EXPECT_EQ(gunzip_if_gzip(gzipped(dir, ""), "t.gz", 0, nullptr), "");
}

}  // namespace
}  // namespace apsp
