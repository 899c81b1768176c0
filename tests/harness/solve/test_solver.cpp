// The solver behind apsp (harness/solve/solver.hpp) on the CPU: its outputs, its lines for the
// user, and the class of each fault (what apsp turns into exit codes).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/edge_list.hpp"
#include "core/matrix_io.hpp"
#include "core/reference.hpp"
#include "harness/solve/paths.hpp"
#include "harness/solve/solver.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

const std::string kData = APSP_SOURCE_DIR "/tests/data/";

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A CPU request for a graph of tests/data, its lines collected, its outputs in a folder of its own.
struct CpuSolve {
  test::ScratchDir scratch;
  std::vector<std::string> lines;
  SolveRequest r;
  explicit CpuSolve(const std::string& graph) {
    r.input = kData + graph;
    r.variant = "cpu";
    r.threads = 2;
    r.log = [this](const std::string& line) { lines.push_back(line); };
  }
  std::string file(const std::string& name) const { return scratch.file(name); }
};

// What fault a request ends in, and its line; "" and kFailed when it does not fail.
std::pair<SolveFault, std::string> fault_of(SolveRequest r) {
  try {
    Solver(std::move(r)).run();
  } catch (const SolveError& e) {
    return {e.fault, e.what()};
  }
  return {SolveFault::kFailed, ""};
}

TEST(Solver, WritesTheDistancesOnTheCpu) {
  CpuSolve s("random70.txt");
  s.r.distances_to = s.file("d.txt");
  s.r.verify = true;
  Solver solver(s.r);
  solver.run();
  EXPECT_EQ(contents(s.file("d.txt")), contents(kData + "random70.expected"));
  ASSERT_EQ(s.lines.size(), 3u);
  EXPECT_EQ(s.lines[0], "variant cpu: solving on the CPU (2 threads)");
  EXPECT_EQ(s.lines[1].rfind("exact (int32): largest distance ", 0), 0u) << s.lines[1];
  EXPECT_EQ(s.lines[2].rfind("verified: the shortest-path certificate holds (", 0), 0u)
      << s.lines[2];
  EXPECT_EQ(solver.vertices(), 70);
  EXPECT_EQ(solver.edges(), 252u);
  EXPECT_EQ(solver.distances_bytes(), contents(s.file("d.txt")).size());
  EXPECT_EQ(solver.input_bytes(), contents(kData + "random70.txt").size());
  std::vector<std::string> steps;
  for (const auto& [name, ms] : solver.timing().steps) steps.push_back(name);
  EXPECT_EQ(steps, (std::vector<std::string>{"read", "parse", "build matrix", "solve (CPU)",
                                             "prove exact", "verify", "write"}));
}

// The next hops in the request's format are next_hops_host's of the reference distances, and
// the path line follows them.
TEST(Solver, WritesTheNextHopsAndAPath) {
  CpuSolve s("random70.txt");
  s.r.next_hops_to = s.file("p.bin");
  s.r.format = &bin_matrix_format();
  s.r.path = {{3, 17}};
  Solver solver(s.r);
  solver.run();
  const EdgeList g = read_edge_list(kData + "random70.txt");
  const DistMatrix d = solve_reference(g);
  std::vector<int32_t> next(static_cast<size_t>(d.n()) * d.n());
  next_hops_host(d.view(), OutEdges::of(g), next.data());
  const std::string bytes = contents(s.file("p.bin"));
  ASSERT_EQ(bytes.size(), 16 + next.size() * sizeof(int32_t));
  EXPECT_EQ(bytes.substr(0, 16), bin_matrix_format().header(70));
  EXPECT_EQ(std::memcmp(bytes.data() + 16, next.data(), next.size() * sizeof(int32_t)), 0);
  std::vector<int32_t> column(d.n());
  for (int k = 0; k < d.n(); ++k) column[k] = next[static_cast<size_t>(k) * d.n() + 17];
  EXPECT_EQ(solver.path_line(),
            describe_path(3, 17, follow_hops(column.data(), d.n(), 3, 17), d.at(3, 17)));
  EXPECT_EQ(solver.distances_bytes(), 0u) << "no distances asked for";
}

