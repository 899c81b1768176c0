// The distributed blocked Floyd-Warshall over P ranks (issue 18): each rank owns a block of row
// tiles (harness/multigpu/row_partition.hpp) in sm90's padded layout, and the pivot-row panel of each
// round goes from its owner to every rank through a Transport (harness/multigpu/transport.hpp). The
// products are sm90's (kernels/sm90.cuh, kernels/distributed.cuh), so the engine solves with an
// sm90 config's tile, chunk and per_thread.
//
// Round kt (schedule_rounds):
//   owner(kt):   closes the pivot tile (phase 1) and updates its pivot-row panel (phase 2, row);
//                the panel (tile rows x pitch, contiguous in the owner's block) is broadcast into
//                every other rank's panel buffer kt % 2;
//   every rank:  updates its tiles of pivot column kt (B = the pivot, from the panel), then its
//                phase 3 (A = its own pivot-column tiles, B = the panel).
// Look-ahead (on by default): during round kt's phase 3, the owner of round kt + 1 updates its
// row tile kt + 1 first (on a second, high-priority stream), closes pivot kt + 1, updates row
// panel kt + 1 and broadcasts it into buffer (kt + 1) % 2, which nobody reads in round kt; the
// other ranks' receiving copies wait only for their round kt - 1 (the last readers of that
// buffer). The rest of phase 3 runs meanwhile on each rank's main stream, so the broadcast hides
// behind it. Without look-ahead everything runs on the main streams, one step after the other.
// Streams and events: per rank a main stream (everything of the rank's solve but the look-ahead
// work) and a side stream (the look-ahead work and the look-ahead broadcasts); events `freed`
// (main -> side: the buffer to receive into is free), `fork` (main -> side: the owner's pivot
// column is done) and `ready` (side -> main: the next panel has landed).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/measure/executor.hpp"
#include "harness/multigpu/row_partition.hpp"
#include "harness/multigpu/transport.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

struct DistributedConfig {
  int tile = 128, chunk = 8, per_thread = 8;  // sm90's defaults (variants/05_sm90.cu)
  bool lookahead = true;
};

// From an sm90 config: its tile, chunk and per_thread (for the panel config, tile 128 with chunk
// 16, the chunk of its other products: 8); lookahead 0 turns the engine's look-ahead off, 1 to 4
// leave it on (the engine has one look-ahead schedule). Parameters it lacks keep the defaults
// above.
DistributedConfig distributed_config(const Config& sm90_config);
// "" when the engine has kernels for c's (tile, chunk, per_thread), else why not (one line). The
// engine compiles the (tile, chunk, per_thread) combinations sm90 compiles.
std::string distributed_check(const DistributedConfig& c);

// The row blocks and panels of one partition over a transport's ranks, and the solve. Allocates
// exactly p.bytes_per_rank(r) on each rank's device (its row block and two panel buffers).
class DistributedSolver {
 public:
  DistributedSolver(Transport& transport, const Partition& p);
  ~DistributedSolver();
  DistributedSolver(const DistributedSolver&) = delete;
  DistributedSolver& operator=(const DistributedSolver&) = delete;

  const Partition& partition() const { return p_; }
  Transport& transport() const { return t_; }
  // Rank r's row block (p.padded_rows(r) rows, p.pitch apart; null for an idle rank) and its main
  // stream: load a block on it, read it back after solve().
  int* block(int r) const;
  cudaStream_t stream(int r) const;
  // Enqueues one solve of the blocks in place on the ranks' streams (asynchronous: the ranks'
  // main streams hold its end). Throws for a config distributed_check refuses or a tile other
  // than the partition's.
  void solve(const DistributedConfig& c);

 private:
  struct Rank;
  Transport& t_;
  Partition p_;
  std::vector<std::unique_ptr<Rank>> ranks_;
};

// A LocalExecutor (harness/measure/executor.hpp) that runs sm90 configs on the distributed engine
// over `t`'s ranks: the harness's Sampler (verification, sampling) drives it like the one-GPU
// executor.
//   load():    keeps a host copy of the input (the row partition depends on the config's tile);
//   reserve(): the partition at the config's tile, its blocks, and a pristine device copy per rank
//              where it fits in the rank device's free memory beside the solve;
//   restore(): lays the input out into the ranks' blocks (from the pristine copies, else from the
//              host); flush_l2(): every device's L2, once;
//   clock():   times one solve across all ranks: every rank's stream waited for (the restore and
//              flush untimed), rank 0's start event, every other rank's main stream waits for it,
//              and the stop is recorded on rank 0 after every rank's main stream is done;
//   output():  gathers the blocks into a host DistMatrix; certify(): certify_host on it;
//   no one stream: a CUDA-graph measurement times plain solves, a phase measurement gives zeros;
//   device_memory(): solve_bytes = the partition's max_bytes_per_rank(), peak_bytes = the most
//              any rank holds (its block, panels, pristine copy and its device's L2 flush
//              buffer); per rank, so the single-device transport's one GPU holds P times that.
// Only the variant named "sm90" runs (std::invalid_argument otherwise).
std::unique_ptr<Executor> make_distributed_executor(std::unique_ptr<Transport> t);
// Over `gpus` ranks: on GPUs 0 .. gpus - 1 through NCCL, or with `ranks_on_one_gpu` every rank on
// GPU `device` (the single-device transport).
std::unique_ptr<Executor> make_multi_gpu_executor(int gpus, bool ranks_on_one_gpu, int device = 0);

}  // namespace apsp::harness
