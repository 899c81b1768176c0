#include "harness/multigpu/multi_gpu_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/memory.hpp"
#include "harness/multigpu/row_partition.hpp"

namespace apsp::harness {

LinkModel h200_nvlink_model() {
  LinkModel m;
  // apsp_bench --variant sm90 --gpus 1,2,4 --verify certificate on nvidia-h200-x4, one GPU at
  // n = 100000: 63176.1 ms, so 1e15 / 63.1761 s.
  m.rate_updates_per_s = 1e15 / 63.1761;
  // round_timeline --alone --n 10000 --gpus 4 --config 'sm90[lookahead=3]' on the H200: the
  // slowest rank (2560 of 10000 rows, 79 rounds) 18.545 ms, against sm90 whole 65.249 ms in the
  // same call: (65.249 - 79 c) x 0.256 + 79 c = 18.545 gives c = 31.3 us.
  m.round_tail_s = 31.3e-6;
  // NCCL all-reduce of 1 GiB, bus bandwidth, on nvidia-h100-x2 (329 GB/s; 355 on x4, 361 on x8):
  // the tool library's KINDS.md, measured on this workplace's machines. The lowest of the three.
  m.bytes_per_s = 329e9;
  // Assumed, not measured: a broadcast's fixed cost, of the order of NCCL's small-message latency.
  m.round_latency_s = 20e-6;
  // nvidia-smi on nvidia-h200 machines: 143771 MiB a GPU (KINDS.md).
  m.device_bytes = uint64_t{143771} << 20;
  return m;
}

Prediction predict(int n, int gpus, int tile, const LinkModel& link) {
  if (n < 1 || gpus < 1 || tile < 1)
    throw std::invalid_argument(fmt::format(
        "predict: n = {}, gpus = {}, tile = {}: each must be at least 1", n, gpus, tile));
  const Partition part = partition_rows(n, tile, gpus);  // what the engine allocates
  Prediction p;
  p.tiles = part.tiles;
  const uint64_t pitch = part.pitch;
  p.max_tiles_per_gpu = part.tile_count(0);  // rank 0 owns the most
  p.panel_bytes = part.panel_bytes();
  const uint64_t rows = static_cast<uint64_t>(p.max_tiles_per_gpu) * tile;
  // One GPU: sm90's padded matrix. Several: the busiest rank's rows and its panels
  // (Partition::max_bytes_per_rank).
  p.bytes_per_gpu = gpus == 1 ? pitch * pitch * 4 : part.max_bytes_per_rank();
  p.fits = p.bytes_per_gpu <= link.device_bytes;

  const double one_gpu_s = static_cast<double>(n) * n * n / link.rate_updates_per_s;
  const double busiest_rows = std::min<double>(static_cast<double>(rows), n);
  p.compute_s = one_gpu_s * busiest_rows / n;
  if (gpus > 1) {
    // The one-GPU time holds every round's tail once; the busiest rank's share of the rest, and
    // every tail again in full.
    const double tails_s = std::min(one_gpu_s, p.tiles * link.round_tail_s);
    p.compute_s = (one_gpu_s - tails_s) * busiest_rows / n + tails_s;
    const double round_s = p.compute_s / p.tiles;
    const double send_s = link.round_latency_s + p.panel_bytes / link.bytes_per_s;
    // The next pivot row's tile, its closure and its row panel: tile x tile x pitch updates.
    const double prepare_s = static_cast<double>(tile) * tile * pitch / link.rate_updates_per_s;
    p.comm_s = p.tiles * send_s;
    p.exposed_s = p.tiles * (link.lookahead ? std::max(0.0, prepare_s + send_s - round_s) : send_s);
  }
  p.total_s = p.compute_s + p.exposed_s;
  p.efficiency = one_gpu_s / (gpus * p.total_s);
  return p;
}

double rows_per_gpu_to_hide(int n, int tile, const LinkModel& link) {
  // A round's phase 3 on r rows, r * n * tile / R, against the next panel's making, tile^2 * n / R,
  // and its broadcast, latency + 4 * tile * n / B: r >= tile + 4R / B + latency * R / (n * tile).
  // The rounds' tails are left out: they only lengthen a round.
  const double r = link.rate_updates_per_s;
  return tile + 4 * r / link.bytes_per_s +
         link.round_latency_s * r / (static_cast<double>(n) * tile);
}

namespace {

// Seconds, or milliseconds below one second (a small n's solve takes milliseconds).
std::string seconds(double s) {
  return s < 1 ? fmt::format("{:.3f} ms", s * 1e3) : fmt::format("{:.2f} s", s);
}

}  // namespace

std::string describe(int n, int gpus, const Prediction& p) {
  std::string line = fmt::format("n = {} on {} GPU{}: {} predicted", n, gpus, gpus == 1 ? "" : "s",
                                 seconds(p.total_s));
  if (gpus > 1) line += fmt::format(" ({:.1f}% parallel efficiency)", 100 * p.efficiency);
  line +=
      fmt::format(", {} per GPU{}", human_bytes(p.bytes_per_gpu), p.fits ? "" : " (does not fit)");
  if (gpus > 1)
    line += fmt::format("; {} broadcasts of {} ({}, {} of it not hidden)", p.tiles,
                        human_bytes(p.panel_bytes), seconds(p.comm_s), seconds(p.exposed_s));
  return line;
}

}  // namespace apsp::harness
