// The multi-GPU layer's CPU side: --gpus and --transport parsing, the transport registry, sm90's
// declaration for the engine, the paper model (harness/multigpu/multi_gpu_model.hpp), parallel
// efficiency in the statistics, and the results fields that carry it.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>

#include "core/cli_options.hpp"
#include "core/console.hpp"
#include "core/results.hpp"
#include "harness/measure/statistics.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/multi_gpu_model.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/plan/plan.hpp"
#include "variants/multi_gpu.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {
namespace {

TEST(GpuCounts, ParsesSortsAndRefuses) {
  EXPECT_EQ(parse_gpu_counts("8,1,2,2"), (std::vector<int>{1, 2, 8}));
  EXPECT_EQ(parse_gpu_counts("all"), (std::vector<int>{kAllGpus}));
  EXPECT_THROW(parse_gpu_counts("0"), std::invalid_argument);
  EXPECT_THROW(parse_gpu_counts("1,"), std::invalid_argument);
  EXPECT_THROW(parse_gpu_counts("two"), std::invalid_argument);
  EXPECT_THROW(parse_gpu_counts(std::to_string(kMaxGpus + 1)), std::invalid_argument);
  try {
    parse_gpu_counts("1,-2");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--gpus: a GPU count must be positive, got -2");
  }
}

TEST(GpuCounts, AllIsWhatIsPresentAndTooManyIsOneLine) {
  std::vector<int> counts{1, kAllGpus};
  resolve_gpu_counts(counts, 4);
  EXPECT_EQ(counts, (std::vector<int>{1, 4}));
  std::vector<int> none{kAllGpus};
  resolve_gpu_counts(none, 0);
  EXPECT_EQ(none, (std::vector<int>{1}));
  EXPECT_EQ(gpu_count_problem({1, 2}, 2), "");
  EXPECT_EQ(gpu_count_problem({3}, 1), "3 GPUs asked, 1 present");
  EXPECT_EQ(gpu_count_problem({1, 2}, 0), "2 GPUs asked, 0 present");
}

LinkModel simple_link() {
  LinkModel m;
  m.rate_updates_per_s = 1e13;
  m.bytes_per_s = 1e11;
  m.round_latency_s = 0;
  m.device_bytes = uint64_t{1} << 36;
  return m;
}

TEST(MultiGpuModel, OneGpuIsTheMeasuredRateWithNoCommunication) {
  const Prediction p = predict(1000, 1, 128, simple_link());
  EXPECT_DOUBLE_EQ(p.total_s, 1e9 / 1e13);
  EXPECT_DOUBLE_EQ(p.efficiency, 1.0);
  EXPECT_EQ(p.comm_s, 0);
  EXPECT_EQ(p.tiles, 8);
  EXPECT_EQ(p.bytes_per_gpu, uint64_t{1024} * 1024 * 4);  // the padded matrix, no panels
}

TEST(MultiGpuModel, RowBlocksPanelsAndBroadcasts) {
  // n = 10000, tile 128: 79 tiles, pitch 10112; 8 GPUs own at most 10 tiles (1280 rows).
  const Prediction p = predict(10000, 8, 128, simple_link());
  EXPECT_EQ(p.tiles, 79);
  EXPECT_EQ(p.max_tiles_per_gpu, 10);
  EXPECT_EQ(p.panel_bytes, uint64_t{4} * 128 * 10112);
  EXPECT_EQ(p.bytes_per_gpu, uint64_t{1280} * 10112 * 4 + 8 * p.panel_bytes);
  EXPECT_NEAR(p.comm_s, 79 * p.panel_bytes / 1e11, 1e-12);
  // The busiest GPU holds 1280 of 10000 rows: 1.024 times an eighth of the one-GPU time.
  EXPECT_NEAR(p.compute_s, 1e12 / 1e13 * 1280 / 10000, 1e-12);
  EXPECT_EQ(p.exposed_s, 0);  // 1280 rows a GPU hide a 5 MB broadcast at 100 GB/s
  EXPECT_NEAR(p.efficiency, 10000.0 / (8 * 1280), 1e-12);
}

TEST(MultiGpuModel, EveryRankPaysEveryRoundsTail) {
  LinkModel link = simple_link();
  link.round_tail_s = 30e-6;
  // One GPU: the measured time holds its tails already.
  EXPECT_DOUBLE_EQ(predict(10000, 1, 128, link).total_s, 1e12 / 1e13);
  // 4 GPUs at n = 10000: 79 rounds; the busiest holds 2560 of 10000 rows of the rest.
  const Prediction p = predict(10000, 4, 128, link);
  const double tails = 79 * 30e-6;
  EXPECT_NEAR(p.compute_s, (0.1 - tails) * 2560 / 10000 + tails, 1e-12);
  EXPECT_NEAR(p.efficiency, 0.1 / (4 * p.total_s), 1e-12);
  // More GPUs, the same tails: the efficiency falls.
  EXPECT_LT(predict(10000, 8, 128, link).efficiency, p.efficiency);
  // Never more tail than the one-GPU time.
  link.round_tail_s = 1;
  EXPECT_NEAR(predict(1000, 4, 128, link).compute_s, 1e9 / 1e13, 1e-15);
}

TEST(MultiGpuModel, CommunicationShowsBelowTheRowsThatHideIt) {
  LinkModel link = simple_link();
  const double rows = rows_per_gpu_to_hide(100000, 128, link);
  EXPECT_NEAR(rows, 128 + 4 * 1e13 / 1e11, 1e-9);  // 528 rows at this rate and bandwidth
  // 4 GPUs at n = 1024 hold 256 rows each, under 528: some of each broadcast shows.
  const Prediction few = predict(1024, 4, 128, link);
  EXPECT_GT(few.exposed_s, 0);
  EXPECT_LT(few.efficiency, 1.0);
  // Without look-ahead every broadcast shows.
  link.lookahead = false;
  const Prediction plain = predict(100000, 8, 128, link);
  EXPECT_NEAR(plain.exposed_s, plain.comm_s, 1e-12);
}

TEST(MultiGpuModel, SaysWhenAGpuCannotHoldItsRows) {
  EXPECT_TRUE(predict(100000, 1, 128, h200_nvlink_model()).fits);
  EXPECT_FALSE(predict(200000, 1, 128, h200_nvlink_model()).fits);
  EXPECT_TRUE(predict(400000, 8, 128, h200_nvlink_model()).fits);
  EXPECT_FALSE(predict(400000, 4, 128, h200_nvlink_model()).fits);
  EXPECT_THROW(predict(0, 1, 128, simple_link()), std::invalid_argument);
  EXPECT_THROW(predict(10, 0, 128, simple_link()), std::invalid_argument);
}

RunResult timed(const std::string& name, int gpus, double ms) {
  RunResult r;
  r.variant = "sm90";
  r.name = name;
  r.n = 1000;
  r.gpus = gpus;
  r.verified = "cpu-reference";
  r.samples_ms = {ms, ms, ms};
  return r;
}

TEST(Transports, RegisteredByNameWithWhetherTheirRanksShareADevice) {
  std::vector<std::string> names;
  for (const TransportKind& k : transports()) {
    names.push_back(k.name);
    EXPECT_FALSE(k.help.empty()) << k.name;
    EXPECT_EQ(k.help.find('\n'), std::string::npos) << k.name;
    EXPECT_TRUE(k.make) << k.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"nccl", "single-device"}));
  EXPECT_EQ(transport_names(), "nccl, single-device");
  EXPECT_EQ(kDefaultTransport, std::string("nccl"));
  EXPECT_TRUE(transport_shares_device("single-device"));
  EXPECT_FALSE(transport_shares_device("nccl"));
  EXPECT_FALSE(transport_shares_device(""));  // a run on one GPU has none
  EXPECT_FALSE(transport_shares_device("carrier-pigeon"));
  EXPECT_EQ(find_transport("carrier-pigeon"), nullptr);
  ASSERT_NE(find_transport("nccl"), nullptr);
  try {
    make_transport("carrier-pigeon", 2);
    FAIL() << "made an unregistered transport";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "no transport named 'carrier-pigeon' (nccl, single-device)");
  }
}

