// The answers without the matrix (harness/solve/summary.hpp) on the host: the reductions against
// their definition, what is made of them (NetworkX's closeness, the summary over reachable
// pairs), --sources' parsing and rows, and the solver's --summary end to end on the CPU.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/edge_list.hpp"
#include "core/generators.hpp"
#include "core/matrix_io.hpp"
#include "core/reference.hpp"
#include "harness/solve/solver.hpp"
#include "harness/solve/summary.hpp"
#include "tests/support/file_contents.hpp"
#include "tests/support/message_of.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

// Unreachable pairs, zero weights, duplicates with other weights and self loops.
DistMatrix awkward_distances(int n, uint64_t seed) {
  GraphSpec spec;
  spec.kind = GraphKind::kComponents;
  spec.num_vertices = n;
  spec.components = 3;
  spec.density = 0.08;
  spec.wmin = 0;
  spec.wmax = 9;
  spec.duplicates = 0.3;
  spec.seed = seed;
  EdgeList g = generate(spec);
  for (int i = 0; i < n; i += 5) g.edges.push_back({i, i, 4});
  return solve_reference(g, 1);
}

// The definitions, one entry at a time.
VertexReductions by_definition(const DistMatrix& d) {
  VertexReductions r(d.n());
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) {
      const int32_t x = d.at(i, j);
      if (i == j || x >= kInf) continue;
      r.eccentricity[i] = std::max<int64_t>(r.eccentricity[i], x);
      ++r.reaches[i];
      r.out_sum[i] += x;
      ++r.reached_by[j];
      r.in_sum[j] += x;
    }
  return r;
}

TEST(Summary, HostReductionsAreTheirDefinitionOnAnyThreads) {
  for (int n : {1, 2, 63, 65, 130}) {
    const DistMatrix d = awkward_distances(n, 7 + n);
    const VertexReductions want = by_definition(d);
    for (int threads : {1, 3, 8}) EXPECT_EQ(reduce_on_host(d.view(), threads), want) << n;
  }
}

// 0 -> 1 (1), 1 -> 2 (2), and vertex 3 alone.
DistMatrix chain_and_one_alone() {
  EdgeList g{4, {{0, 1, 1}, {1, 2, 2}}};
  return solve_reference(g, 1);
}

TEST(Summary, OverReachablePairsOnly) {
  const VertexReductions r = reduce_on_host(chain_and_one_alone().view());
  EXPECT_EQ(r.eccentricity, (std::vector<int64_t>{3, 2, 0, 0}));
  EXPECT_EQ(r.reaches, (std::vector<uint32_t>{2, 1, 0, 0}));
  EXPECT_EQ(r.reached_by, (std::vector<uint32_t>{0, 1, 2, 0}));
  EXPECT_EQ(r.in_sum, (std::vector<uint64_t>{0, 1, 5, 0}));
  const GraphSummary s = summarize(r, 2);
  EXPECT_EQ(s.vertices, 4);
  EXPECT_EQ(s.reachable_pairs, 3u);
  EXPECT_EQ(s.ordered_pairs, 12u);
  EXPECT_FALSE(s.strongly_connected());
  EXPECT_EQ(s.diameter, 3);
  EXPECT_EQ(s.radius, 0);  // a vertex that reaches nothing
  EXPECT_EQ(decimal(s.distance_sum), "6");
  EXPECT_EQ(s.average_shortest_path_length, 2.0);
  // NetworkX: (r - 1) / S * (r - 1) / (V - 1) from the distances into v; 0 when S = 0.
  EXPECT_EQ(closeness(r, 0), 0.0);
  EXPECT_EQ(closeness(r, 1), 1.0 / 1.0 * (1.0 / 3));
  EXPECT_EQ(closeness(r, 2), 2.0 / 5.0 * (2.0 / 3));
  EXPECT_EQ(closeness(r, 3), 0.0);
}

