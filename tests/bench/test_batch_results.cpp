// Batch runs in the results file (apsp_bench --graphs): written and read back whole, files from
// before batches still read, every new field checked by the reader, and the batch table.
#include <gtest/gtest.h>

#include "core/batch_tables.hpp"
#include "core/results.hpp"

namespace apsp {
namespace {

using nlohmann::json;

Results batch_results() {
  Results r;
  r.context.device = {{"name", "NVIDIA H200"}};
  r.context.ceiling_updates_per_s = 16e12;
  r.context.hbm_bytes_per_s = 4e12;
  RunResult run;
  run.variant = "batch_shared";
  run.config = {{"lanes", 32}, {"threads", 256}};
  run.name = "batch_shared[lanes=32,threads=256]";
  run.n = 128;
  run.graph = {"molecules", 7, 0, 1, ""};
  run.verified = "cpu-reference";
  run.samples_ms = {2.0, 2.1, 2.2};
  run.median_ms = 2.1;
  run.updates_per_s = 1000.0 * 128 * 128 * 128 / 2.1e-3;
  run.pct_of_ceiling = 100 * run.updates_per_s / 16e12;
  BatchDesc b;
  b.graphs = 1000;
  b.sizes = "fixed";
  b.vertices = 128000;
  b.edges = 288000;
  b.updates = 1000.0 * 128 * 128 * 128;
  b.bytes = 2.1e7;
  b.dist_type = "uint8";
  b.graphs_per_s = 1000 / 2.1e-3;
  b.pct_of_hbm = 100 * (2.1e7 / 2.1e-3) / 4e12;
  b.bound = "compute";
  run.batch = b;
  r.runs.push_back(run);
  return r;
}

// The reader's one line for the batch results with `change` applied to the first run's batch.
std::string error_with(const std::string& key, const json& value) {
  json j = to_json(batch_results());
  j["runs"][0]["batch"][key] = value;
  try {
    results_from_json(j);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(BatchResults, RoundTripKeepsEveryField) {
  const Results r = results_from_json(to_json(batch_results()));
  ASSERT_EQ(r.runs.size(), 1u);
  ASSERT_TRUE(r.runs[0].batch.has_value());
  const BatchDesc& b = *r.runs[0].batch;
  EXPECT_EQ(b.graphs, 1000);
  EXPECT_EQ(b.sizes, "fixed");
  EXPECT_EQ(b.vertices, 128000);
  EXPECT_EQ(b.edges, 288000);
  EXPECT_DOUBLE_EQ(b.updates, 1000.0 * 128 * 128 * 128);
  EXPECT_EQ(b.dist_type, "uint8");
  EXPECT_EQ(b.bound, "compute");
  EXPECT_DOUBLE_EQ(r.context.hbm_bytes_per_s, 4e12);
  EXPECT_EQ(to_json(r), to_json(batch_results())) << "written again, the same file";
}

TEST(BatchResults, FilesWithoutBatchesReadAsBefore) {
  Results r = batch_results();
  r.runs[0].batch.reset();
  r.context.hbm_bytes_per_s = 0;
  const json j = to_json(r);
  EXPECT_FALSE(j["runs"][0].contains("batch"));
  EXPECT_FALSE(j["context"].contains("hbm_bytes_per_s")) << "written only where measured";
  const Results back = results_from_json(j);
  EXPECT_FALSE(back.runs[0].batch.has_value());
  EXPECT_EQ(back.context.hbm_bytes_per_s, 0);
}

TEST(BatchResults, TheReaderChecksEachNewField) {
  EXPECT_EQ(error_with("graphs", 1000), "");
  EXPECT_NE(error_with("graphs", 0).find("/runs/0/batch/graphs"), std::string::npos);
  EXPECT_EQ(error_with("sizes", "lognormal"),
            "/runs/0/batch/sizes: \"lognormal\" is not one of \"fixed\", \"molecules\"");
  EXPECT_EQ(error_with("dist_type", "int8"),
            "/runs/0/batch/dist_type: \"int8\" is not one of \"uint8\", \"int16\", \"int32\"");
  EXPECT_EQ(error_with("bound", "latency"),
            "/runs/0/batch/bound: \"latency\" is not one of \"compute\", \"memory\", \"none\"");
  EXPECT_NE(error_with("vertices", 999).find("/runs/0/batch/vertices"), std::string::npos)
      << "fewer vertices than graphs";
  EXPECT_NE(error_with("vertices", 128001).find("/runs/0/batch/vertices"), std::string::npos)
      << "more vertices than graphs of the largest n hold";
  EXPECT_NE(error_with("bytes", -1).find("/runs/0/batch/bytes"), std::string::npos);
  EXPECT_NE(error_with("graphs_per_s", 1e300).find("/runs/0/batch/graphs_per_s"),
            std::string::npos);
  EXPECT_EQ(error_with("pct_of_hbm", 300), "") << "a batch in the L2 tops the device memory's rate";
  EXPECT_NE(error_with("pct_of_hbm", 3000).find("impossible even from the L2"), std::string::npos);
  json j = to_json(batch_results());
  j["runs"][0]["batch"].erase("updates");
  EXPECT_THROW(results_from_json(j), std::runtime_error) << "every field is required";
}

TEST(BatchResults, BatchesOfAnotherSizeAreOtherRuns) {
  Results r = batch_results();
  r.runs.push_back(r.runs[0]);
  json j = to_json(r);
  EXPECT_THROW(results_from_json(j), std::runtime_error) << "the same run twice";
  r.runs[1].batch->graphs = 2000;
  r.runs[1].batch->vertices = 256000;
  EXPECT_NO_THROW(results_from_json(to_json(r)));
}

TEST(BatchResults, TheTableMarksTheBound) {
  Results r = batch_results();
  RunResult failed = r.runs[0];
  failed.name = "batch_simple";
  failed.verified = "FAILED";
  failed.error = "3 of 1000 graphs differ from the CPU reference";
  failed.samples_ms.clear();
  r.runs.push_back(failed);
  const Grid g = batch_grid(r);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[1][0], "batch_shared[lanes=32,threads=256]");
  EXPECT_EQ(g[1][1], "1000 x n = 128");
  EXPECT_EQ(g[1][3], "uint8");
  EXPECT_EQ(g[1][7].back(), '*') << "compute-bound: the min-plus share is marked";
  EXPECT_NE(g[1][9].back(), '*');
  EXPECT_EQ(g[2].back(), "FAILED: 3 of 1000 graphs differ from the CPU reference");
  EXPECT_TRUE(has_batch_runs(r));
  EXPECT_NE(batch_ceilings_line(r.context).find("4.00 TB/s"), std::string::npos);
}

}  // namespace
}  // namespace apsp