// The alone transport is one rank of P (round_timeline --alone): its own rank is its only local
// one, a broadcast's arguments are checked as any transport's, and it is not registered (its
// distances are no solve's).
TEST(Transports, AloneIsOneRankOfPAndUnregistered) {
  const auto t = make_alone_transport(4, 2, 0);
  EXPECT_EQ(t->ranks(), 4);
  EXPECT_EQ(t->local_ranks(), std::vector<int>{2});
  EXPECT_TRUE(t->is_local(2));
  EXPECT_FALSE(t->is_local(0));
  EXPECT_EQ(find_transport(t->name()), nullptr);
  EXPECT_NO_THROW(t->broadcast(0, std::vector<void*>(4), 64, std::vector<cudaStream_t>(4)));
  EXPECT_THROW(t->broadcast(4, std::vector<void*>(4), 64, std::vector<cudaStream_t>(4)),
               std::invalid_argument);
  EXPECT_THROW(t->broadcast(0, std::vector<void*>(3), 64, std::vector<cudaStream_t>(4)),
               std::invalid_argument);
  EXPECT_THROW(make_alone_transport(4, 4, 0), std::invalid_argument);
  EXPECT_THROW(make_alone_transport(4, -1, 0), std::invalid_argument);
}

// --transport takes the registered names; --ranks-on-one-gpu is --transport single-device.
TEST(Transports, TheOptionAndItsAlias) {
  auto parse = [](std::vector<std::string> args) {
    CLI::App app;
    std::string gpus = "1", transport = kDefaultTransport;
    add_gpu_options(app, gpus, transport, transports(), "GPU counts");
    args.insert(args.begin(), "prog");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    return transport;
  };
  EXPECT_EQ(parse({}), "nccl");
  EXPECT_EQ(parse({"--transport", "single-device"}), "single-device");
  EXPECT_EQ(parse({"--transport", "nccl"}), "nccl");
  EXPECT_EQ(parse({"--ranks-on-one-gpu"}), "single-device");
  EXPECT_THROW(parse({"--transport", "carrier-pigeon"}), CLI::ValidationError);
  EXPECT_THROW(parse({"--transport", "nccl", "--ranks-on-one-gpu"}), CLI::ExcludesError);
  CLI::App app;
  std::string gpus, transport;
  add_gpu_options(app, gpus, transport, transports(), "GPU counts");
  const std::string help = app.help();
  for (const TransportKind& k : transports())
    EXPECT_NE(help.find(k.name + ": " + k.help), std::string::npos) << help;
}

