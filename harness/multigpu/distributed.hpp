// The distributed blocked Floyd-Warshall over P ranks: each rank owns a block of row tiles
// (harness/multigpu/row_partition.hpp) in the padded layout of the variant it runs, and the
// pivot-row panel of each round goes from its owner to every rank through a Transport
// (harness/multigpu/transport.hpp). The engine knows no variant: a variant that supports it
// declares its tile and the kernels of the engine's products (Variant::multi_gpu,
// variants/multi_gpu.hpp; sm90's: variants/05_sm90_multigpu.cu).
//
// Step g (schedule_steps: one round, or where runs_pairs a pair of rounds r and s = r + 1, an odd
// last round alone), prepared once its lines (rows and columns of its rounds) have every earlier
// round:
//   owner(r):    closes pivot r (phase 1), updates its row (phase 2) and copies it into its panel
//                buffer g.buffer (a panel per round of the step), which is broadcast into every
//                other rank's; every rank then updates its tiles of column r from it (phase 2)
//                and copies them, transposed, into its column panel g.buffer (the pivot too);
//   a pair:      owner(s) updates row tile s with round r and then makes panel s as above; every
//                rank updates its column tiles s with round r and, once panel s has landed, its
//                pivot column s (into the column panel's second half);
//   every rank:  phase 3 of the step from the copies: one round's (A its pivot column, B the
//                panel), or the pair's in one pass over k = 2 tile (A both column panels, B both
//                row panels: kernels/distributed.cuh pair_phase3, which updates row and column r
//                with round s too), off the step's final lines (round r's for one round, s's for
//                a pair).
// Look-ahead (on by default): during step g's phase 3 every rank first updates the next step's
// lines with step g (the rows of them it owns, and its tiles of their columns: one launch), on a
// second, high-priority stream, and then prepares the next step there (panels made, sent into
// buffer (g + 1) % 2, pivot columns), while the rest of phase 3 runs on its main stream: so the
// broadcasts and the pivot columns hide behind phase 3, and step g + 1's phase 3 starts at once.
// The side stream forks from the main stream once step g - 1's phase 3 is done (the last to read
// those buffers and to write those lines). Without look-ahead everything runs on the main
// streams, one step after the other.
// Streams and events: per rank a main stream (phase 3 but the look-ahead lines) and a side stream
// (the look-ahead work and its broadcasts); events `fork` (main -> side: step g - 1's phase 3 is
// done) and `ready` (side -> main: the next step is prepared).
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
// Whether a solve of c over p runs pairs of rounds: c.pairs, and p's busiest rank holds at least
// c.pairs_from_row_tiles row tiles.
bool runs_pairs(const DistributedConfig& c, const Partition& p);
// The row tile of v's config c on the engine (Variant::multi_gpu's tile); std::invalid_argument
// for a variant that declares none.
int distributed_tile(const Variant& v, const Config& c);

// "" when the local ranks of partition p fit the free memory of their devices (every rank on a
// device counted there); otherwise one line with the bytes needed and free on the first device
// short.
std::string device_memory_problem(const Transport& t, const Partition& p);

// The row blocks and panels of one partition over a transport's ranks, and the solve. Allocates
// exactly p.bytes_per_rank(r) on each local rank's device (its row block, two panel buffers and
// two column panels, of two panels each).
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
  // Waits for every local rank's main stream (a solve's end, a block's load or read).
  void synchronize() const;
  // Rank r's block as the kernels see it (RowBlock, variants/multi_gpu.hpp).
  RowBlock row_block(int r) const;
  // Enqueues one solve of the blocks in place on the ranks' streams (asynchronous: the ranks'
  // main streams hold its end). Throws std::invalid_argument for a config without kernels, a
  // tile other than the partition's, or pairs at a point without their pass. With a timeline (of
  // partition().tiles rounds), its marks are recorded on the way, one "round" a step
  // (round_timeline.hpp).
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
// pairs_from_row_tiles: DistributedConfig's, for every config it runs (1: pairs at every size).
std::unique_ptr<Executor> make_distributed_executor(
    std::unique_ptr<Transport> t, int pairs_from_row_tiles = DistributedConfig::kPairsFromRowTiles);
// Over `gpus` ranks of the transport registered as `transport` (make_transport: "nccl" on GPUs
// 0 .. gpus - 1, or under a launcher this process's rank of its world; "single-device" every rank
// on GPU `device`).
std::unique_ptr<Executor> make_multi_gpu_executor(int gpus, const std::string& transport,
                                                  int device = 0);

}  // namespace apsp::harness
