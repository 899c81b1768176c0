// The distributed engine (harness/multigpu/distributed.hpp) on one GPU: the single-device transport runs
// P = 1, 2, 3, 4 and 8 ranks as separate buffers, the whole schedule (ownership, panels,
// look-ahead, idle ranks, n not a multiple of tile x P), bit-exact against the CPU reference; the
// NCCL transport with P = 1; a larger case checked by the certificate; the solver's facade
// (harness/multigpu/multi_gpu_solve.hpp), band by band against sm90 solved on one GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/generators.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/multi_gpu_solve.hpp"
#include "harness/multigpu/round_timeline.hpp"
#include "harness/multigpu/row_partition.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/solve/solve_input.hpp"
#include "harness/verify/certificate.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {
namespace {

// Unreachable pairs (3 components), zero weights and duplicate edges in one graph; or a dense
// one, where most entries improve many times.
EdgeList graph(int n, bool dense) {
  GraphSpec s;
  s.num_vertices = n;
  s.seed = 31 * n + (dense ? 1 : 0);
  if (dense) {
    s.density = 0.3;
    s.wmax = 100;
  } else {
    s.kind = GraphKind::kComponents;
    s.components = 3;
    s.density = std::min(1.0, 6.0 / n);
    s.wmin = 0;
    s.wmax = 5;
    s.duplicates = 0.5;
  }
  return generate(s);
}

struct Problem {
  EdgeList edges;
  DistMatrix input, expected;
};

const Problem& problem(int n, bool dense) {
  static std::map<std::pair<int, bool>, std::unique_ptr<Problem>> cache;
  auto& slot = cache[{n, dense}];
  if (!slot) {
    slot = std::make_unique<Problem>();
    slot->edges = graph(n, dense);
    slot->input = DistMatrix::from_edges(slot->edges);
    slot->expected = slot->input;
    floyd_warshall_blocked(slot->expected);
  }
  return *slot;
}

const Variant& sm90() {
  const Variant* v = find_variant("sm90");
  if (!v) throw std::runtime_error("no sm90 variant registered");
  return *v;
}

Config config(int tile, int chunk, int per_thread, int lookahead) {
  return {{"tile", tile}, {"chunk", chunk}, {"per_thread", per_thread}, {"lookahead", lookahead}};
}
// Tile 128: sm90's panel point, its default's.
Config config(int tile, int lookahead) {
  return tile == 64 ? config(64, 16, 4, lookahead) : config(128, 16, 8, lookahead);
}

std::string describe(const Mismatch& m) {
  return std::to_string(m.count) + " entries differ, first d[" + std::to_string(m.i) + "][" +
         std::to_string(m.j) + "] = " + std::to_string(m.got) + ", expected " +
         std::to_string(m.expected);
}

// One solve on `executor` from problem(n, dense), compared element by element.
void expect_solves(Executor& executor, int n, bool dense, const Config& c) {
  const Problem& p = problem(n, dense);
  executor.load(p.input);
  const double ms = executor.sample(sm90(), c, false);
  EXPECT_GE(ms, 0.0);
  const Mismatch m = compare(executor.output(), p.expected);
  EXPECT_FALSE(m) << describe(m);
}

// lookahead 0: none; 1: one round a step; 3: pairs of rounds (at tile 128; one round a step at 64),
// at every size: the engine's own rule (DistributedConfig::pairs_from_row_tiles) would run them
// only from 24 row tiles a rank, beyond the CPU reference's sizes.
constexpr int kPairsAtEverySize = 1;

class SingleDevice : public testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(SingleDevice, BitExactAgainstTheCpuReference) {
  const auto [ranks, tile, lookahead] = GetParam();
  auto executor =
      make_distributed_executor(make_single_device_transport(ranks, 0), kPairsAtEverySize);
  for (int n : {1, 100, 300, 1000, 1337}) {
    for (bool dense : {false, true}) {
      SCOPED_TRACE("n = " + std::to_string(n) +
                   (dense ? ", dense" : ", components, zero weights, duplicates"));
      expect_solves(*executor, n, dense, config(tile, lookahead));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, SingleDevice,
                         testing::Combine(testing::Values(1, 2, 3, 4, 8), testing::Values(64, 128),
                                          testing::Values(0, 1, 3)),
                         [](const auto& info) {
                           const int la = std::get<2>(info.param);
                           return "P" + std::to_string(std::get<0>(info.param)) + "_tile" +
                                  std::to_string(std::get<1>(info.param)) +
                                  (la == 0   ? "_plain"
                                   : la == 1 ? "_lookahead"
                                             : "_pairs");
                         });

// Every compiled (tile, chunk, per_thread), on 3 ranks.
TEST(Distributed, EveryInstance) {
  auto executor = make_distributed_executor(make_single_device_transport(3, 0), kPairsAtEverySize);
  for (auto [tile, chunk, per] : {std::tuple{64, 8, 8},
                                  {64, 16, 4},
                                  {64, 16, 8},
                                  {64, 32, 4},
                                  {64, 32, 8},
                                  {128, 8, 8},
                                  {128, 16, 8}}) {
    for (int lookahead : {0, 1, 3}) {
      const Config c = config(tile, chunk, per, lookahead);
      SCOPED_TRACE(config_name("sm90", c));
      EXPECT_EQ(distributed_problem(sm90(), c), "");
      expect_solves(*executor, 777, true, c);
    }
  }
}

// Samples restore the input (Floyd-Warshall works in place), the L2 flush changes nothing, and a
// new tile rebuilds the layout; device_memory is the partition's.
TEST(Distributed, RepeatedSamplesAndTileChanges) {
  const int n = 1000, ranks = 3;
  const Problem& p = problem(n, true);
  auto executor =
      make_distributed_executor(make_single_device_transport(ranks, 0), kPairsAtEverySize);
  executor->load(p.input);
  for (const Config& c : {config(128, 1), config(128, 1), config(64, 0), config(128, 0),
                          config(128, 3), config(64, 1)}) {
    SCOPED_TRACE(config_name("sm90", c));
    executor->sample(sm90(), c, true);
    const Mismatch m = compare(executor->output(), p.expected);
    EXPECT_FALSE(m) << describe(m);
    const Partition part = partition_rows(n, c.at("tile"), ranks);
    EXPECT_EQ(executor->device_memory().solve_bytes, part.max_bytes_per_rank());
    EXPECT_GE(executor->device_memory().peak_bytes, part.max_bytes_per_rank());
  }
  const Measurement replays =
      executor->measure(sm90(), config(64, 1), {Mode::kCudaGraph, 2, false});
  ASSERT_EQ(replays.samples_ms.size(), 2u) << "plain solves: the ranks' work is no one stream's";
  EXPECT_GE(replays.samples_ms[1], 0.0);
  EXPECT_FALSE(compare(executor->output(), p.expected));
}

TEST(Distributed, RefusesOtherVariantsAndConfigs) {
  auto executor = make_distributed_executor(make_single_device_transport(2, 0), kPairsAtEverySize);
  executor->load(problem(100, false).input);
  const Variant* naive = find_variant("naive");
  ASSERT_NE(naive, nullptr);
  EXPECT_THROW(executor->sample(*naive, naive->defaults, false), std::invalid_argument);
  EXPECT_THROW(executor->sample(sm90(), config(64, 8, 4, 1), false), std::invalid_argument);
}

TEST(Distributed, NcclOneRankBitExact) {
  ASSERT_TRUE(nccl_available()) << "this build has no NCCL (CMake found no nccl.h or libnccl)";
  auto transport = make_nccl_transport({0});
  EXPECT_EQ(transport->name(), "nccl");
  EXPECT_EQ(transport->ranks(), 1);
  auto executor = make_distributed_executor(std::move(transport), kPairsAtEverySize);
  for (int n : {1, 300, 1337}) {
    for (int tile : {64, 128}) {
      for (int lookahead : {0, 1, 3}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", tile " + std::to_string(tile) +
                     ", lookahead " + std::to_string(lookahead));
        expect_solves(*executor, n, false, config(tile, lookahead));
        expect_solves(*executor, n, true, config(tile, lookahead));
      }
    }
  }
}

TEST(Distributed, NcclRefusesMissingDevicesInOneLine) {
  if (!nccl_available()) GTEST_SKIP() << "no NCCL in this build";
  try {
    make_nccl_transport({0, 999});
    FAIL() << "accepted device 999";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("device 999 asked"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

// Larger cases, checked by the shortest-path certificate: n = 3000 over 3 ranks (tile 128: 24
// tiles, 8 each) with pairs at every size, and n = 6200 over 2 (49 tiles, 25 and 24), where the
// engine's own rule runs pairs.
TEST(Distributed, LargerCasesByCertificate) {
  for (const auto& [n, ranks, pairs_from] :
       {std::tuple{3000, 3, kPairsAtEverySize},
        std::tuple{6200, 2, DistributedConfig::kPairsFromRowTiles}}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const EdgeList edges = graph(n, false);
    const InEdges in = InEdges::of(edges);
    auto executor = make_distributed_executor(make_single_device_transport(ranks, 0), pairs_from);
    executor->load(DistMatrix::from_edges(edges));
    for (int lookahead : {0, 1, 3}) {
      executor->sample(sm90(), config(128, lookahead), false);
      EXPECT_EQ(executor->certify(in), "");
    }
  }
}

// sm90 solved whole on one GPU (its own variant's run, not the engine): the reference the
// facade's bands are held to.
DistMatrix one_gpu_solve(const DistMatrix& input, const Config& c) {
  auto executor = make_executor(Target::kDevice, query_device().l2_bytes);
  executor->load(input);
  executor->sample(sm90(), c, false);
  return executor->output();
}

// The facade over 3 ranks on one GPU at n = 1337 (a multiple of neither tile; the last rank's
// last tile mostly padding), on a graph of 3 components (unreachable pairs): every band, bands
// that straddle the ranks' rows included, equals the one-GPU solve; a second run() changes nothing.
TEST(MultiGpuSolve, BandsEqualTheOneGpuSolve) {
  const int n = 1337, ranks = 3;
  const Problem& p = problem(n, false);
  ASSERT_GT(std::count(p.expected.data(), p.expected.data() + static_cast<size_t>(n) * n, kInf), 0);
  for (const Config& c : {config(128, 1), config(128, 3), config(64, 0), config(128, 8, 8, 1)}) {
    SCOPED_TRACE(config_name("sm90", c));
    const DistMatrix whole = one_gpu_solve(p.input, c);
    ASSERT_FALSE(compare(whole, p.expected)) << describe(compare(whole, p.expected));
    const int band_rows = 100;
    MultiGpuSolve solve("single-device", ranks, sm90(), c, p.input, 0,
                        band_rows * n * sizeof(int32_t));
    EXPECT_EQ(solve.n(), n);
    EXPECT_EQ(solve.band_rows(), band_rows);
    EXPECT_EQ(solve.partition().ranks, ranks);
    EXPECT_EQ(solve.transport().name(), "single-device");
    for (int pass = 0; pass < 2; ++pass) {
      solve.run();
      DistMatrix banded(n);
      for (int first = 0; first < n; first += band_rows) {
        const int count = std::min(band_rows, n - first);
        const int32_t* rows = solve.band(first, count);
        std::copy(rows, rows + static_cast<size_t>(count) * n, banded.row(first));
      }
      const Mismatch m = compare(banded, whole);
      EXPECT_FALSE(m) << "pass " << pass << ": " << describe(m);
    }
    EXPECT_THROW(solve.band(0, band_rows + 1), std::out_of_range);
    EXPECT_THROW(solve.band(n - 1, 2), std::out_of_range);
  }
}

// Each rank's rows built on its device from the whole edge list (SolveInput::build_rows_on_device,
// what apsp --gpus does) equal the host's adjacency matrix, padding included; solved, the bands
// equal the reference, the maximum is the host's, and the per-rank certificate holds.
TEST(MultiGpuSolve, RowsBuiltOnTheRanksFromTheEdges) {
  const int n = 1337;
  const Problem& p = problem(n, false);
  const SolveInput graph(p.edges);
  for (int ranks : {1, 3, 4}) {
    SCOPED_TRACE(ranks);
    MultiGpuSolve solve(make_single_device_transport(ranks, 0), sm90(), config(128, 1), n);
    solve.build([&](int32_t* block, int pitch, int first, int rows, cudaStream_t stream) {
      graph.build_rows_on_device(block, pitch, first, rows, stream);
    });
    const auto read = [&] {
      DistMatrix d(n);
      for (int first = 0; first < n; first += solve.band_rows()) {
        const int count = std::min(solve.band_rows(), n - first);
        std::copy_n(solve.band(first, count), static_cast<size_t>(count) * n, d.row(first));
      }
      return d;
    };
    const DistMatrix built = read();
    EXPECT_FALSE(compare(built, p.input)) << describe(compare(built, p.input));
    solve.run();
    const DistMatrix solved = read();
    EXPECT_FALSE(compare(solved, p.expected)) << describe(compare(solved, p.expected));
    EXPECT_EQ(solve.max_finite(), max_finite_entry(p.expected));
    EXPECT_EQ(solve.certify(InEdges::of(p.edges)), "");
  }
}

// Faults planted in different ranks' rows: the per-rank certificate reports the lowest, in the
// same words as the host's certificate and the one-GPU device certificate.
TEST(MultiGpuSolve, RankCertificateReportsTheOneGpuFault) {
  const int n = 777;
  const Problem& p = problem(n, true);
  const InEdges in = InEdges::of(p.edges);
  struct Plant {
    int s, v, delta;
  };
  const std::vector<std::vector<Plant>> cases = {
      {{700, 5, +1}},               // too large: an edge relaxes it (the last rank)
      {{600, 9, -1}, {10, 3, +1}},  // too small (ungrounded) late, too large early: the early one
      {{300, 300, +1}},             // the diagonal
      {{1, 2, -1}},                 // ungrounded in rank 0
  };
  for (const auto& plants : cases) {
    DistMatrix bad = p.expected;
    for (const Plant& x : plants) bad.row(x.s)[x.v] += x.delta;
    const std::string host = certify_host(bad.view(), in);
    ASSERT_NE(host, "");
    SCOPED_TRACE(host);
    DeviceBuffer<int32_t> whole(static_cast<size_t>(n) * n);
    APSP_CUDA_CHECK(cudaMemcpy(whole.get(), bad.data(), whole.size() * sizeof(int32_t),
                               cudaMemcpyHostToDevice));
    DeviceCertificate one(in);
    EXPECT_EQ(one.check(whole.get(), nullptr), host);
    for (int ranks : {2, 3}) {
      MultiGpuSolve solve("single-device", ranks, sm90(), config(64, 1), bad, 0);
      EXPECT_EQ(solve.certify(in), host) << ranks << " ranks";
    }
  }
}

TEST(MultiGpuSolve, RefusesWhatTheEngineCannotRun) {
  const Problem& p = problem(100, false);
  const Variant* naive = find_variant("naive");
  ASSERT_NE(naive, nullptr);
  EXPECT_THROW(MultiGpuSolve("single-device", 2, *naive, naive->defaults, p.input),
               std::invalid_argument);
  EXPECT_THROW(MultiGpuSolve("carrier-pigeon", 2, sm90(), config(128, 1), p.input),
               std::invalid_argument);
  EXPECT_THROW(MultiGpuSolve("single-device", 2, sm90(), config(64, 8, 4, 1), p.input),
               std::invalid_argument);
}
// A solve handed a RoundTimeline (3 ranks on one GPU; look-ahead one round a step and in pairs
// of rounds, and none) is bit-exact, and the timeline has every step of every working rank:
// non-negative spans that fit in the rank's total, the next panel's making on its owner under
// look-ahead, none on the last step.
TEST(RoundTimeline, EveryRoundOfEveryRankAndTheSolveExact) {
  const int n = 1337, ranks = 3;
  const Problem& p = problem(n, false);
  for (int lookahead : {1, 3, 0}) {
    SCOPED_TRACE("lookahead " + std::to_string(lookahead));
    MultiGpuSolve solve("single-device", ranks, sm90(), config(128, lookahead), p.input, 0);
    DistributedConfig& e = solve.engine_config();
    // 4 row tiles a rank: pairs only when asked at every size.
    EXPECT_FALSE(runs_pairs(e, solve.partition()));
    e.pairs_from_row_tiles = kPairsAtEverySize;
    EXPECT_EQ(runs_pairs(e, solve.partition()), lookahead == 3);
    const int steps = static_cast<int>(
        schedule_steps(solve.partition(), e.lookahead, runs_pairs(e, solve.partition())).size());
    EXPECT_EQ(steps, lookahead == 3 ? (solve.partition().tiles + 1) / 2 : solve.partition().tiles);
    RoundTimeline timeline(solve.transport(), solve.transport().local_ranks(),
                           solve.partition().tiles);
    solve.run(&timeline);
    DistMatrix d(n);
    for (int first = 0; first < n; first += solve.band_rows()) {
      const int count = std::min(solve.band_rows(), n - first);
      std::copy_n(solve.band(first, count), static_cast<size_t>(count) * n, d.row(first));
    }
    EXPECT_FALSE(compare(d, p.expected)) << describe(compare(d, p.expected));
    for (int r = 0; r < ranks; ++r) {
      SCOPED_TRACE(r);
      const std::vector<RoundTimes> rounds = timeline.rounds(r);
      ASSERT_EQ(static_cast<int>(rounds.size()), steps);
      const double total = timeline.total_ms(r);
      double spent = 0;
      int made = 0;
      for (size_t kt = 0; kt < rounds.size(); ++kt) {
        const RoundTimes& t = rounds[kt];
        EXPECT_GE(t.waited, 0.0);
        EXPECT_GE(t.phase3, 0.0);
        spent += t.waited + t.phase3;
        if (t.make >= 0) ++made;
        if (kt + 1 == rounds.size()) {
          EXPECT_EQ(t.make, -1);
        }
        if (!lookahead) {
          EXPECT_EQ(t.ahead, -1);
        }
      }
      EXPECT_GT(total, 0.0);
      // each span read from its own pair of events: a rounding each (about 0.5 us)
      EXPECT_NEAR(spent, total, 2e-3 * static_cast<double>(rounds.size()) + 1e-3 * total);
      if (lookahead) {
        EXPECT_GT(made, 0);
      }
    }
    EXPECT_NE(describe_timeline(timeline).find("rank 2:"), std::string::npos);
    const std::string csv = timeline_csv(timeline);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + ranks * steps);
  }
  const auto one = make_single_device_transport(1, 0);
  EXPECT_THROW(RoundTimeline(*one, {0}, 0), std::invalid_argument);
}

// A rank that holds no rows (2 row tiles of 128 over 3 ranks) records no round, so nothing of it
// is described, rather than rounds of unrecorded spans.
TEST(RoundTimeline, AnIdleRankHasNoRounds) {
  const Problem& p = problem(200, false);
  MultiGpuSolve solve("single-device", 3, sm90(), config(128, 1), p.input, 0);
  ASSERT_EQ(solve.partition().tiles, 2);
  RoundTimeline timeline(solve.transport(), solve.transport().local_ranks(),
                         solve.partition().tiles);
  solve.run(&timeline);
  EXPECT_EQ(timeline.rounds(0).size(), 2u);
  EXPECT_TRUE(timeline.rounds(2).empty());
  EXPECT_EQ(timeline.total_ms(2), 0);
  const std::string text = describe_timeline(timeline);
  EXPECT_NE(text.find("rank 1:"), std::string::npos) << text;
  EXPECT_EQ(text.find("rank 2:"), std::string::npos) << text;
  const std::string csv = timeline_csv(timeline);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 2) << csv;
}

TEST(Transport, SingleDeviceBroadcastCopiesTheRootsBuffer) {
  const int ranks = 4;
  auto t = make_single_device_transport(ranks, 0);
  EXPECT_EQ(t->name(), "single-device");
  EXPECT_EQ(t->ranks(), ranks);
  EXPECT_EQ(t->device(3), 0);
  const size_t count = 1 << 16;
  std::vector<DeviceBuffer<int>> buffers;
  std::vector<CudaStream> streams(ranks);
  std::vector<void*> pointers;
  std::vector<cudaStream_t> handles;
  for (int r = 0; r < ranks; ++r) {
    std::vector<int> fill(count, r);
    buffers.push_back(to_device<int>(fill));
    pointers.push_back(buffers.back().get());
    handles.push_back(streams[r].get());
  }
  t->broadcast(2, pointers, count * sizeof(int), handles);
  for (int r = 0; r < ranks; ++r) {
    std::vector<int> back(count);
    APSP_CUDA_CHECK(cudaMemcpyAsync(back.data(), pointers[r], count * sizeof(int),
                                    cudaMemcpyDeviceToHost, handles[r]));
    streams[r].synchronize();
    EXPECT_EQ(std::count(back.begin(), back.end(), 2), static_cast<long>(count)) << "rank " << r;
  }
  EXPECT_THROW(t->broadcast(4, pointers, 4, handles), std::invalid_argument);
  EXPECT_THROW(make_single_device_transport(0, 0), std::invalid_argument);
}

}  // namespace
}  // namespace apsp::harness