// The engine reads a variant's declaration, never its name: sm90 declares its tile, its check and
// its kernels; a variant without a declaration is refused by name in one line.
TEST(MultiGpuDeclaration, Sm90DeclaresItsTileCheckAndKernels) {
  const Variant* sm90 = find_variant("sm90");
  ASSERT_NE(sm90, nullptr);
  ASSERT_TRUE(sm90->multi_gpu);
  auto config = [](int tile, int chunk, int per_thread, int lookahead) {
    return Config{
        {"tile", tile}, {"chunk", chunk}, {"per_thread", per_thread}, {"lookahead", lookahead}};
  };
  EXPECT_EQ(distributed_tile(*sm90, config(64, 16, 4, 3)), 64);
  EXPECT_EQ(distributed_tile(*sm90, sm90->defaults), 128);
  // The panel config runs on the engine's panel point (phase 3 from the column panels).
  const DistributedConfig panel = distributed_config(*sm90, config(128, 16, 8, 1));
  ASSERT_NE(panel.kernels, nullptr);
  EXPECT_EQ(panel.kernels->name, "128/16/8");
  EXPECT_EQ(distributed_config(*sm90, config(128, 8, 8, 1)).kernels->name, "128/8/8");
  EXPECT_EQ(panel.tile(), 128);
  EXPECT_TRUE(panel.lookahead);
  EXPECT_FALSE(distributed_config(*sm90, config(64, 16, 4, 0)).lookahead);
  EXPECT_EQ(distributed_config(*sm90, config(64, 16, 8, 5)).kernels->name, "64/16/8");
  // sm90's pairs of rounds (lookahead 3 to 5) run the engine's pairs where the point has their
  // pass: the panel point only.
  EXPECT_FALSE(panel.pairs);
  EXPECT_TRUE(panel.kernels->pair_phase3);
  EXPECT_TRUE(distributed_config(*sm90, config(128, 16, 8, 3)).pairs);
  EXPECT_TRUE(distributed_config(*sm90, config(128, 16, 8, 3)).lookahead);
  EXPECT_FALSE(distributed_config(*sm90, config(128, 16, 8, 0)).pairs);
  EXPECT_FALSE(distributed_config(*sm90, config(128, 8, 8, 3)).pairs);
  EXPECT_FALSE(distributed_config(*sm90, config(64, 16, 4, 3)).pairs);
  EXPECT_FALSE(distributed_config(*sm90, config(64, 16, 8, 5)).kernels->pair_phase3);
  // ... and only where the busiest rank holds 24 row tiles or more.
  DistributedConfig pairs = distributed_config(*sm90, config(128, 16, 8, 3));
  EXPECT_EQ(pairs.pairs_from_row_tiles, 24);
  EXPECT_FALSE(runs_pairs(pairs, partition_rows(10000, 128, 4)));  // 79 tiles: 20 a rank
  EXPECT_TRUE(runs_pairs(pairs, partition_rows(12000, 128, 4)));   // 94 tiles: 24, 24, 23, 23
  EXPECT_TRUE(runs_pairs(pairs, partition_rows(10000, 128, 2)));
  EXPECT_FALSE(runs_pairs(panel, partition_rows(12000, 128, 4)));
  pairs.pairs_from_row_tiles = 1;
  EXPECT_TRUE(runs_pairs(pairs, partition_rows(100, 128, 1)));
  for (const Config& c : all_configs(*sm90)) {  // every compiled sm90 config runs on the engine
    SCOPED_TRACE(config_name("sm90", c));
    EXPECT_EQ(distributed_problem(*sm90, c), "");
    const DistributedConfig e = distributed_config(*sm90, c);
    EXPECT_EQ(e.tile(), c.at("tile"));
    EXPECT_TRUE(e.kernels->prepare_device && e.kernels->close_pivot && e.kernels->pivot_row &&
                e.kernels->pivot_column && e.kernels->phase3);
  }
  EXPECT_EQ(distributed_problem(*sm90, config(64, 8, 4, 1)),
            "the distributed engine has no kernels for tile 64, chunk 8, per_thread 4 "
            "(tile/chunk/per_thread: 64/8/8, "
            "64/16/4, 64/16/8, 64/32/4, 64/32/8, 128/8/8, 128/16/8)");
  EXPECT_THROW(distributed_config(*sm90, config(64, 8, 4, 1)), std::invalid_argument);
  const Variant* naive = find_variant("naive");
  ASSERT_NE(naive, nullptr);
  EXPECT_FALSE(naive->multi_gpu);
  EXPECT_EQ(distributed_problem(*naive, naive->defaults),
            "naive has no multi-GPU engine (it runs on one GPU)");
  EXPECT_THROW(distributed_tile(*naive, naive->defaults), std::invalid_argument);
}

