// The tuner on a graph file (tuner --graph): its entries are keyed by the file's path, the key
// apsp_bench --graph --tuned looks its picks up by, and never by a generator's spec. Through the
// CPU-backed test variants.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/generators.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/tune/tuning.hpp"
#include "tests/harness/pipeline/cpu_session.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

using test::cpu_session;

std::shared_ptr<const EdgeList> road_graph(int V) {
  GraphSpec s;
  s.kind = GraphKind::kRoad;
  s.num_vertices = V;
  s.wmax = 40;
  s.long_edges = 5;
  return std::make_shared<const EdgeList>(generate(s));
}

TuneOptions file_tuning(const std::string& path, std::shared_ptr<const EdgeList> edges) {
  TuneOptions o;
  o.group = "cpu";
  o.baseline = "cpu_naive";
  o.solver = "cpu_fw";
  o.sampling = {3, 3, 0.0, false};
  o.graph_file = path;
  o.graph_edges = std::move(edges);
  return o;
}

TEST(TuneGraphFile, EntriesAreKeyedByTheFilesPath) {
  const test::ScratchDir scratch;
  const std::string db_path = scratch.file("db.json");
  const auto edges = road_graph(60);
  const TuneOptions o = file_tuning("roads/ny.gr.gz", edges);
  const Session s = cpu_session();
  TuningDb db;
  const TuneReport report = tune(tunable_variants("", "cpu"), {60}, o, s, db, db_path, {});
  ASSERT_EQ(report.boards.size(), 1u);
  EXPECT_FALSE(report.boards[0].rows.empty());
  const GraphKey key = tuning_key(tuning_graph(o));
  EXPECT_EQ(key, (GraphKey{"file", 0, 0, "roads/ny.gr.gz"}));
  const TuningDb back = TuningDb::load(db_path);
  ASSERT_FALSE(back.entries().empty());
  for (const TuningEntry& e : back.entries()) {
    EXPECT_EQ(e.graph, key) << e.name;
    EXPECT_EQ(e.n, 60);
  }
  TuningMatch m{DeviceModel::of(*s.device), key, "test-kernels"};
  EXPECT_NE(back.find(m, "cpu_naive", 60), nullptr);
  m.graph.file = "roads/other.gr.gz";
  EXPECT_EQ(back.find(m, "cpu_naive", 60), nullptr) << "another file is another graph";
  m.graph = GraphKey{"random", 0.1, 1000};
  EXPECT_EQ(back.find(m, "cpu_naive", 60), nullptr) << "nor is it a generator's";
}

TEST(TuneGraphFile, EverySizeMustBeTheFilesV) {
  const test::ScratchDir scratch;
  TuningDb db;
  const TuneOptions o = file_tuning("g.txt", road_graph(30));
  EXPECT_THROW(tune(tunable_variants("", "cpu"), {30, 40}, o, cpu_session(), db,
                    scratch.file("db.json"), {}),
               std::invalid_argument);
  EXPECT_TRUE(db.entries().empty()) << "refused before any point";
}

// The key in the file: "file" beside kind, density and wmax; a generator's entry has none, as in
// databases from before files were tuned.
TEST(TuneGraphFile, TheKeyRoundTripsAndGeneratorsWriteNoFile) {
  TuningEntry e{{"Test Device", "9.0", 132},
                "cpu_fw",
                60,
                {},
                "cpu_fw",
                {"file", 0, 0, "ny.gr"},
                1,
                {"c", "k"},
                "ok",
                "",
                {1.0},
                1.0,
                "d"};
  TuningDb db;
  db.upsert(e);
  e.graph = {"random", 0.1, 1000};
  db.upsert(e);
  const TuningDb back = TuningDb::parse(db.text(), "test");
  ASSERT_EQ(back.entries().size(), 2u);
  EXPECT_EQ(back.entries()[0].graph, (GraphKey{"file", 0, 0, "ny.gr"}));
  EXPECT_EQ(back.entries()[1].graph, (GraphKey{"random", 0.1, 1000}));
  const nlohmann::json j = nlohmann::json::parse(db.text());
  EXPECT_EQ(j["entries"][0]["graph"]["file"], "ny.gr");
  EXPECT_FALSE(j["entries"][1]["graph"].contains("file"));
}

// apsp_bench --graph FILE --tuned DB picks from the entries of that file, and from no other's.
TEST(TuneGraphFile, TheBenchPicksFromTheSameFilesEntries) {
  const Session s = cpu_session();
  const auto edges = road_graph(40);
  Plan p;
  p.sizes = {40};
  p.graph.edges = edges;
  p.graph.file = "ny.gr";
  p.baseline = "cpu_naive";
  p.requests = select_requests("cpu_tunable", {});
  p.requests[0].tuned = true;
  p.sampling = {2, 3, 0.0, false};
  p.ceiling_s = 0;
  const auto entry = [&](const std::string& file, int slow, double ms) {
    const Config c{{"slow", slow}};
    return TuningEntry{DeviceModel::of(*s.device),
                       "cpu_tunable",
                       40,
                       c,
                       config_name("cpu_tunable", c),
                       {"file", 0, 0, file},
                       1,
                       {"c", "test-kernels"},
                       "ok",
                       "",
                       {ms},
                       ms,
                       ""};
  };
  TuningDb db;
  db.upsert(entry("ny.gr", 2, 5.0));  // the default (slow = 2)
  db.upsert(entry("ny.gr", 1, 2.0));
  db.upsert(entry("other.gr", 3, 1.0));  // faster, on another file: never picked
  const Outcome out = run_plan(p, s, {}, TunedSource{&db, {}, "db.json"});
  ASSERT_EQ(out.results.runs.size(), 1u);
  const RunResult& r = out.results.runs[0];
  EXPECT_EQ(r.config, (Config{{"slow", 1}}));
  EXPECT_NE(r.config_source->find("tuned at n = 40: 2.000 ms against the default's 5.000 ms"),
            std::string::npos)
      << *r.config_source;
  EXPECT_EQ(r.graph.kind, "file");
  EXPECT_EQ(r.graph.file, "ny.gr");
}

}  // namespace
}  // namespace apsp::harness
