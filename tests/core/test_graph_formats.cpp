// The graph readers of core/graph_formats.hpp: each format, gzip, auto-detection, and the
// refusals, each one line naming the line and the column.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <string>
#include <utility>
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

// Rows are the ids in increasing order, as SciPy and NetworkX index a graph: ids 0..V-1 are
// their own rows (ids stays empty), any others are listed in ids.
TEST(GraphFormats, SnapRowsAreTheIdsInIncreasingOrder) {
  std::string note;
  const EdgeList g =
      parse(snap_graph_format(), "# a comment\n% another\n10 30\n30 20 4\n\n10 10 2.0\n", &note);
  EXPECT_EQ(g.num_vertices, 3);
  EXPECT_EQ(edges_of(g), (std::vector<std::string>{"0>2:1", "2>1:4", "0>0:2"}));
  EXPECT_EQ(g.ids, (std::vector<int64_t>{10, 20, 30}));
  EXPECT_EQ(note,
            "read a SNAP edge list: 3 ids from 10 to 30, sparse: rows 0..2 are the ids in "
            "increasing order (--row-ids FILE writes them)");
  EXPECT_EQ(parse(snap_graph_format(), "5 100\n100 7\n").ids, (std::vector<int64_t>{5, 7, 100}));
  parse(snap_graph_format(), "-9223372036854775808 9223372036854775807\n", &note);
  EXPECT_EQ(
      note,
      "read a SNAP edge list: 2 ids from -9223372036854775808 to 9223372036854775807, sparse: "
      "rows 0..1 are the ids in increasing order (--row-ids FILE writes them)");
  // Ids 0..V-1 met out of order (as in SNAP's Facebook file): the identity.
  const EdgeList facebook = parse(snap_graph_format(), "2 0\n1 3\n0 1\n3 2\n", &note);
  EXPECT_TRUE(facebook.ids.empty());
  EXPECT_EQ(edges_of(facebook), (std::vector<std::string>{"2>0:1", "1>3:1", "0>1:1", "3>2:1"}));
  EXPECT_EQ(note, "read a SNAP edge list: ids 0..3 are rows 0..3");
  const EdgeList one_based = parse(snap_graph_format(), "3 1\n1 2\n", &note);
  EXPECT_EQ(one_based.ids, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(edges_of(one_based), (std::vector<std::string>{"2>0:1", "0>1:1"}));
  EXPECT_EQ(note, "read a SNAP edge list: ids 1..3 are rows 0..2 in increasing order");
  EXPECT_TRUE(parse(dimacs_graph_format(), "p sp 2 1\na 2 1 3\n").ids.empty())
      << "only SNAP's ids are listed";
}

TEST(GraphFormats, SnapRefusals) {
  const GraphFormat& f = snap_graph_format();
  EXPECT_EQ(refusal(f, "1 2\n1\n"), "g:2:2: missing vertex id: the line ends");
  EXPECT_EQ(refusal(f, "1 2 2.5\n"), "g:1:5: weight 2.5 is not an integer: weights are integers");
  EXPECT_EQ(refusal(f, "1 2 3 4\n"),
            "g:1:7: unexpected '4': expected 'u v', 'u v w' or 'u v {'weight': w}'");
  EXPECT_EQ(refusal(f, "# only\n"),
            "g:2:1: no edges: a SNAP edge list names its vertices by its edges");
  EXPECT_EQ(refusal(f, "1 2 2147483648\n"),
            "g:1:5: weight 2147483648 is above 2147483647, the largest weight read (2^31 - 1)");
}

// NetworkX's write_edgelist writes each edge's data as a Python dict ('u v {'weight': 3}'); its
// read_edgelist takes it back with ast.literal_eval. The reader takes the subset NetworkX writes:
// quoted keys, values that are numbers, strings, True, False or None; no 'weight' is 1.
TEST(GraphFormats, SnapReadsNetworkxEdgeData) {
  const EdgeList g = parse(snap_graph_format(),
                           "10 20 {'weight': 3}\n"
                           "20 30 {}\n"
                           "30 10 {'weight': 2.0, 'color': 'red'}\n"
                           "10 30 {\"weight\": 7, 'label': 'a, \\'b}', 'ok': True, 'n': None,}\n"
                           "20 10 {'color': 'blue', 'weight': 1e3}\n"
                           "30 20\t{ 'capacity' : -4.5 , 'weight' : 0 }\r\n"
                           "10 10 {'weight': 8, 'weight': 9}\n");
  EXPECT_EQ(edges_of(g), (std::vector<std::string>{"0>1:3", "1>2:1", "2>0:2", "0>2:7", "1>0:1000",
                                                   "2>1:0", "0>0:9"}));
}

TEST(GraphFormats, SnapEdgeDataRefusalsNameTheColumn) {
  const GraphFormat& f = snap_graph_format();
  EXPECT_EQ(refusal(f, "1 2 {'weight': 'heavy'}\n"),
            "g:1:16: in the edge's data: the weight must be a number, found 'heavy'");
  EXPECT_EQ(refusal(f, "1 2 {'weight': -3}\n"), "g:1:16: negative weight -3");
  EXPECT_EQ(refusal(f, "1 2 {'weight': 2.5}\n"),
            "g:1:16: weight 2.5 is not an integer: weights are integers");
  EXPECT_EQ(refusal(f, "1 2 {'weight': True}\n"), "g:1:16: expected a weight, found 'True'");
  EXPECT_EQ(refusal(f, "1 2 {'weight': 3\n"),
            "g:1:17: in the edge's data: expected ',' or '}' after a value, found the end of the "
            "line");
  EXPECT_EQ(refusal(f, "1 2 {weight: 3}\n"),
            "g:1:6: in the edge's data: expected a key in quotes ('weight')");
  EXPECT_EQ(refusal(f, "1 2 {'weight' 3}\n"),
            "g:1:15: in the edge's data: expected ':' after the key, found '3'");
  // Control bytes are shown escaped, so that the refusal stays one printable line (fuzz_snap's
  // finding).
  EXPECT_EQ(refusal(f, std::string("1 2 {'w'\x01}\n")),
            "g:1:9: in the edge's data: expected ':' after the key, found '\\x01'");
  EXPECT_EQ(refusal(f, std::string("1 2 {'weight': '\x01'}\n")),
            "g:1:16: in the edge's data: the weight must be a number, found '\\x01'");
  EXPECT_EQ(refusal(f, "1 2 {'weight: 3}\n"),
            "g:1:6: in the edge's data: a string without its closing quote");
  EXPECT_EQ(refusal(f, "1 2 {'weight': 3, 'a\\'\n"),
            "g:1:19: in the edge's data: a string without its closing quote")
      << "an escaped quote closes nothing";
  EXPECT_EQ(refusal(f, "1 2 {'weight': [3]}\n"),
            "g:1:16: in the edge's data: expected a number, a string, True, False or None");
  EXPECT_EQ(refusal(f, "1 2 {'weight': 3} 4\n"),
            "g:1:19: unexpected '4': expected 'u v', 'u v w' or 'u v {'weight': w}'");
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

// The name of the format auto picks for `text` read from standard input.
std::string auto_format(const std::string& text) {
  return choose_graph_format("auto", "-", text, nullptr).name;
}

TEST(GraphFormats, AutoGoesByExtensionThenSignature) {
  std::string why;
  EXPECT_EQ(choose_graph_format("auto", "a.gr.gz", "", &why).name, "dimacs");
  EXPECT_EQ(why, "input format: dimacs, by the extension .gr (--input-format overrides)");
  EXPECT_EQ(choose_graph_format("auto", "dir.mtx/a", "%%MatrixMarket", &why).name, "mtx");
  EXPECT_EQ(why, "input format: mtx, by its content (--input-format overrides)");
  EXPECT_EQ(choose_graph_format("auto", "g.edges", "0 1\n", &why).name, "snap");
  EXPECT_EQ(choose_graph_format("auto", "g.edgelist.gz", "0 1 {}\n", &why).name, "snap");
  EXPECT_EQ(why, "input format: snap, by the extension .edgelist (--input-format overrides)");
  EXPECT_EQ(choose_graph_format("snap", "a.gr", "p sp 1 0", &why).name, "snap");
  EXPECT_EQ(why, "");
  EXPECT_EQ(message_of([] { choose_graph_format("xml", "a", "", nullptr); }),
            "--input-format: unknown format 'xml'");
  // Each format's own signature, after blank lines.
  EXPECT_EQ(auto_format("c x\np sp 1 0\n"), "dimacs");
  EXPECT_EQ(auto_format("\n p sp 1 0\n"), "dimacs");
  EXPECT_EQ(auto_format("p edge 3 2\n"), "dimacs") << "whose reader then refuses it";
  EXPECT_EQ(auto_format("%%MatrixMarket matrix coordinate real general\n"), "mtx");
  EXPECT_EQ(auto_format("%%MatrixMarkt matrix coordinate real general\n"), "mtx")
      << "a banner with a typo is refused by mtx, not read as a SNAP comment";
  EXPECT_EQ(auto_format("# Directed graph\n0 1\n"), "snap");
  EXPECT_EQ(auto_format("\n  # c\n0 1\n"), "snap");
  EXPECT_EQ(auto_format("% sym unweighted\n1 2\n"), "snap") << "KONECT's '%' header";
}

// Numbers alone never make a file SNAP: a contest edge list with a fault stays one (and is
// refused as one), and so does a header-less SNAP or NetworkX file, which its extension or
// --input-format names.
TEST(GraphFormats, AutoNeverReadsABrokenContestFileAsAnotherFormat) {
  for (const std::string text :
       {"3 2\n0 1 1\n1 2 1\n", "3 1\n0 1\n", "3 2\n0 1\n1 2\n", "3 1\n0 1 5 9\n", "3 2\n",
        "3 2\n0 1 5\n", "3 1\n0 1 5\n1 2 5\n", "3 1\n0 x 5\n", "0 1\n1 2\n2 0\n", "1 2 3\n",
        "10 20 {'weight': 3}\n", "", "\n"})
    EXPECT_EQ(auto_format(text), "edges") << text;
}

// A fault of a format auto chose, the contest edge list it fell back on included, says which was
// read and how to name another; a named format's fault does not, and the fallback is not said.
TEST(GraphFormats, AutoFaultsNameTheFormatRead) {
  const auto read = [](const std::string& requested, const std::string& text) {
    std::string why, said;
    const GraphFormat& f = choose_graph_format(requested, "-", text, &why);
    const std::string fault = message_of([&] {
      parse_graph(f, why, text, "<stdin>", 64u << 20, [&](const std::string& l) { said += l; });
    });
    return fault.empty() ? "said: " + said : fault;
  };
  EXPECT_EQ(read("auto", "3 1\n0 1\n"),
            "<stdin>:2:4: expected 3 integers 'src dst w', found 2 (read as edges: if this is "
            "another format, name it with --input-format dimacs, mtx or snap)");
  EXPECT_EQ(read("edges", "3 1\n0 1\n"), "<stdin>:2:4: expected 3 integers 'src dst w', found 2");
  EXPECT_EQ(read("auto", "# c\n0 1 x\n"),
            "<stdin>:2:5: expected a weight, found 'x' (read as snap: if this is another format, "
            "name it with --input-format edges, dimacs or mtx)");
  EXPECT_EQ(read("auto", "2 1\n0 1 5\n"), "said: ");
  EXPECT_EQ(read("auto", "# c\n0 1\n"),
            "said: input format: snap, by its content (--input-format overrides)read a SNAP edge "
            "list: ids 0..1 are rows 0..1");
}

// Excel and Notepad save UTF-8 with a byte order mark: every reader skips it, and auto-detection
// looks past it.
TEST(GraphFormats, EveryReaderSkipsAByteOrderMark) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::vector<std::pair<const GraphFormat*, std::string>> files{
      {&edges_graph_format(), "2 1\n0 1 4\n"},
      {&dimacs_graph_format(), "c x\np sp 2 1\na 1 2 4\n"},
      {&snap_graph_format(), "# x\n0 1 4\n"},
      {&mtx_graph_format(), "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 4\n"}};
  for (const auto& [format, text] : files) {
    EXPECT_EQ(edges_of(parse(*format, bom + text)), (std::vector<std::string>{"0>1:4"}))
        << format->name;
    EXPECT_EQ(auto_format(bom + text), format->name);
  }
  EXPECT_EQ(refusal(snap_graph_format(), bom + "0 x\n"),
            "g:1:3: vertex id: expected an integer, found 'x'")
      << "columns count from after the mark";
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
