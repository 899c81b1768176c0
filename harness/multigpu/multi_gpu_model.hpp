// The paper model of the row-block decomposition over P GPUs (docs/multi-gpu.md): how long a
// solve should take and how much memory each GPU holds, from a measured one-GPU rate, a round's
// measured tail on a rank, and a link bandwidth. `apsp_bench --dry-run --gpus ...` prints it; a
// multi-GPU run prints it beside what it measured, with the one-GPU rate of the same run.
//
// The schedule it models (harness/multigpu/distributed.hpp): rank r owns whole row tiles; each
// round the owner of the pivot rows closes the pivot tile and its row panel (tile rows x pitch)
// and broadcasts it; every rank then updates its own rows. Every rank updates all of its rows in
// every round, so the work stays balanced to one row tile for the whole solve. With look-ahead
// the next round's panel is made and sent while this round's phase 3 runs.
#pragma once

#include <cstdint>
#include <string>

namespace apsp::harness {

struct LinkModel {
  double rate_updates_per_s = 0;  // one GPU's min-plus rate on a whole solve: n^3 / time
  double bytes_per_s = 0;         // broadcast bandwidth between the GPUs (bus bandwidth)
  double round_latency_s = 0;     // a broadcast's fixed cost (launch, NCCL's protocol)
  // A round's fixed cost on a rank beyond its share of the work (its phase-3 pass's drain, the
  // launches between passes), which a one-GPU solve spreads over P times the work: measured on
  // one GPU, each rank of a P-rank solve alone (round_timeline --alone).
  double round_tail_s = 0;
  uint64_t device_bytes = 0;  // each GPU's memory
  bool lookahead = true;      // the next panel made and sent while phase 3 runs
};

// The figures the project measured, as defaults (docs/multi-gpu.md says where each comes
// from): the H200's sm90 rate at n = 100000, a round's tail on an H200, and NCCL's all-reduce
// bus bandwidth on 2 to 8 NVLink-connected H100s of this workplace's machines (the same NVLink 4
// as the H200s').
LinkModel h200_nvlink_model();

struct Prediction {
  int tiles = 0;              // row tiles (rounds)
  int max_tiles_per_gpu = 0;  // the busiest GPU's row tiles
  uint64_t panel_bytes = 0;   // one broadcast: tile rows x pitch ints
  uint64_t bytes_per_gpu = 0;
  bool fits = false;     // bytes_per_gpu within device_bytes
  double compute_s = 0;  // the busiest GPU's updates at the one-GPU rate, and its rounds' tails
  double comm_s = 0;     // every round's broadcast, end to end
  double exposed_s = 0;  // the part of comm_s (and the next panel's making) not hidden
  double total_s = 0;
  double efficiency = 0;  // one GPU's time / (P x total), the one-GPU time being n^3 / rate
};

// tile: the row tile (sm90's default, 128). Throws std::invalid_argument on n < 1, gpus < 1 or
// tile < 1.
Prediction predict(int n, int gpus, int tile, const LinkModel& link);

// The smallest rows per GPU at which a round's broadcast (and the making of the next panel)
// still hides behind that round's phase 3, for this link: below it communication shows.
double rows_per_gpu_to_hide(int n, int tile, const LinkModel& link);

// One line: "n = 100000 on 8 GPUs: 7.95 s predicted (99.4% parallel efficiency), 5.4 GB per
// GPU; ...", times below a second in milliseconds.
std::string describe(int n, int gpus, const Prediction& p);

}  // namespace apsp::harness
