// The graph readers of core/graph_formats.hpp: each format, gzip, auto-detection, and the
// refusals, each one line naming the line and the column.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <string>
#include <vector>

#include "core/graph_formats.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp {
namespace {

using test::message_of;

EdgeList parse(const GraphFormat& f, const std::string& text, std::string* note = nullptr) {
  return f.parse(text, "g", 64u << 20, note);
}

std::string refusal(const GraphFormat& f, const std::string& text) {
  return message_of([&] { parse(f, text); });
}

// The edges as "src>dst:w" strings, for one comparison.
std::vector<std::string> edges_of(const EdgeList& g) {
  std::vector<std::string> out;
  for (const Edge& e : g.edges)
    out.push_back(std::to_string(e.src) + ">" + std::to_string(e.dst) + ":" + std::to_string(e.w));
  return out;
}

std::string gzip(const std::string& text) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, text.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(GraphFormats, Dimacs) {
  const EdgeList g =
      parse(dimacs_graph_format(), "c road\np sp 3 3\nc arcs\na 1 2 5\na 2 3 7\r\na 3 1 0\n");
  EXPECT_EQ(g.num_vertices, 3);
  EXPECT_EQ(edges_of(g), (std::vector<std::string>{"0>1:5", "1>2:7", "2>0:0"}));
}

TEST(GraphFormats, DimacsRefusalsNameLineAndColumn) {
  const GraphFormat& f = dimacs_graph_format();
  EXPECT_EQ(refusal(f, "p sp 3 1\na 1 4 5\n"), "g:2:5: vertex 4 out of range [1, 3]");
  EXPECT_EQ(refusal(f, "p sp 3 1\na 1 2 -5\n"), "g:2:7: negative weight -5");
  EXPECT_EQ(refusal(f, "p sp 3 2\na 1 2 5\n"),
            "g:3:1: end of input after 1 of the 2 arcs the problem line announced");
  EXPECT_EQ(refusal(f, "a 1 2 5\n"), "g:1:1: expected the problem line 'p sp V E' before the arcs");
  EXPECT_EQ(refusal(f, "p sp 3 1\na 1 2 5 9\n"), "g:2:9: unexpected '9': expected 'a u v w'");
  EXPECT_EQ(refusal(f, "p sp 3 1\na 1 2 x\n"), "g:2:7: expected a weight, found 'x'");
  EXPECT_EQ(refusal(f, "p sp 0 0\n"), "g:1:6: V must be positive, got 0");
  EXPECT_EQ(refusal(f, "p sp 3 1\na 1 2 5\na 2 3 5\n"),
            "g:3:1: more arcs than the 1 the problem line (line 1) announced");
  EXPECT_NE(refusal(f, "p sp 100000 0\n").find("g:1:6: V = 100000 needs a"), std::string::npos);
}

TEST(GraphFormats, SnapRemapsIdsInOrderOfFirstAppearance) {
  std::string note;
  const EdgeList g =
      parse(snap_graph_format(), "# a comment\n% another\n10 30\n30 20 4\n\n10 10 2.0\n", &note);
  EXPECT_EQ(g.num_vertices, 3);
  EXPECT_EQ(edges_of(g), (std::vector<std::string>{"0>1:1", "1>2:4", "0>0:2"}));
  EXPECT_EQ(note,
            "read a SNAP edge list: 3 ids remapped to 0..2 in the order they first appear (id 10 "
            "is vertex 0)");
}

TEST(GraphFormats, SnapRefusals) {
  const GraphFormat& f = snap_graph_format();
  EXPECT_EQ(refusal(f, "1 2\n1\n"), "g:2:2: missing vertex id: the line ends");
  EXPECT_EQ(refusal(f, "1 2 2.5\n"), "g:1:5: weight 2.5 is not an integer: weights are integers");
  EXPECT_EQ(refusal(f, "1 2 3 4\n"), "g:1:7: unexpected '4': expected 'u v' or 'u v w'");
  EXPECT_EQ(refusal(f, "# only\n"),
            "g:2:1: no edges: a SNAP edge list names its vertices by its edges");
  EXPECT_EQ(refusal(f, "1 2 2147483648\n"),
            "g:1:5: weight 2147483648 is above 2147483647, the largest weight read (2^31 - 1)");
}

TEST(GraphFormats, MatrixMarketFieldsAndSymmetry) {
  const GraphFormat& f = mtx_graph_format();
  const EdgeList g = parse(
      f, "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 2\n2 1 3.000e+00\n3 3 1\n");
  EXPECT_EQ(g.num_vertices, 3);
  EXPECT_EQ(edges_of(g), (std::vector<std::string>{"1>0:3", "0>1:3", "2>2:1"}));
  const EdgeList p = parse(f, "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  EXPECT_EQ(edges_of(p), (std::vector<std::string>{"0>1:1"}));
  const EdgeList i = parse(f, "%%MatrixMarket Matrix Coordinate Integer General\n2 2 1\n2 1 9\n");
  EXPECT_EQ(edges_of(i), (std::vector<std::string>{"1>0:9"}));
}

TEST(GraphFormats, MatrixMarketRefusals) {
  const GraphFormat& f = mtx_graph_format();
  const std::string banner = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_EQ(refusal(f, banner + "2 2 1\n1 2 0.5\n"),
            "g:3:5: weight 0.5 is not an integer: weights are integers");
  EXPECT_EQ(refusal(f, banner + "2 2 1\n1 2 -1.0\n"), "g:3:5: negative weight -1.0");
  EXPECT_EQ(refusal(f, banner + "2 3 1\n"),
            "g:2:3: the matrix is 2 x 3: only a square matrix is a graph");
  EXPECT_EQ(refusal(f, banner + "2 2 1\n0 1 1\n"), "g:3:1: row 0 out of range [1, 2]");
  EXPECT_EQ(refusal(f, "%%MatrixMarket matrix coordinate complex general\n"),
            "g:1:34: the field must be integer, real (of integral values) or pattern");
  EXPECT_EQ(refusal(f, "%%MatrixMarket matrix array real general\n"),
            "g:1:23: only the 'coordinate' format is a graph (a dense 'array' is not read)");
  EXPECT_EQ(refusal(f, banner + "2 2 1\n1 2 1\n2 1 1\n"),
            "g:4:1: unexpected content after the 1 entries");
  EXPECT_EQ(refusal(f, ""),
            "g:1:1: expected the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY' on "
            "line 1");
}

TEST(GraphFormats, AutoGoesByExtensionThenContent) {
  std::string why;
  EXPECT_EQ(choose_graph_format("auto", "a.gr.gz", "", &why).name, "dimacs");
  EXPECT_EQ(why, "input format: dimacs, by the extension .gr (--input-format overrides)");
  EXPECT_EQ(choose_graph_format("auto", "dir.mtx/a", "%%MatrixMarket", &why).name, "mtx");
  EXPECT_EQ(choose_graph_format("auto", "a.txt", "c x\np sp 1 0\n", &why).name, "dimacs");
  EXPECT_EQ(choose_graph_format("auto", "-", "3 2\n0 1 1\n1 2 1\n", &why).name, "edges");
  EXPECT_EQ(why, "");  // the contest edge list goes without a word
  // Fewer edges than the header says: still this format, whose reader then refuses the file.
  EXPECT_EQ(choose_graph_format("auto", "a.txt", "3 2\n0 1 1\n", &why).name, "edges");
  EXPECT_EQ(choose_graph_format("auto", "a.txt", "3 2\n0 1\n1 2\n", &why).name, "snap");
  EXPECT_EQ(why, "input format: snap, by its content (--input-format overrides)");
  EXPECT_EQ(choose_graph_format("auto", "a.el", "# c\n0 1\n", &why).name, "snap");
  EXPECT_EQ(choose_graph_format("snap", "a.gr", "p sp 1 0", &why).name, "snap");
  EXPECT_EQ(why, "");
  EXPECT_EQ(message_of([] { choose_graph_format("xml", "a", "", nullptr); }),
            "--input-format: unknown format 'xml'");
}

TEST(GraphFormats, GzipFilesReadLikeTheirText) {
  test::ScratchDir dir;
  const std::string text = "c x\np sp 2 1\na 1 2 4\n";
  write(dir.file("g.gr.gz"), gzip(text));
  // Two members, as `cat a.gz b.gz` makes, and a name that says nothing: the magic bytes tell.
  write(dir.file("g.data"), gzip("# s\n5 6\n") + gzip("6 5 3\n"));
  std::vector<std::string> said;
  const auto say = [&](const std::string& line) { said.push_back(line); };
  EXPECT_EQ(edges_of(read_graph(dir.file("g.gr.gz"), "auto", 0, say)),
            (std::vector<std::string>{"0>1:4"}));
  ASSERT_EQ(said.size(), 2u);
  EXPECT_NE(said[0].find("g.gr.gz: gzip, "), std::string::npos);
  EXPECT_EQ(said[1], "input format: dimacs, by the extension .gr (--input-format overrides)");
  said.clear();
  EXPECT_EQ(edges_of(read_graph(dir.file("g.data"), "auto", 0, say)),
            (std::vector<std::string>{"0>1:1", "1>0:3"}));
  EXPECT_EQ(said.size(), 3u);
}

TEST(GraphFormats, DamagedGzipIsRefused) {
  test::ScratchDir dir;
  std::string packed = gzip("p sp 2 1\na 1 2 4\n");
  write(dir.file("cut.gr.gz"), packed.substr(0, packed.size() - 6));
  const auto quiet = [](const std::string&) {};
  EXPECT_EQ(message_of([&] { read_graph(dir.file("cut.gr.gz"), "auto", 0, quiet); }),
            dir.file("cut.gr.gz") + ": the gzip data is cut short");
  packed[12] = static_cast<char>(packed[12] ^ 0x55);
  write(dir.file("bad.gr.gz"), packed);
  EXPECT_NE(message_of([&] {
              read_graph(dir.file("bad.gr.gz"), "auto", 0, quiet);
            }).find(": damaged gzip data at byte"),
            std::string::npos);
}

// No a-priori bound on the distances in any format ((V - 1) * w past kInf reads); weights above
// 2^31 - 1 are refused at their column, whatever the format.
TEST(GraphFormats, EveryFormatKeepsTheWeightBound) {
  const std::string fits = "536870912", over = "2147483648";
  EXPECT_EQ(parse(dimacs_graph_format(), "p sp 3 1\na 1 2 " + fits + "\n").edges.size(), 1u);
  EXPECT_EQ(refusal(dimacs_graph_format(), "p sp 3 1\na 1 2 " + over + "\n").substr(0, 14),
            "g:2:7: weight ");
  EXPECT_EQ(refusal(snap_graph_format(), "0 1\n1 2 " + over + "\n").substr(0, 14),
            "g:2:5: weight ");
  EXPECT_EQ(refusal(mtx_graph_format(),
                    "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 " + over + "\n")
                .substr(0, 14),
            "g:3:5: weight ");
}

}  // namespace
}  // namespace apsp
