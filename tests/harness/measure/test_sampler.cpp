// The Sampler (harness/measure/sampler.hpp): the order of a sample's steps (restore before every
// solve, the flush when asked, nothing but the solve between the clock's start and stop), the
// modes where a solve is no one stream's, the stopping rule, and the spec the isolated worker
// receives as JSON. Through a fake executor that logs its hooks, and the host executor.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/generators.hpp"
#include "core/reference.hpp"
#include "harness/measure/sampler.hpp"
#include "harness/userkernel/isolated_executor.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

using Log = std::vector<std::string>;

// Logs every hook; sample r (from 0) takes r + 1.5 ms by its clock.
class LoggingExecutor final : public LocalExecutor {
 public:
  void load(const DistMatrix&) override { log.push_back("load"); }
  DistMatrix output() override { return {}; }
  std::string certify(const InEdges&) override { return ""; }
  void reserve(const Variant&, const Config&) override { log.push_back("reserve"); }
  void restore() override { log.push_back("restore"); }
  void flush_l2() override { log.push_back("flush"); }
  void run(const Variant&, const Config&, PhaseTimer*) override { log.push_back("run"); }
  SampleClock& clock() override { return clock_; }
  void after_solve(const Variant&, const Config&) override { log.push_back("after"); }

  Log log;

 private:
  class Clock final : public SampleClock {
   public:
    explicit Clock(Log& log) : log_(log) {}
    void start() override { log_.push_back("start"); }
    void stop() override { log_.push_back("stop"); }
    double elapsed_ms() override { return ++reads_ + 0.5; }

   private:
    Log& log_;
    int reads_ = 0;
  };
  Clock clock_{log};
};

Variant host_variant(std::function<void(int*, int)> solve) {
  Variant v;
  v.name = "sampler_test";
  v.target = Target::kHost;
  v.run = [solve](int* d, int n, const Config&, cudaStream_t, PhaseTimer*) { solve(d, n); };
  return v;
}

Log repeated(const Log& sample, int reps) {
  Log all{"reserve"};
  for (int r = 0; r < reps; ++r) all.insert(all.end(), sample.begin(), sample.end());
  return all;
}

TEST(Sampler, RestoresBeforeEverySampleAndTimesOnlyTheSolve) {
  LoggingExecutor ex;
  const Variant v = host_variant([](int*, int) {});
  std::vector<double> seen;
  const Measurement m =
      Sampler(ex, v, {}).take({Mode::kStream, 4, true}, [&](double ms) { seen.push_back(ms); });
  EXPECT_EQ(ex.log, repeated({"restore", "flush", "start", "run", "stop", "after"}, 4));
  EXPECT_EQ(m.samples_ms, (std::vector<double>{1.5, 2.5, 3.5, 4.5}));
  EXPECT_EQ(seen, m.samples_ms) << "each sample reported as it is taken";
  ex.log.clear();
  EXPECT_EQ(ex.measure(v, {}, {Mode::kStream, 2, false}).samples_ms.size(), 2u);
  EXPECT_EQ(ex.log, repeated({"restore", "start", "run", "stop", "after"}, 2))
      << "no flush unless asked";
}

// The host and the distributed engine run no solve on one stream: a CUDA-graph measurement
// times plain solves, a phase measurement runs nothing and gives zeros.
TEST(Sampler, WithoutOneStreamGraphsArePlainSolvesAndPhasesZeros) {
  LoggingExecutor ex;
  const Variant v = host_variant([](int*, int) {});
  EXPECT_EQ(ex.measure(v, {}, {Mode::kCudaGraph, 3, true}).samples_ms.size(), 3u);
  EXPECT_EQ(ex.log, repeated({"restore", "flush", "start", "run", "stop", "after"}, 3));
  ex.log.clear();
  const Measurement phases = ex.measure(v, {}, {Mode::kPhases, 1, false});
  EXPECT_EQ(phases.phases_ms, (std::array<double, 4>{}));
  EXPECT_TRUE(phases.samples_ms.empty());
  EXPECT_EQ(ex.log, Log{"reserve"});
}

// Through the host executor: every solve starts from the pristine input (Floyd-Warshall works in
// place, so a solve of its own output would be a no-op the clock could not tell apart).
TEST(Sampler, EverySolveStartsFromTheInput) {
  GraphSpec spec;
  spec.num_vertices = 30;
  spec.density = 0.2;
  spec.wmax = 9;
  const DistMatrix input = DistMatrix::from_edges(generate(spec));
  DistMatrix expected = input;
  floyd_warshall_blocked(expected);
  int solves = 0, from_input = 0;
  const Variant v = host_variant([&](int* d, int n) {
    ++solves;
    from_input += std::equal(d, d + size_t(n) * n, input.data());
    DistMatrix m(n);
    std::copy(d, d + m.size(), m.data());
    floyd_warshall_blocked(m);
    std::copy(m.data(), m.data() + m.size(), d);
  });
  auto ex = make_executor(Target::kHost, 0);
  ex->load(input);
  EXPECT_GE(ex->sample(v, {}, true), 0.0);
  const std::vector<double> samples = take_samples(*ex, v, {}, 5, SampleOptions{});
  EXPECT_EQ(samples.size(), 5u);
  EXPECT_EQ(solves, 6);
  EXPECT_EQ(from_input, 6);
  EXPECT_FALSE(compare(ex->output(), expected));
  EXPECT_EQ(take_phases(*ex, v, {}), (std::array<double, 4>{}));
}

