// The harness pipeline end to end on the CPU: plan -> workbench -> sampler -> statistics, with
// the speedup, baseline reuse, FAILED and skipped paths, and the tuner's search, database and
// leaderboards, through the CPU-backed test variants (cpu_variants.cpp).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "core/console.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "core/stats.hpp"
#include "harness/pipeline/pipeline.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/tuning.hpp"
#include "tests/support/scratch_dir.hpp"
#include "variants/multi_gpu.hpp"

namespace apsp::harness {
namespace {

// A session with no GPU: host executors for every target.
Session host_session(std::optional<DeviceInfo> device = std::nullopt) {
  Session s;
  s.device = device;
  s.build = {"test-commit", "test-kernels"};
  s.executors = [](Target) { return make_executor(Target::kHost, 0); };
  return s;
}

DeviceInfo fake_device() {
  DeviceInfo d = nominal_h200();
  d.name = "Test Device";
  return d;
}

Plan small_plan(const std::string& variants, const std::vector<std::string>& configs = {}) {
  Plan p;
  p.sizes = {40, 70};  // 70 is above the CPU reference's range below: the baseline's output is
  p.cpu_reference_max_n = 50;  // the reference there
  p.baseline = "cpu_naive";
  p.graph.spec.density = 0.2;
  p.graph.spec.wmax = 9;
  p.requests = select_requests(variants, configs);
  p.sampling = {2, 4, 0.0, false};
  p.ceiling_s = 0;
  return p;
}

// A size whose graph does not fit: the std::bad_alloc reaches the user as one line naming the
// step and the size (it was a bare "std::bad_alloc"). In a child under ulimit -v (RLIMIT_AS),
// so that the test allocates nothing large.
TEST(Pipeline, OutOfMemoryNamesTheSizeBeingMade) {
  const pid_t child = fork();
  if (child == 0) {
    const rlimit two_gb{size_t{2} << 30, size_t{2} << 30};
    setrlimit(RLIMIT_AS, &two_gb);
    Plan p = small_plan("cpu_fw");
    p.sizes = {30000};
    p.graph.spec.density = 1.0;  // 9e8 edges, 10.8 GB of edge list
    try {
      run_plan(p, host_session(), {});
    } catch (const std::exception& e) {
      const std::string line = failure_text(e);
      _exit(line.rfind("out of memory while making the n = 30000 graph and its expected output "
                       "(3.6 GB a matrix) (",
                       0) == 0
                ? 0
                : (std::fprintf(stderr, "%s\n", line.c_str()), 1));
    }
    _exit(2);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: another line (on stderr), 2: no exception";
}

const RunResult& run_of(const Results& r, const std::string& name, int n) {
  auto it = std::find_if(r.runs.begin(), r.runs.end(), [&](const RunResult& x) {
    return x.label.value_or(x.name) == name && x.n == n;
  });
  if (it == r.runs.end()) throw std::runtime_error("no run " + name);
  return *it;
}

TEST(Pipeline, VerifiesTimesAndComputesSpeedupsOverTheBaseline) {
  Plan p = small_plan("cpu_fw");
  add_baseline(p, false);
  ASSERT_TRUE(p.baseline_added);
  EXPECT_EQ(p.requests.front().variant->name, "cpu_naive");
  std::vector<std::string> progress;
  const Outcome out =
      run_plan(p, host_session(), {[&](const std::string& s) { progress.push_back(s); }, {}});
  EXPECT_FALSE(out.any_failed);
  ASSERT_EQ(out.results.runs.size(), 4u);
  const RunResult& fast40 = run_of(out.results, "cpu_fw", 40);
  EXPECT_EQ(fast40.verified, "cpu-reference");
  EXPECT_EQ(fast40.config_source, "declared default");
  EXPECT_GE(fast40.samples_ms.size(), 2u);
  EXPECT_LE(fast40.samples_ms.size(), 4u);
  EXPECT_GT(fast40.median_ms, 0);
  ASSERT_TRUE(fast40.speedup_vs_naive);
  ASSERT_TRUE(fast40.speedup_ci95);
  EXPECT_LE(fast40.speedup_ci95->first, fast40.speedup_ci95->second);
  const RunResult& fast70 = run_of(out.results, "cpu_fw", 70);
  EXPECT_EQ(fast70.verified, "cpu_naive")
      << "above the CPU range the baseline's output is the reference";
  EXPECT_EQ(run_of(out.results, "cpu_naive", 70).verified, "baseline");
  EXPECT_DOUBLE_EQ(*run_of(out.results, "cpu_naive", 40).speedup_vs_naive, 1.0);
  EXPECT_EQ(fast70.pct_of_ceiling, 0) << "no ceiling measured";
  EXPECT_NEAR(fast70.updates_per_s, 70.0 * 70 * 70 / (fast70.median_ms / 1000),
              1e-6 * fast70.updates_per_s);
  EXPECT_TRUE(std::any_of(progress.begin(), progress.end(), [](const std::string& s) {
    return s.find("n = 70: [") != std::string::npos &&
           s.find("] timing cpu_fw") != std::string::npos;
  }));
}

// --gpus 1,2,3: each GPU count is verified and timed alone, its executors freed before the next
// count's are made (so a sweep fits the first GPU count by count), and each multi-GPU run gets its
// parallel efficiency against the one-GPU run. A fake multi-GPU factory (host executors) counts
// the executors alive.
int multi_alive = 0, multi_most = 0;
class CountedExecutor final : public Executor {
 public:
  CountedExecutor() : inner_(make_executor(Target::kHost, 0)) {
    multi_most = std::max(multi_most, ++multi_alive);
  }
  ~CountedExecutor() override { --multi_alive; }
  void load(const DistMatrix& input) override { inner_->load(input); }
  Measurement measure(const Variant& v, const Config& c, const MeasureSpec& spec) override {
    return inner_->measure(v, c, spec);
  }
  DistMatrix output() override { return inner_->output(); }
  std::string certify(const InEdges& g) override { return inner_->certify(g); }

 private:
  std::unique_ptr<Executor> inner_;
};

TEST(Pipeline, EachGpuCountRunsAloneWithItsEfficiency) {
  if (!find_variant("cpu_fw_multi")) {
    Variant v = *find_variant("cpu_fw");
    v.name = "cpu_fw_multi";
    // the executor below stands in for the engine
    auto support = std::make_shared<MultiGpuSupport>();
    support->tile = [](const Config&) { return 32; };
    support->check = [](const Config&) { return std::string(); };
    v.multi_gpu = support;
    add_runtime_variant(std::move(v));
  }
  Plan p = small_plan("cpu_fw_multi");
  p.gpus = {1, 2, 3};
  Session s = host_session();
  s.multi_gpu = [](int) { return std::make_unique<CountedExecutor>(); };
  multi_alive = multi_most = 0;
  const Outcome out = run_plan(p, s, {});
  EXPECT_FALSE(out.any_failed);
  EXPECT_EQ(multi_most, 1);  // the 2-GPU executor was gone before the 3-GPU one was made
  EXPECT_EQ(multi_alive, 0);
  for (int n : p.sizes) {
    for (int gpus : {2, 3}) {
      const auto it =
          std::find_if(out.results.runs.begin(), out.results.runs.end(), [&](const RunResult& r) {
            return r.variant == "cpu_fw_multi" && r.n == n && r.gpus == gpus;
          });
      ASSERT_NE(it, out.results.runs.end()) << n << " on " << gpus;
      EXPECT_NE(it->verified, "FAILED") << it->error.value_or("");
      EXPECT_TRUE(it->parallel_efficiency.has_value());
      EXPECT_EQ(it->label.value_or(""), "cpu_fw_multi on " + std::to_string(gpus) + " GPUs");
    }
  }
}

TEST(Pipeline, AskedForTheCertificateChecksAboveTheCpuRange) {  // --verify certificate
  Plan p = small_plan("cpu_fw,cpu_wrong");
  p.reference = kCertificate;
  add_baseline(p, false);
  const Outcome out = run_plan(p, host_session(), {});
  EXPECT_EQ(run_of(out.results, "cpu_fw", 40).verified, "cpu-reference");
  EXPECT_EQ(run_of(out.results, "cpu_fw", 70).verified, "certificate");
  EXPECT_EQ(run_of(out.results, "cpu_naive", 70).verified, "certificate");
  EXPECT_EQ(run_of(out.results, "cpu_wrong", 70).verified, "FAILED");
  EXPECT_NE(run_of(out.results, "cpu_wrong", 70).error->find("d[69]["), std::string::npos);
  // auto: the baseline's output up to kNaiveReferenceMaxN, the certificate above.
  EXPECT_EQ(reference_kind(70, 50, kAutoReference, "cpu_naive"), "cpu_naive");
  EXPECT_EQ(reference_kind(kNaiveReferenceMaxN + 1, 50, kAutoReference, "cpu_naive"),
            "certificate");
}

TEST(Pipeline, TheAddedBaselineIsNotTimedAboveItsLimit) {
  Plan p = small_plan("cpu_fw");
  p.baseline_max_n = 50;
  p.reference = kCertificate;  // the baseline, not timed at 70, is no reference there either
  add_baseline(p, false);
  std::vector<std::string> notes;
  const Outcome out =
      run_plan(p, host_session(), {{}, [&](const std::string& l) { notes.push_back(l); }});
  EXPECT_FALSE(out.any_failed);
  EXPECT_NO_THROW(run_of(out.results, "cpu_naive", 40));
  EXPECT_THROW(run_of(out.results, "cpu_naive", 70), std::runtime_error);
  EXPECT_TRUE(run_of(out.results, "cpu_fw", 40).speedup_vs_naive);
  EXPECT_FALSE(run_of(out.results, "cpu_fw", 70).speedup_vs_naive);
  EXPECT_EQ(run_of(out.results, "cpu_fw", 70).verified, "certificate");
  EXPECT_EQ(std::count_if(notes.begin(), notes.end(),
                          [](const std::string& l) {
                            return l.find("n = 70: cpu_naive is not timed above n = 50") == 0;
                          }),
            1);
  EXPECT_EQ(std::count_if(notes.begin(), notes.end(),
                          [](const std::string& l) {
                            return l.find("n = 70: cpu_fw checked by the certificate in") == 0;
                          }),
            1);
}

TEST(Pipeline, WrongResultsFailAndImpossibleRunsAreSkippedWithTheirReason) {
  Plan p = small_plan("cpu_naive,cpu_wrong,cpu_small,naive");
  const Outcome out = run_plan(p, host_session(), {});
  EXPECT_TRUE(out.any_failed);
  for (int n : {40, 70}) {
    const RunResult& wrong = run_of(out.results, "cpu_wrong", n);
    EXPECT_EQ(wrong.verified, "FAILED");
    EXPECT_TRUE(wrong.samples_ms.empty());
    EXPECT_FALSE(wrong.speedup_vs_naive);
    ASSERT_TRUE(wrong.error);
    EXPECT_NE(wrong.error->find("elements differ; first d[" + std::to_string(n - 1) + "][0]"),
              std::string::npos)
        << *wrong.error;
    const RunResult& gpu = run_of(out.results, "naive", n);
    EXPECT_EQ(gpu.verified, "skipped");
    EXPECT_EQ(gpu.error, "no CUDA device");
  }
  EXPECT_EQ(run_of(out.results, "cpu_small", 40).verified, "cpu-reference");
  const RunResult& small70 = run_of(out.results, "cpu_small", 70);
  EXPECT_EQ(small70.verified, "skipped");
  EXPECT_EQ(small70.error, "needs n <= 50");
  EXPECT_TRUE(small70.samples_ms.empty());
}

// A variant that does not solve the graph exactly (16-bit distances on weights too large) is
// never run on it: skipped with its reason, which is no failure. On a graph it admits it runs,
// is verified, and its run says it computed in 16 bits.
TEST(Pipeline, AVariantIsNeverRunOnAGraphItDoesNotAdmit) {
  Plan fits = small_plan("cpu_fw,cpu_u16");  // weights 1..9: 69 * 9 = 621 < 32767
  const Outcome ok = run_plan(fits, host_session(), {});
  EXPECT_FALSE(ok.any_failed);
  for (int n : {40, 70}) {
    const RunResult& r = run_of(ok.results, "cpu_u16", n);
    EXPECT_NE(r.verified, "FAILED") << r.error.value_or("");
    EXPECT_NE(r.verified, "skipped") << r.error.value_or("");
    EXPECT_FALSE(r.samples_ms.empty());
    EXPECT_EQ(r.precision, "u16x2");
    EXPECT_EQ(run_of(ok.results, "cpu_fw", n).precision, "int32");
  }
  Plan over = small_plan("cpu_fw,cpu_u16");
  over.graph.spec.wmax = 2000;  // 39 * (about 2000) > 32767 at both sizes
  const Outcome out = run_plan(over, host_session(), {});
  EXPECT_FALSE(out.any_failed) << "outside a variant's domain is not a failure";
  for (int n : {40, 70}) {
    const RunResult& r = run_of(out.results, "cpu_u16", n);
    EXPECT_EQ(r.verified, "skipped");
    EXPECT_TRUE(r.samples_ms.empty());
    ASSERT_TRUE(r.error);
    EXPECT_EQ(
        r.error->rfind(
            "cpu_u16 does not solve this graph exactly: 16-bit distances are exact only while "
            "(V - 1) * the largest weight < 32767; here " +
                std::to_string(n - 1) + " * ",
            0),
        0u)
        << *r.error;
    EXPECT_FALSE(run_of(out.results, "cpu_fw", n).error);
  }
  // The rule is a bound: on these dense graphs the distances themselves may still fit. On a chain
  // of weight 2000 they do not (69 * 2000 > 65535), and 16 bits give wrong distances: the skip is
  // what keeps the results right.
  GraphSpec chain;
  chain.kind = GraphKind::kChain;
  chain.num_vertices = 70;
  chain.wmin = chain.wmax = 2000;
  DistMatrix d = DistMatrix::from_edges(generate(chain)), expected = d;
  floyd_warshall_blocked(expected);
  ASSERT_NE(admission_problem(*find_variant("cpu_u16"), 70, max_finite_entry(d)), "");
  find_variant("cpu_u16")->run(d.data(), 70, {}, nullptr, nullptr);
  EXPECT_TRUE(compare(d, expected)) << "16 bits on this graph are wrong somewhere";
  // The workbench itself refuses it too, whoever asks.
  const EdgeList g = *make_graph(over.graph, 70);
  Workbench bench(g, [](Target, int) { return make_executor(Target::kHost, 0); });
  const Verdict v = bench.verify(*find_variant("cpu_u16"), {}, false);
  EXPECT_EQ(v.verified, "FAILED");
  EXPECT_EQ(v.error, admission_problem(*find_variant("cpu_u16"), 70, bench.max_weight()));
}

TEST(Pipeline, BaselineSamplesAreReusedFromAnEarlierRun) {
  Plan first = small_plan("cpu_naive");
  const Outcome naive = run_plan(first, host_session(), {});
  Plan second = small_plan("cpu_fw");
  add_baseline(second, /*reuse=*/true);
  EXPECT_FALSE(second.baseline_added);
  const Outcome out = run_plan(second, host_session(), {}, std::nullopt, &naive.results);
  ASSERT_EQ(out.results.runs.size(), 2u) << "the baseline is not timed again";
  const RunResult& fast = run_of(out.results, "cpu_fw", 40);
  ASSERT_TRUE(fast.speedup_vs_naive);
  EXPECT_DOUBLE_EQ(*fast.speedup_vs_naive,
                   median(run_of(naive.results, "cpu_naive", 40).samples_ms) / fast.median_ms);
  // Another graph spec's baseline is not a baseline.
  Plan other = small_plan("cpu_fw");
  other.graph.spec.seed = 99;
  const Outcome none = run_plan(other, host_session(), {}, std::nullopt, &naive.results);
  EXPECT_FALSE(run_of(none.results, "cpu_fw", 40).speedup_vs_naive);
}

TEST(Pipeline, ConfigsPerSizeComeFromTheDefaultsAndAskedConfigsStay) {
  Plan p = small_plan("cpu_tunable", {"cpu_tunable[slow=1]"});
  p.sizes = {20, 40};
  p.cpu_reference_max_n = 100;
  const Outcome out = run_plan(p, host_session(fake_device()), {});
  // Without a policy for the device, the heuristic: slow = 1 below n = 30, 2 above.
  EXPECT_EQ(run_of(out.results, "cpu_tunable", 20).config, (Config{{"slow", 1}}));
  EXPECT_EQ(run_of(out.results, "cpu_tunable", 40).config, (Config{{"slow", 2}}));
  EXPECT_EQ(run_of(out.results, "cpu_tunable", 40).config_source,
            "heuristic (no policy for this device)");
  EXPECT_EQ(run_of(out.results, "cpu_tunable[slow=1]", 40).config, (Config{{"slow", 1}}));
  EXPECT_EQ(run_of(out.results, "cpu_tunable[slow=1]", 40).config_source, "asked");
}

TEST(Pipeline, TunedPicksReplaceTheDefaultOnlyWhereMeasuredFaster) {
  const DeviceInfo dev = fake_device();
  const Session s = host_session(dev);
  TuningDb db;
  auto add = [&](int n, int slow, double ms, const std::string& kernels = "test-kernels") {
    TuningEntry e{DeviceModel::of(dev),
                  "cpu_tunable",
                  n,
                  {{"slow", slow}},
                  config_name("cpu_tunable", {{"slow", slow}}),
                  {"random", 0.2, 9},
                  1,
                  {"c", kernels},
                  "ok",
                  "",
                  {ms},
                  ms,
                  ""};
    db.upsert(e);
  };
  add(40, 2, 5.0);  // the default at 40 (heuristic: slow = 2)
  add(40, 1, 2.0);
  add(40, 3, 1.0, "another-build");  // faster, but another build: never picked
  Plan p = small_plan("cpu_tunable");
  p.sizes = {40, 100};
  p.cpu_reference_max_n = 200;
  p.requests[0].tuned = true;
  std::vector<std::string> notes;
  const Outcome out = run_plan(p, s, {{}, [&](const std::string& l) { notes.push_back(l); }},
                               TunedSource{&db, {}, "db.json"});
  const RunResult& at40 = run_of(out.results, "cpu_tunable (tuned)", 40);
  EXPECT_EQ(at40.config, (Config{{"slow", 1}}));
  EXPECT_NE(at40.config_source->find("tuned at n = 40: 2.000 ms against the default's 5.000 ms"),
            std::string::npos);
  // n = 100 is over twice the tuned n: the default runs, and a line says why.
  EXPECT_EQ(run_of(out.results, "cpu_tunable (tuned)", 100).config, (Config{{"slow", 2}}));
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& l) {
    return l.find("within a factor 2 of n = 100") != std::string::npos;
  }));
}

