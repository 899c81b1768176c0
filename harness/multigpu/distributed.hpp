// The distributed blocked Floyd-Warshall over P ranks: each rank owns a block of row tiles
// (harness/multigpu/row_partition.hpp) in the padded layout of the variant it runs, and the
// pivot-row panel of each round goes from its owner to every rank through a Transport
// (harness/multigpu/transport.hpp). The engine knows no variant: a variant that supports it
// declares its tile and the kernels of the engine's products (Variant::multi_gpu,
// variants/multi_gpu.hpp; sm90's: variants/05_sm90_multigpu.cu).
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
// buffer). With the column look-ahead (DistributedConfig::column_ahead, on by default) every rank
// also updates its tiles of column kt + 1 on its side stream and, once panel kt + 1 has landed,
// its pivot column kt + 1 there, so round kt + 1's phase 3 starts without the pivot column's
// bubble (a column of a rank's row tiles is too few blocks to fill the GPU). The rest of phase 3
// runs meanwhile on each rank's main stream, so the broadcast hides behind it. Without look-ahead
// everything runs on the main streams, one step after the other.
// Streams and events: per rank a main stream (everything of the rank's solve but the look-ahead
// work) and a side stream (the look-ahead work and the look-ahead broadcasts); events `freed`
// (main -> side: the buffer to receive into is free), `fork` (main -> side: the rank's pivot
// column is done) and `ready` (side -> main: the next panel has landed, and with the column
// look-ahead the next pivot column is done).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/measure/executor.hpp"
#include "harness/multigpu/round_timeline.hpp"
#include "harness/multigpu/row_partition.hpp"
#include "harness/multigpu/transport.hpp"
#include "variants/multi_gpu.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

// "" when v runs config c on the engine (v declares Variant::multi_gpu and its check accepts c);
// otherwise why not, one line.
std::string distributed_problem(const Variant& v, const Config& c);
// v's config c on the engine; std::invalid_argument with distributed_problem's line when it
// cannot run.
DistributedConfig distributed_config(const Variant& v, const Config& c);
// The row tile of v's config c on the engine (Variant::multi_gpu's tile); std::invalid_argument
// for a variant that declares none.
int distributed_tile(const Variant& v, const Config& c);

// The row blocks and panels of one partition over a transport's ranks, and the solve. Allocates
// exactly p.bytes_per_rank(r) on each local rank's device (its row block, two panel buffers and
// two column panels).
class DistributedSolver {
 public:
  DistributedSolver(Transport& transport, const Partition& p);
  ~DistributedSolver();
  DistributedSolver(const DistributedSolver&) = delete;
  DistributedSolver& operator=(const DistributedSolver&) = delete;

  const Partition& partition() const { return p_; }
  Transport& transport() const { return t_; }
  // The ranks this process holds (Transport::local_ranks): all, or under a launcher its own; the
  // accessors below take only these (std::logic_error for another process's).
  const std::vector<int>& local_ranks() const { return local_; }
  // Rank r's row block (p.padded_rows(r) rows, p.pitch apart; null for an idle rank) and its main
  // stream: load a block on it, read it back after solve().
  int* block(int r) const;
  cudaStream_t stream(int r) const;
  // Rank r's block as the kernels see it (RowBlock, variants/multi_gpu.hpp).
  RowBlock row_block(int r) const;
  // Enqueues one solve of the blocks in place on the ranks' streams (asynchronous: the ranks'
  // main streams hold its end). Throws std::invalid_argument for a config without kernels or a
  // tile other than the partition's. With a timeline (of partition().tiles rounds), its marks are
  // recorded on the way (round_timeline.hpp).
  void solve(const DistributedConfig& c, RoundTimeline* timeline = nullptr);

 private:
  struct Rank;
  struct Loop;
  Rank& local(int r) const;
  Transport& t_;
  Partition p_;
  std::vector<int> local_;
  std::vector<std::unique_ptr<Rank>> ranks_;  // per rank; null for another process's
};

// f(r) for every local rank r of `solver` that holds rows, each on a thread of its own with its
// device current, so that the devices work at once; rethrows the first exception once all are
// done.
void on_local_ranks(const DistributedSolver& solver, const std::function<void(int rank)>& f);

// A LocalExecutor (harness/measure/executor.hpp) that runs the configs of variants that declare
// Variant::multi_gpu on the distributed engine over `t`'s ranks: the harness's Sampler
// (verification, sampling) drives it like the one-GPU executor.
//   load():    keeps a host copy of the input (the row partition depends on the config's tile);
//   reserve(): the partition at the config's tile, its blocks, and a pristine device copy per rank
//              where it fits in the rank device's free memory beside the solve;
//   restore(): lays the input out into the ranks' blocks (from the pristine copies, else from the
//              host); flush_l2(): every device's L2, once;
//   clock():   times one solve across the local ranks: every local rank's stream waited for (the
//              restore and flush untimed), the first's start event, every other's main stream
//              waits for it, and the stop is recorded on the first after every main stream is
//              done; under a launcher the processes meet before the start and each takes the
//              slowest process's time, so that their samplers decide alike;
//   output():  gathers the blocks into a host DistMatrix (under a launcher, in every process);
//              certify(): each rank its rows, on its device (rank_certificate.hpp);
//   no one stream: a CUDA-graph measurement times plain solves, a phase measurement gives zeros;
//   device_memory(): solve_bytes = the partition's max_bytes_per_rank(), peak_bytes = the most
//              any rank holds (its block, panels, pristine copy and its device's L2 flush
//              buffer); per rank, so the single-device transport's one GPU holds P times that.
// Under a launcher (one process per GPU, Transport::local_ranks) every process makes the same
// calls in the same order, each on its own rank: a collective executor.
// A variant without Variant::multi_gpu, or a config it refuses: std::invalid_argument.
std::unique_ptr<Executor> make_distributed_executor(std::unique_ptr<Transport> t);
// Over `gpus` ranks of the transport registered as `transport` (make_transport: "nccl" on GPUs
// 0 .. gpus - 1, or under a launcher this process's rank of its world; "single-device" every rank
// on GPU `device`).
std::unique_ptr<Executor> make_multi_gpu_executor(int gpus, const std::string& transport,
                                                  int device = 0);

}  // namespace apsp::harness