TEST(MultiGpuStatistics, EfficiencyIsAgainstTheSameConfigOnOneGpu) {
  Results r;
  r.context.ceiling_updates_per_s = 1e12;
  r.runs = {timed("sm90[a]", 1, 100), timed("sm90[a]", 4, 30), timed("sm90[b]", 4, 20)};
  compute_statistics(r, "naive", {});
  EXPECT_FALSE(r.runs[0].parallel_efficiency);
  ASSERT_TRUE(r.runs[1].parallel_efficiency);
  EXPECT_NEAR(*r.runs[1].parallel_efficiency, 100.0 / (4 * 30), 1e-12);
  EXPECT_FALSE(r.runs[2].parallel_efficiency);  // no one-GPU run of sm90[b]
  // The share of the ceiling is of four GPUs' ceilings.
  EXPECT_NEAR(r.runs[1].pct_of_ceiling, 100.0 * (1e9 / 0.030) / 4e12, 1e-9);
  // Ranks that share one GPU run in no parallel: no efficiency.
  r.context.transport = "single-device";
  r.runs[1].parallel_efficiency.reset();
  compute_statistics(r, "naive", {}, transport_shares_device(r.context.transport));
  EXPECT_FALSE(r.runs[1].parallel_efficiency);
  // ... and their share of the ceiling is of that one GPU's, not of four.
  EXPECT_NEAR(r.runs[1].pct_of_ceiling, 100.0 * (1e9 / 0.030) / 1e12, 1e-9);
}