TEST(Solver, RefusesBeforeTheSolve) {
  CpuSolve s("random70.txt");
  SolveRequest r = s.r;
  r.path = {{0, 70}};
  EXPECT_EQ(fault_of(r),
            std::pair(SolveFault::kRefused,
                      "path 0 70: vertex 70 is out of range [0, 70) of " + kData + "random70.txt"));
  r = s.r;
  r.input = "/nonexistent.txt";
  EXPECT_EQ(fault_of(r),
            std::pair(SolveFault::kRefused, std::string("/nonexistent.txt: cannot open: No such "
                                                        "file or directory")));
  r = s.r;
  r.gpus = 2;
  EXPECT_EQ(fault_of(r),
            std::pair(SolveFault::kRefused, std::string("gpus and variant cpu disagree")));
  r = s.r;
  r.variant = "naive";
  r.config = "batched[batch2=6]";
  EXPECT_EQ(fault_of(r),
            std::pair(SolveFault::kRefused,
                      std::string("variant naive and config batched[batch2=6] disagree")));
  r = s.r;
  r.db_path = "/nonexistent.json";
  EXPECT_EQ(
      fault_of(r),
      std::pair(SolveFault::kRefused,
                std::string("db_path /nonexistent.json: cannot open: No such file or directory")));
  r = s.r;
  r.input = kData + "bad/vertex.txt";
  EXPECT_EQ(
      fault_of(r).second,
      kData +
          "bad/vertex.txt:2:3: vertex 3 out of range [0, 3) (read as edges: if this is another "
          "format, name it with --input-format dimacs, mtx or snap)");
}

TEST(Solver, AnOutputThatCannotBeWrittenIsRefusedBeforeTheSolve) {
  CpuSolve s("single.txt");
  s.r.distances_to = s.file("missing/d.txt");  // the folder is not there
  EXPECT_EQ(fault_of(s.r), std::pair(SolveFault::kRefused,
                                     "distances_to " + s.file("missing/d.txt") + ": the folder " +
                                         s.file("missing") + " does not exist"));
  s.r.distances_to = s.file("d.txt");
  s.r.next_hops_to = s.file("d.txt");
  EXPECT_EQ(fault_of(s.r).first, SolveFault::kRefused) << "one file for both";
  s.r.next_hops_to = s.r.input;
  EXPECT_EQ(fault_of(s.r),
            std::pair(SolveFault::kRefused, "next_hops_to " + s.r.input + " and the input " +
                                                s.r.input + " are the same file"));
  s.r.next_hops_to = "";
  EXPECT_EQ(fault_of(s.r).first, SolveFault::kRefused) << "an empty name";
  EXPECT_FALSE(std::filesystem::exists(s.file("d.txt")));
}

// The library names the request's fields; a program names them as its user knows them, in its
// errors (SolveError::line) and in the lines for the user (SolveRequest::names).
TEST(Solver, AProgramNamesTheRequestsFields) {
  const FieldNames options = [](std::string_view field) {
    return field == "next_hops_to" ? std::string("--paths") : "--" + std::string(field);
  };
  CpuSolve s("single.txt");
  s.r.names = options;
  s.r.next_hops_to = s.r.input;
  try {
    Solver(s.r).run();
    ADD_FAILURE() << "an output that is the input was taken";
  } catch (const SolveError& e) {
    EXPECT_EQ(e.line(options),
              "--paths " + s.r.input + " and the input " + s.r.input + " are the same file");
    EXPECT_EQ(e.what(),
              "next_hops_to " + s.r.input + " and the input " + s.r.input + " are the same file");
  }
  s.r.next_hops_to.reset();
  Solver(s.r).run();
  ASSERT_FALSE(s.lines.empty());
  EXPECT_EQ(s.lines[0], "--variant cpu: solving on the CPU (2 threads)");
}

TEST(Solver, OnlyAFieldsNameBetweenTheMarksIsAMention) {
  const FieldNames upper = [](std::string_view field) { return "<" + std::string(field) + ">"; };
  EXPECT_EQ(with_field_names(mention("gpus") + " 2: " + mention("row_ids_to"), upper),
            "<gpus> 2: <row_ids_to>");
  EXPECT_EQ(with_field_names(mention("gpus") + " and " + mention("variant")), "gpus and variant");
  // The user's bytes (a file's name) that look like a mark but enclose no field's name stay.
  const std::string stray =
      "a\x1e"
      "b c\x1f"
      "d \x1e";
  EXPECT_EQ(with_field_names(stray + mention("sources"), upper), stray + "<sources>");
}

TEST(Solver, AWriteThatFailsIsAFailure) {
  CpuSolve s("single.txt");
  // A full device (made here: /dev is not touched), where only root may make one.
  const std::string full = s.file("full");
  if (mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "mknod is not permitted here";
  s.r.distances_to = full;
  const auto [fault, line] = fault_of(s.r);
  EXPECT_EQ(fault, SolveFault::kFailed);
  EXPECT_EQ(line, full + ": write failed: " + std::strerror(ENOSPC));
}

TEST(Solver, AGpuVariantWithoutADeviceIsNoDevice) {
  if (has_device()) GTEST_SKIP() << "this machine has a CUDA device";
  CpuSolve s("single.txt");
  s.r.variant = "naive";
  EXPECT_EQ(fault_of(s.r),
            std::pair(SolveFault::kNoDevice,
                      std::string("no CUDA device for variant naive; variant cpu (or "
                                  "auto) solves on the CPU")));
  s.r.variant = "auto";
  s.r.gpus = 2;
  EXPECT_EQ(fault_of(s.r).first, SolveFault::kNoDevice);
}

}  // namespace
}  // namespace apsp::harness