// The tuner over the CPU test variants' "cpu" group, on a small dense random graph.
TuneOptions cpu_tuning() {
  TuneOptions o;
  o.group = "cpu";
  o.baseline = "cpu_naive";
  o.solver = "cpu_fw";
  o.sampling = {3, 5, 0.0, false};
  o.graph.density = 0.2;
  o.graph.wmax = 9;
  return o;
}

TEST(Tuner, SearchesRecordsReferencesAndResumes) {
  const DeviceInfo dev = fake_device();
  const Session s = host_session(dev);
  const test::ScratchDir scratch;
  const std::string path = scratch.file("pipeline_tuner_db.json");
  TuneOptions o = cpu_tuning();
  const auto variants = tunable_variants("", "cpu");
  ASSERT_EQ(variants.size(), 1u);
  EXPECT_EQ(variants[0]->name, "cpu_tunable");
  EXPECT_EQ(search_points(*variants[0], "cpu", variants[0]->defaults).size(), 4u)
      << "slow = 5 has no kernel";
  TuningDb db;
  std::vector<std::string> notes;
  const TuneReport r = tune(variants, {120, 160}, o, s, db, path,
                            {{}, [&](const std::string& l) { notes.push_back(l); }});
  EXPECT_TRUE(r.disqualified) << "slow = 4 gives a wrong result";
  ASSERT_EQ(r.boards.size(), 2u);
  const Leaderboard& b40 = r.boards[0];  // n = 120
  EXPECT_EQ(b40.evaluated, 4);
  EXPECT_EQ(b40.measured_now, 4);
  EXPECT_EQ(b40.default_name, "cpu_tunable[slow=2]");
  ASSERT_EQ(b40.rows.size(), 3u) << "the wrong point is not on the board";
  EXPECT_EQ(b40.rows[0].entry.name, "cpu_tunable[slow=1]");
  EXPECT_GT(*b40.rows[0].vs_default, 1.0);
  EXPECT_GT(*b40.rows[0].vs_naive, 0.0);
  EXPECT_EQ(r.boards[1].rows.size(), 2u) << "slow = 3 cannot run at n = 160: rejected";
  // Every reference point is in the database: baseline, solver default, the variant's default.
  const TuningDb back = TuningDb::load(path);
  TuningMatch m;
  m.device = DeviceModel::of(dev);
  m.graph = GraphKey{"random", 0.2, 9};
  m.kernels = "test-kernels";
  for (int n : {120, 160})
    for (const std::string name : {"cpu_naive", "cpu_fw", "cpu_tunable[slow=2]"})
      EXPECT_NE(back.find(m, name, n), nullptr) << name << " at " << n;
  EXPECT_EQ(back.find(m, "cpu_tunable[slow=3]", 160)->status, "rejected");
  EXPECT_EQ(back.find(m, "cpu_tunable[slow=4]", 120)->status, "failed");
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& l) {
    return l.find("DISQUALIFIED") != std::string::npos;
  }));
  // A rerun measures nothing; --fresh measures every point again, once.
  TuningDb again = back;
  const TuneReport rerun = tune(variants, {120}, o, s, again, path, {});
  EXPECT_EQ(rerun.boards[0].measured_now, 0);
  o.fresh = true;
  const TuneReport fresh = tune(variants, {120}, o, s, again, path, {});
  EXPECT_EQ(fresh.boards[0].measured_now, 4);
  // The policy from this database: the fastest verified config per tuned n.
  std::vector<std::string> skipped;
  const Policy pol = policy_from_db(back, m, dev, {{"command", "test"}}, {}, &skipped);
  ASSERT_EQ(pol.variants.count("cpu_tunable"), 1u);
  const auto& ranges = pol.variants.at("cpu_tunable");
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].config, (Config{{"slow", 1}}));
  EXPECT_EQ(ranges[1].config, (Config{{"slow", 1}}));
  EXPECT_EQ(ranges[0].n_max, 138) << "split at the geometric mean of 120 and 160";
  EXPECT_EQ(ranges[1].n_min, 139);
}