TEST(Summary, ZeroDistancesAndOneVertex) {
  EdgeList zero{3, {{0, 1, 0}, {1, 2, 0}, {2, 0, 0}}};
  const VertexReductions r = reduce_on_host(solve_reference(zero, 1).view());
  const GraphSummary s = summarize(r, 3);
  EXPECT_TRUE(s.strongly_connected());
  EXPECT_EQ(s.diameter, 0);
  EXPECT_EQ(s.average_shortest_path_length, 0.0);
  EXPECT_EQ(closeness(r, 1), 0.0);  // as NetworkX: a sum of 0 gives 0
  const VertexReductions one = reduce_on_host(DistMatrix(1).view());
  const GraphSummary s1 = summarize(one, 0);
  EXPECT_EQ(s1.ordered_pairs, 0u);
  EXPECT_TRUE(s1.strongly_connected());
  EXPECT_EQ(s1.average_shortest_path_length, 0.0);
  EXPECT_EQ(closeness(one, 0), 0.0);
}

TEST(Summary, LinesJsonAndCsv) {
  const VertexReductions r = reduce_on_host(chain_and_one_alone().view());
  const GraphSummary s = summarize(r, 2);
  const SolvedWith with{"g.txt", "cpu", "int32", "CPU", 0};
  const std::string lines = summary_lines(s, with);
  EXPECT_NE(lines.find("diameter: 3\n"), std::string::npos) << lines;
  EXPECT_NE(lines.find("radius: 0\n"), std::string::npos) << lines;
  EXPECT_NE(lines.find("reachable pairs: 3 of the 12"), std::string::npos) << lines;
  EXPECT_NE(lines.find("average shortest path length: 2 (= 6 / 3"), std::string::npos) << lines;
  const auto j = nlohmann::json::parse(summary_json(s, with));
  EXPECT_EQ(j["schema"], "apsp-summary/1");
  EXPECT_EQ(j["vertices"], 4);
  EXPECT_EQ(j["edges"], 2);
  EXPECT_EQ(j["diameter"], 3);
  EXPECT_EQ(j["radius"], 0);
  EXPECT_EQ(j["reachable_pairs"], 3);
  EXPECT_EQ(j["strongly_connected"], false);
  EXPECT_EQ(j["distance_sum"], "6");
  EXPECT_EQ(j["average_shortest_path_length"], 2.0);
  EXPECT_EQ(j["solver"]["variant"], "cpu");
  const std::string csv = per_vertex_csv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "vertex,eccentricity,closeness,reaches,reached_by");
  EXPECT_NE(csv.find("\n2,0,0.26666666666666666,0,2\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n3,0,0,0,0\n"), std::string::npos) << csv;
}

TEST(Summary, DecimalPastSixtyFourBits) {
  EXPECT_EQ(decimal(0), "0");
  EXPECT_EQ(decimal(static_cast<unsigned __int128>(1) << 100), "1267650600228229401496703205376");
}

TEST(Sources, ListsAndFiles) {
  EXPECT_EQ(parse_sources("0,5,17"), (std::vector<int64_t>{0, 5, 17}));
  EXPECT_EQ(parse_sources(" 3 , 4,4"), (std::vector<int64_t>{3, 4, 4}));
  test::ScratchDir dir;
  const std::string file = dir.file("ids.txt");
  std::ofstream(file) << "# the sources\n7 2, 9\n\n11 # the last\n";
  EXPECT_EQ(sources_file("@" + file), file);
  EXPECT_EQ(sources_file("1,2"), "");
  EXPECT_EQ(parse_sources("@" + file), (std::vector<int64_t>{7, 2, 9, 11}));
  // The message marks the request's field; named here as apsp names it.
  const auto message = [](const std::string& text) {
    return with_field_names(test::message_of([&] { parse_sources(text); }),
                            [](std::string_view field) { return "--" + std::string(field); });
  };
  EXPECT_EQ(message(" , "), "--sources ' , ': no vertex");
  EXPECT_EQ(message("1,x2"), "--sources '1,x2': 'x2' is not an integer");
  EXPECT_EQ(message("0,,1"), "--sources '0,,1': an empty entry at character 3")
      << "an id left out is no separator";
  EXPECT_EQ(message("0, ,1"), "--sources '0, ,1': an empty entry at character 4");
  EXPECT_EQ(parse_sources("-1"), (std::vector<int64_t>{-1})) << "a SNAP list's id may be negative";
  std::ofstream(file) << "1\n2\n3y\n";
  EXPECT_EQ(message("@" + file), "--sources @" + file + ":3: '3y' is not an integer");
  EXPECT_NE(message("@" + dir.file("none")).find("cannot open"), std::string::npos);
}