// The stopping rule: enough samples to add up to min_time at the warm-up's pace, within
// [min_reps, max_reps]; a max below the min gives the min. The measurement takes that many.
TEST(Sampler, PlannedRepsFillTheTimeWithinTheBounds) {
  const SampleOptions o{3, 10, 1.0, true};
  EXPECT_EQ(planned_reps(100, o), 10);
  EXPECT_EQ(planned_reps(250, o), 4);
  EXPECT_EQ(planned_reps(400, o), 3);  // ceil(2.5) = 3
  EXPECT_EQ(planned_reps(2000, o), 3);
  EXPECT_EQ(planned_reps(1, o), 10);
  EXPECT_EQ(planned_reps(0, o), 10);
  EXPECT_EQ(planned_reps(1, SampleOptions{5, 3, 1.0, true}), 5);
  EXPECT_EQ(planned_reps(1, SampleOptions{2, 4, 0.0, true}), 2);
  LoggingExecutor ex;
  const Variant v = host_variant([](int*, int) {});
  EXPECT_EQ(take_samples(ex, v, {}, planned_reps(250, o), o).size(), 4u);
}

// What the isolated worker receives and returns.
TEST(Sampler, TheSpecAndTheMeasurementTravelAsJson) {
  for (const MeasureSpec& s :
       {MeasureSpec{Mode::kStream, 7, true}, MeasureSpec{Mode::kCudaGraph, 2, false},
        MeasureSpec{Mode::kPhases, 1, false}}) {
    const nlohmann::json j = s;
    const auto back = j.get<MeasureSpec>();
    EXPECT_EQ(back.mode, s.mode) << j.dump();
    EXPECT_EQ(back.reps, s.reps);
    EXPECT_EQ(back.flush_l2, s.flush_l2);
  }
  EXPECT_EQ(nlohmann::json(MeasureSpec{Mode::kCudaGraph, 2, false}).dump(),
            R"({"flush_l2":false,"mode":"cuda-graph","reps":2})");
  EXPECT_THROW(
      (nlohmann::json{{"mode", "graph"}, {"reps", 1}, {"flush_l2", true}}.get<MeasureSpec>()),
      std::invalid_argument);
  EXPECT_THROW(
      (nlohmann::json{{"mode", "stream"}, {"reps", 0}, {"flush_l2", true}}.get<MeasureSpec>()),
      std::invalid_argument);
  const Measurement m{{1.25, 2.5}, {0.5, 1, 2, 3}};
  const auto back = nlohmann::json(m).get<Measurement>();
  EXPECT_EQ(back.samples_ms, m.samples_ms);
  EXPECT_EQ(back.phases_ms, m.phases_ms);
}

// The parent's side of the worker protocol, against a scripted worker (apsp_worker itself needs a
// GPU): a measurement goes as one command carrying its spec; the progress line after each sample
// restarts the timeout, so a measurement may take longer than it as long as no sample does.
class ScriptedWorker : public testing::Test {
 protected:
  void SetUp() override { dir_ = scratch_.path(); }

  // A worker that logs each command and answers a measurement with two samples, `pause` seconds
  // before each line of it.
  std::string worker(const std::string& pause) {
    const std::string path = (dir_ / "worker.sh").string();
    // stderr closed: a sleep left behind by a killed worker holds no pipe of the test's runner
    std::ofstream(path) << "#!/bin/sh\n"
                           "exec 2>/dev/null\n"
                           "while IFS= read -r line; do\n"
                           "  echo \"$line\" >> "
                        << (dir_ / "commands").string()
                        << "\n"
                           "  case \"$line\" in\n"
                           "    *'\"op\":\"measure\"'*)\n"
                           "      sleep "
                        << pause
                        << "; echo '{\"sampled\":1.5}'\n"
                           "      sleep "
                        << pause
                        << "; echo '{\"sampled\":2.5}'\n"
                           "      sleep "
                        << pause
                        << "; echo '{\"measurement\":{\"samples_ms\":[1.5,2.5],"
                           "\"phases_ms\":[0,0,0,0]}}' ;;\n"
                           "    *) echo '{\"ok\":true}' ;;\n"
                           "  esac\n"
                           "done\n";
    chmod(path.c_str(), 0755);
    return path;
  }
  std::string commands() const {
    std::ifstream in(dir_ / "commands");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  test::ScratchDir scratch_;
  std::filesystem::path dir_;
};

TEST_F(ScriptedWorker, AMeasurementIsOneCommandAndEachSampleRestartsTheTimeout) {
  WorkerOptions o;
  // The three pauses add up to more than the timeout; each leaves a second's margin for a loaded
  // machine to start the shell and its sleep.
  o.program = worker("1");
  o.timeout_s = 2.0;
  auto ex = make_isolated_executor(o);
  ex->load(DistMatrix(3));
  Variant v = host_variant([](int*, int) {});
  v.target = Target::kIsolated;
  const Measurement m = ex->measure(v, {}, {Mode::kCudaGraph, 2, true});
  EXPECT_EQ(m.samples_ms, (std::vector<double>{1.5, 2.5}));
  const std::string sent = commands();
  EXPECT_NE(sent.find(R"("op":"load")"), std::string::npos) << sent;
  EXPECT_NE(sent.find(R"("spec":{"flush_l2":true,"mode":"cuda-graph","reps":2})"),
            std::string::npos)
      << sent;
}

TEST_F(ScriptedWorker, ASampleLongerThanTheTimeoutStopsTheWorker) {
  WorkerOptions o;
  o.program = worker("3");
  o.timeout_s = 0.3;
  auto ex = make_isolated_executor(o);
  ex->load(DistMatrix(3));
  Variant v = host_variant([](int*, int) {});
  v.target = Target::kIsolated;
  try {
    ex->sample(v, {}, false);
    FAIL() << "no timeout";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "no answer within 0.3 s (--kernel-timeout); the kernel was stopped");
  }
}

}  // namespace
}  // namespace apsp::harness