// The tuner never measures a variant on a graph it does not admit: the point is rejected with
// the reason (and measured where it fits).
TEST(Tuner, RejectsAVariantOnAGraphItDoesNotAdmit) {
  const Session s = host_session(fake_device());
  const test::ScratchDir scratch;
  const std::string path = scratch.file("pipeline_tuner_u16.json");
  TuneOptions o = cpu_tuning();
  o.graph.wmax = 2000;
  TuningDb db;
  tune({find_variant("cpu_u16")}, {60}, o, s, db, path, {});
  TuningMatch m{DeviceModel::of(*s.device), GraphKey{"random", 0.2, 2000}, "test-kernels"};
  const TuningEntry* e = db.find(m, "cpu_u16", 60);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->status, "rejected");
  EXPECT_NE(e->reason.find("cpu_u16 does not solve this graph exactly"), std::string::npos)
      << e->reason;
  EXPECT_TRUE(e->samples_ms.empty());
  o.graph.wmax = 9;
  tune({find_variant("cpu_u16")}, {60}, o, s, db, path, {});
  m.graph = GraphKey{"random", 0.2, 9};
  ASSERT_NE(db.find(m, "cpu_u16", 60), nullptr);
  EXPECT_EQ(db.find(m, "cpu_u16", 60)->status, "ok");
}

