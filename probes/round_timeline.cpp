// round_timeline: where the distributed engine's rounds spend their time on each rank
// (harness/multigpu/round_timeline.hpp), against the engine on one rank in the same run.
//   ./build/release/round_timeline [--n N] [--gpus P] [--transport NAME] [--no-lookahead]
//                                  [--config SM90] [--pairs-from TILES] [--reps K] [--csv FILE]
//   ./build/release/round_timeline --alone [--n N] [--gpus P] ...
// With a transport (nccl by default: P GPUs), the P ranks solve a random graph of V = N (E = 8N)
// together, their round timelines recorded; the parallel efficiency is the one-rank time over P
// times the slowest rank's. --alone runs each rank of a P-rank solve by itself on GPU 0, the other
// ranks absent and every broadcast nothing: one GPU's share of a P-GPU solve over a free link, the
// compute side of the efficiency on a machine with one GPU (its distances are no solve's).
// --no-lookahead turns the engine's look-ahead off (harness/multigpu/distributed.hpp). --config:
// the sm90 config the engine runs ("sm90[chunk=8]"; "sm90[lookahead=3]" runs the panel point's
// pairs of rounds where a rank holds --pairs-from row tiles, 24 by default as in every solve:
// DistributedConfig::pairs_from_row_tiles; sm90's default, the panel point one round a step,
// otherwise). The median of K runs (3) is described, a "round" a step of the schedule; --csv
// writes every step of it (atomically).
// Exit 2 on bad arguments, 3 without a CUDA device, 4 with fewer GPUs than --gpus over a transport
// of one GPU each.
#include "harness/multigpu/round_timeline.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "core/console.hpp"
#include "core/device_info.hpp"
#include "core/generators.hpp"
#include "core/integer.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/multi_gpu_solve.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/solve/solve_input.hpp"
#include "variants/variant.hpp"

namespace {

using namespace apsp;
using namespace apsp::harness;

struct Options {
  int n = 10000, gpus = 4, reps = 3;
  int pairs_from = DistributedConfig::kPairsFromRowTiles;  // --pairs-from
  std::string transport = kDefaultTransport, csv, config = "sm90";
  bool alone = false, lookahead = true;
  Config engine;  // --config parsed (sm90's defaults filled in), --no-lookahead applied
};

std::unique_ptr<MultiGpuSolve> built(std::unique_ptr<Transport> t, const SolveInput& input,
                                     const Options& o) {
  const Variant* v = find_variant("sm90");
  if (!v) throw std::runtime_error("no sm90 variant in this build");
  auto solve = std::make_unique<MultiGpuSolve>(std::move(t), *v, o.engine, input.n());
  solve->engine_config().pairs_from_row_tiles = o.pairs_from;
  solve->build([&input](int32_t* block, int pitch, int first_row, int rows, cudaStream_t s) {
    input.build_rows_on_device(block, pitch, first_row, rows, s);
  });
  return solve;
}

Options parse(int argc, char** argv) {
  Options o;
  const auto value = [&](int& i, const std::string& flag) -> std::string {
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    return argv[++i];
  };
  const auto number = [&](int& i, const std::string& flag) {
    const std::string text = value(i, flag);
    int v = 0;
    try {
      v = parse_integer(text, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(flag + ": " + e.what());
    }
    if (v < 1) throw std::invalid_argument(flag + " " + text + ": at least 1");
    return v;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--n")
      o.n = number(i, a);
    else if (a == "--gpus")
      o.gpus = number(i, a);
    else if (a == "--reps")
      o.reps = number(i, a);
    else if (a == "--pairs-from")
      o.pairs_from = number(i, a);
    else if (a == "--alone")
      o.alone = true;
    else if (a == "--no-lookahead")
      o.lookahead = false;
    else if (a == "--transport")
      o.transport = value(i, a);
    else if (a == "--csv")
      o.csv = value(i, a);
    else if (a == "--config")
      o.config = value(i, a);
    else
      throw std::invalid_argument("unknown argument " + a + " (see --help)");
  }
  if (!o.csv.empty()) check_output_path(o.csv, "--csv");
  NamedConfig nc = parse_config(o.config);
  if (nc.variant->name != "sm90")
    throw std::invalid_argument("--config " + o.config + ": an sm90 config");
  if (!o.lookahead) nc.config["lookahead"] = 0;
  if (const std::string why = distributed_problem(*nc.variant, nc.config); !why.empty())
    throw std::invalid_argument("--config " + o.config + ": " + why);
  o.engine = nc.config;
  if (!o.alone && !find_transport(o.transport))
    throw std::invalid_argument("--transport " + o.transport + ": one of " + transport_names());
  return o;
}

int run(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help") {
      std::puts(
          "round_timeline [--n N] [--gpus P] [--transport NAME | --alone] [--no-lookahead] "
          "[--config SM90] [--pairs-from TILES] [--reps K] [--csv FILE]: where the distributed "
          "engine's rounds spend their time on each rank, against the engine on one rank (exit 2 "
          "on bad arguments, 3 without a CUDA device, 4 with fewer GPUs than --gpus)");
      return kExitOk;
    }
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::invalid_argument& e) {
    fmt::print(stderr, "round_timeline: {}\n", e.what());
    return kExitRefused;
  }
  if (!has_device()) {
    std::fputs("round_timeline: no CUDA device\n", stderr);
    return kExitNoDevice;
  }
  if (!o.alone && !transport_shares_device(o.transport) && o.gpus > device_count()) {
    fmt::print(stderr, "round_timeline: {} GPUs asked, {} present (--gpus)\n", o.gpus,
               device_count());
    return kExitTooFewGpus;
  }
  GraphSpec spec;
  spec.num_vertices = o.n;
  spec.num_edges = int64_t{8} * o.n;
  const SolveInput input(generate(spec));

  auto one = built(make_single_device_transport(1, 0), input, o);
  const TimedRun whole = median_timed_run(*one, o.reps);
  one.reset();
  fmt::print("the engine on one rank, n = {}: {:.3f} ms\n", o.n, whole.ms);

  TimedRun worst;
  std::string csv;
  const auto keep = [&](TimedRun r) {
    fmt::print("{}", r.text);
    csv += csv.empty() ? r.csv : r.csv.substr(r.csv.find('\n') + 1);
    if (r.ms > worst.ms) worst = std::move(r);
  };
  if (o.alone) {
    for (int r = 0; r < o.gpus; ++r)
      keep(median_timed_run(*built(make_alone_transport(o.gpus, r, 0), input, o), o.reps));
  } else {
    keep(median_timed_run(*built(make_transport(o.transport, o.gpus, 0), input, o), o.reps));
  }
  const bool shared = !o.alone && transport_shares_device(o.transport);
  fmt::print("{} ranks{}: the slowest {:.3f} ms; one rank's time / ({} x that) = {:.1f}%{}\n",
             o.gpus, o.alone ? ", each alone on GPU 0 over a free link" : " over " + o.transport,
             worst.ms, o.gpus, 100 * whole.ms / (o.gpus * worst.ms),
             shared ? " (the ranks share one GPU: no speedup)" : "");
  if (!o.csv.empty()) write_file_atomic(o.csv, csv);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return apsp::run_program("round_timeline", run, argc, argv); }