TEST(MultiGpuResults, GpusAndEfficiencyRoundTripAndAreValidated) {
  Results r;
  r.context.device = {{"name", "x"}};
  r.context.gpus = {{{"name", "x"}, {"rank", 0}}, {{"name", "x"}, {"rank", 1}}};
  r.context.transport = "single-device";
  RunResult run = timed("sm90[a]", 2, 10);
  run.median_ms = 10;
  run.parallel_efficiency = 0.9;
  r.runs = {run};
  const nlohmann::json j = to_json(r);
  const Results back = results_from_json(j);
  EXPECT_EQ(back.runs[0].gpus, 2);
  EXPECT_DOUBLE_EQ(*back.runs[0].parallel_efficiency, 0.9);
  EXPECT_EQ(back.context.gpus.size(), 2u);
  EXPECT_EQ(back.context.transport, "single-device");

  nlohmann::json bad = j;
  bad["runs"][0]["gpus"] = 0;
  EXPECT_THROW(results_from_json(bad), std::runtime_error);
  bad = j;
  bad["runs"][0]["gpus"] = 1;  // a one-GPU run with an efficiency
  EXPECT_THROW(results_from_json(bad), std::runtime_error);
  bad = j;
  bad["context"]["gpus"] = nlohmann::json::array({1});
  EXPECT_THROW(results_from_json(bad), std::runtime_error);
  nlohmann::json old = j;  // files from before --gpus: one GPU
  old["runs"][0].erase("gpus");
  old["runs"][0].erase("parallel_efficiency");
  EXPECT_EQ(results_from_json(old).runs[0].gpus, 1);
}

// run_plan verifies and times one GPU count at a time and frees its executors before the next,
// so the check before any work counts each count's share of the first GPU alone (not their sum:
// --gpus 1,2,4,8 at n = 100000 fits an H200 count by count, not all at once).
TEST(MultiGpuMemory, EachGpuCountIsCheckedAlone) {
  Plan p;
  p.requests = {Request{find_variant("sm90"), std::nullopt, false}};
  p.reference = kCertificate;
  p.sizes = {20000};
  const uint64_t host = uint64_t{1} << 50;
  for (bool one_gpu : {false, true}) {
    p.transport = one_gpu ? "single-device" : "nccl";
    p.gpus = {1, 2, 4};
    const uint64_t alone = working_set(p, 20000).device;
    const uint64_t two = multi_gpu_bytes(p, 20000, 2), four = multi_gpu_bytes(p, 20000, 4);
    ASSERT_GT(alone, 0u);
    const uint64_t most = std::max({alone, two, four});
    EXPECT_EQ(memory_problem(p, most, host), "");
    EXPECT_NE(memory_problem(p, most - 1, host), "");
    p.gpus = {2, 4};  // no one-GPU run of sm90: only the engines, and no one-GPU buffers
    EXPECT_EQ(working_set(p, 20000).device, 0u);
    EXPECT_EQ(memory_problem(p, std::max(two, four), host), "");
    EXPECT_NE(memory_problem(p, std::max(two, four) - 1, host), "");
  }
}

}  // namespace
}  // namespace apsp::harness