namespace {

// The match of cpu_tunable's hand-made entries below: this device, the tuner's test graph.
TuningMatch cpu_tunable_match(const DeviceInfo& dev) {
  return TuningMatch{DeviceModel::of(dev), GraphKey{"random", 0.2, 9}, "test-kernels"};
}

// An ok or not-ok entry of cpu_tunable[slow] at n under that match.
TuningEntry cpu_tunable_entry(const TuningMatch& m, int n, int slow, const std::string& status,
                              const std::string& reason, std::vector<double> samples,
                              double median) {
  const Config c{{"slow", slow}};
  return TuningEntry{m.device,
                     "cpu_tunable",
                     n,
                     c,
                     config_name("cpu_tunable", c),
                     m.graph,
                     1,
                     {"c", "test-kernels"},
                     status,
                     reason,
                     std::move(samples),
                     median,
                     "d"};
}

}  // namespace

// tuner --emit-policy's skip lines name the config at fault: a measured config this build does
// not compile (the line named the default instead), or the default when it was not measured ok.
TEST(Tuner, PolicySkipLinesNameTheConfigAtFault) {
  const DeviceInfo dev = fake_device();
  const TuningMatch m = cpu_tunable_match(dev);
  const auto entry = [&](int n, int slow, const std::string& status, const std::string& reason) {
    return cpu_tunable_entry(m, n, slow, status, reason, {1.0}, status == "ok" ? 1.0 : 0.0);
  };
  TuningDb db;
  db.upsert(entry(120, 5, "ok", ""));  // slow = 5 has no kernel in this build
  db.upsert(entry(160, 1, "ok", ""));
  db.upsert(entry(160, 2, "rejected", "too big here"));  // the default
  std::vector<std::string> skipped;
  policy_from_db(db, m, dev, {{"command", "test"}}, {}, &skipped);
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].rfind(
                "cpu_tunable at n = 120: none of its measured configs is compiled by this build "
                "(cpu_tunable[slow=5] ",
                0),
            0u)
      << skipped[0];
  EXPECT_EQ(skipped[1],
            "cpu_tunable at n = 160: the default it would replace (cpu_tunable[slow=2]) is "
            "rejected there: "
            "too big here");
}