// A file's ids to rows: the vertex numbers themselves, or a SNAP list's ids (increasing) by place.
TEST(Sources, IdsToVertices) {
  EXPECT_EQ(vertex_of_id(4, {}, 5), 4);
  EXPECT_EQ(vertex_of_id(5, {}, 5), -1);
  EXPECT_EQ(vertex_of_id(-1, {}, 5), -1);
  const std::vector<int64_t> ids{-3, 5, 7, 100};
  EXPECT_EQ(vertex_of_id(7, ids, 4), 2);
  EXPECT_EQ(vertex_of_id(-3, ids, 4), 0);
  EXPECT_EQ(vertex_of_id(6, ids, 4), -1);
  EXPECT_EQ(vertex_of_id(1, ids, 4), -1) << "a row number is no id";
  EXPECT_EQ(id_of_vertex(3, ids), 100);
  EXPECT_EQ(id_of_vertex(3, {}), 3);
}

TEST(Sources, RowsInEveryFormat) {
  const DistMatrix d = awkward_distances(65, 3);
  const std::vector<int> sources{64, 0, 5, 5};
  test::ScratchDir dir;
  SolvedDistances where = OnHost{d};
  std::string rows;  // the chosen rows as int32, in order
  for (int s : sources)
    rows.append(reinterpret_cast<const char*>(d.row(s)), sizeof(int32_t) * d.n());
  write_source_rows(dir.file("r.bin"), sources, where, bin_matrix_format(), 2);
  const std::string bin = test::file_contents(dir.file("r.bin"));
  EXPECT_EQ(bin.substr(0, 24), std::string("APSPROW1\x04\0\0\0\0\0\0\0\x41\0\0\0\0\0\0\0", 24));
  EXPECT_EQ(bin.substr(24), rows);
  write_source_rows(dir.file("r.npy"), sources, where, npy_matrix_format(), 2);
  const std::string npy = test::file_contents(dir.file("r.npy"));
  EXPECT_NE(npy.find("'shape': (4, 65)"), std::string::npos);
  EXPECT_EQ(npy.substr(npy.size() - rows.size()), rows);
  write_source_rows(dir.file("r.txt"), sources, where, text_matrix_format(), 2);
  std::string want;
  for (int s : sources) {
    for (int j = 0; j < d.n(); ++j) want += std::to_string(d.at(s, j)) + (j + 1 < d.n() ? " " : "");
    want += "\n";
  }
  EXPECT_EQ(test::file_contents(dir.file("r.txt")), want);
}

TEST(Summary, TheSolverAnswersOnTheCpuWithoutTheMatrix) {
  test::ScratchDir dir;
  SolveRequest r;
  r.input = APSP_SOURCE_DIR "/tests/data/components37.txt";
  r.variant = "cpu";
  r.threads = 2;
  r.summary = true;
  r.per_vertex_to = dir.file("v.csv");
  r.summary_json_to = dir.file("s.json");
  Solver solver(r);
  solver.run();
  EXPECT_EQ(solver.distances_bytes(), 0u);
  const EdgeList g = read_edge_list(r.input);
  const VertexReductions want = reduce_on_host(solve_reference(g, 1).view());
  EXPECT_EQ(test::file_contents(dir.file("v.csv")), per_vertex_csv(want));
  const GraphSummary s = summarize(want, g.edges.size());
  const SolvedWith with{r.input, "cpu", "int32", "CPU", 0};
  EXPECT_EQ(test::file_contents(dir.file("s.json")), summary_json(s, with));
  EXPECT_EQ(solver.summary_lines(), summary_lines(s, with));
}

}  // namespace
}  // namespace apsp::harness