// A default whose samples something disturbed keeps its place against a pick whose median is
// lower but whose fastest sample is not (the H100's batched at n = 1000, docs/perf-notes.md),
// unless another config beats it by both; a pick faster by both stays the pick.
TEST(Tuner, PolicyKeepsADisturbedDefaultThatAPickDoesNotBeatByItsFastestSample) {
  const DeviceInfo dev = fake_device();
  const TuningMatch m = cpu_tunable_match(dev);
  const auto entry = [&](int n, int slow, std::vector<double> samples) {
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = (sorted[(sorted.size() - 1) / 2] + sorted[sorted.size() / 2]) / 2;
    return cpu_tunable_entry(m, n, slow, "ok", "", std::move(samples), median);
  };
  TuningDb db;
  // n = 120: the default (slow = 2) disturbed after three samples; slow = 1 steady above its fastest.
  db.upsert(entry(120, 2, {0.535, 0.527, 0.528, 1.559, 2.686, 2.141, 1.161, 0.977, 0.876, 0.840}));
  db.upsert(entry(120, 1, {0.540, 0.539, 0.540, 0.539, 0.539, 0.540, 0.540, 0.539, 0.537, 0.541}));
  // n = 140: the same default and slow = 1, and slow = 3, slower than slow = 1 by median but
  // faster than the default by both: it is the pick.
  db.upsert(entry(140, 2, {0.535, 0.527, 0.528, 1.559, 2.686, 2.141, 1.161, 0.977, 0.876, 0.840}));
  db.upsert(entry(140, 1, {0.540, 0.539, 0.540, 0.539, 0.539, 0.540, 0.540, 0.539, 0.537, 0.541}));
  db.upsert(entry(140, 3, {0.520, 0.600, 0.601, 0.602}));
  // n = 160: slow = 1 faster than the default by median and by fastest sample.
  db.upsert(entry(160, 2, {0.600, 0.601, 0.602, 0.600}));
  db.upsert(entry(160, 1, {0.500, 0.501, 0.502, 0.500}));
  const Policy pol = policy_from_db(db, m, dev, {{"command", "test"}}, {}, nullptr);
  ASSERT_EQ(pol.variants.count("cpu_tunable"), 1u);
  const auto& ranges = pol.variants.at("cpu_tunable");
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].config, (Config{{"slow", 2}})) << "the disturbed default stays";
  EXPECT_EQ(ranges[0].default_ms, 0.0);
  EXPECT_EQ(ranges[1].config, (Config{{"slow", 3}})) << "faster than the default by both";
  EXPECT_DOUBLE_EQ(ranges[1].median_ms, 0.6005);
  EXPECT_EQ(ranges[2].config, (Config{{"slow", 1}}));
  EXPECT_DOUBLE_EQ(ranges[2].default_ms, 0.6005);
}

// The progress line counts the points of a size against the most it will visit: the baseline,
// the variant's default, its search (grid: 4 points, the default revisited from the database
// without a line), and the solver's default.
TEST(Tuner, ProgressCountsThePointsOfASize) {
  const DeviceInfo dev = fake_device();
  const Session s = host_session(dev);
  const test::ScratchDir scratch;
  const std::string path = scratch.file("pipeline_tuner_progress_db.json");
  std::vector<std::string> lines;
  TuningDb db;
  tune(tunable_variants("", "cpu"), {120}, cpu_tuning(), s, db, path,
       {[&](const std::string& l) { lines.push_back(l.substr(0, l.find(", about"))); }, {}});
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "n = 120: the graph and its reference output", "n = 120: [1/7] cpu_naive",
                       "n = 120: [2/7] cpu_tunable[slow=2]", "n = 120: [3/7] cpu_tunable[slow=1]",
                       "n = 120: [5/7] cpu_tunable[slow=3]", "n = 120: [6/7] cpu_tunable[slow=4]",
                       "n = 120: [7/7] cpu_fw"}));
}

// The database is committed after every point: a tuner killed with SIGKILL in the middle of a
// search keeps every point it measured, and the rerun measures only the rest.
TEST(Tuner, SigkillMidSearchLosesNoMeasuredPoint) {
  const DeviceInfo dev = fake_device();
  const Session s = host_session(dev);
  const test::ScratchDir scratch;
  const std::string path = scratch.file("pipeline_tuner_killed_db.json");
  TuneOptions o = cpu_tuning();
  const auto variants = tunable_variants("", "cpu");
  const auto is_point = [](const std::string& line) {
    return line.find("reference output") == std::string::npos;
  };
  constexpr int kKilledAtPoint = 4;  // progress announces a point before measuring it
  const pid_t child = fork();
  if (child == 0) {
    int points = 0;
    TuningDb db;
    tune(variants, {120}, o, s, db, path,
         {[&](const std::string& line) {
            if (is_point(line) && ++points == kKilledAtPoint) kill(getpid(), SIGKILL);
          },
          {}});
    _exit(0);  // not reached: the search has more than kKilledAtPoint points
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the child was not killed";
  const TuningDb saved = TuningDb::load(path);
  ASSERT_EQ(saved.entries().size(), static_cast<size_t>(kKilledAtPoint - 1))
      << "every point measured before the kill";
  int remeasured = 0;
  TuningDb db = saved;
  tune(variants, {120}, o, s, db, path,
       {[&](const std::string& line) { remeasured += is_point(line); }, {}});
  const TuningDb done = TuningDb::load(path);
  EXPECT_EQ(done.entries().size(), 6u) << "naive, cpu_fw and cpu_tunable slow = 1..4";
  EXPECT_EQ(remeasured, 6 - (kKilledAtPoint - 1))
      << "the rerun measures only what the killed run had not";
  for (const TuningEntry& before : saved.entries()) {
    const auto same =
        std::find_if(done.entries().begin(), done.entries().end(), [&](const TuningEntry& e) {
          return e.name == before.name && e.samples_ms == before.samples_ms &&
                 e.date == before.date;
        });
    EXPECT_NE(same, done.entries().end()) << before.name << " was measured again or lost";
  }
  for (const auto& f : std::filesystem::directory_iterator(scratch.path()))
    EXPECT_EQ(f.path().filename().string().find("pipeline_tuner_killed_db.json.tmp"),
              std::string::npos)
        << "left behind: " << f.path();
}

}  // namespace
}  // namespace apsp::harness
