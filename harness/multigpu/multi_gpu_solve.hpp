// A solve over P ranks for a program that wants distances, not times (apsp): each rank's row
// block built on its device (from the graph's edges, so no V x V matrix on the host), one solve
// on the distributed engine (distributed.hpp), the exactness proof's maximum and the certificate
// found on the ranks (rank_certificate.hpp), and the distances read back a band of rows at a
// time, each band copied down from the ranks that own its rows. No pristine copy, no L2 flush,
// no events: those are the bench's (the distributed Executor).
// Under a launcher (one process per GPU, transport.hpp: local_ranks) every process holds its own
// rank and makes the same calls in the same order; process 0 receives the bands.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/device_buffer.hpp"
#include "core/dist_matrix.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/row_partition.hpp"
#include "harness/multigpu/transport.hpp"
#include "harness/verify/certificate.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

// Builds rows [first_row, first_row + rows) of the input matrix into a rank's block (`block`,
// rows `pitch` apart, on the current device, the rank's), padding included
// (harness/solve/solve_input.hpp: SolveInput::build_rows_on_device). Returns when done.
using BuildRows =
    std::function<void(int32_t* block, int pitch, int first_row, int rows, cudaStream_t stream)>;

class MultiGpuSolve {
 public:
  // The band a solve copies down at most, in bytes (one pinned host buffer of that size).
  static constexpr size_t kBandBytes = size_t{64} << 20;
  // v's config c (std::invalid_argument when the engine cannot: distributed_problem) over the
  // ranks of `transport` for a graph of n vertices; build() lays the input out.
  // std::runtime_error (one line) when a device's free memory is short.
  MultiGpuSolve(std::unique_ptr<Transport> transport, const Variant& v, const Config& c, int n,
                size_t band_bytes = kBandBytes);
  // The same over `ranks` ranks of the transport registered as `transport` (make_transport: its
  // devices, or `device` where the ranks share one), built from `input` at once.
  MultiGpuSolve(const std::string& transport, int ranks, const Variant& v, const Config& c,
                const DistMatrix& input, int device = 0, size_t band_bytes = kBandBytes);
  ~MultiGpuSolve();
  // The transport of a solve done with, for the next (its buffers freed first).
  static std::unique_ptr<Transport> release(std::unique_ptr<MultiGpuSolve> s);
  MultiGpuSolve(const MultiGpuSolve&) = delete;
  MultiGpuSolve& operator=(const MultiGpuSolve&) = delete;

  // Every local rank's block built by `rows`, the ranks' devices at once; returns when all are.
  void build(const BuildRows& rows);
  // One solve of what the blocks hold (the input, or its distances, which a solve leaves as they
  // are); returns when every local rank is done. With a timeline, its marks (round_timeline.hpp).
  void run(RoundTimeline* timeline = nullptr);
  // The result's largest entry below kInf over every rank (the exactness proof's number).
  int64_t max_finite();
  // The shortest-path certificate over every rank's rows (rank_certificate.hpp), g the graph's
  // in-edges: "" or the lowest fault, described as one GPU describes it.
  std::string certify(const InEdges& g);
  // Rows [first, first + count) in host memory, n entries each (count <= band_rows()), for
  // write_matrix_bands (core/matrix_io.hpp: RowBand). Valid until the next call. Under a launcher
  // every process calls it with the same rows; process 0 gets them, the others nullptr.
  const int32_t* band(int first, int count);
  int band_rows() const { return band_rows_; }
  // Rank r's rows on its device (transport().device(r)) once run() has returned: the
  // partition's real_rows(r) rows from global row first_row(r), pitch apart; null when idle.
  // For work that reads them where they are (the reductions of harness/solve/summary.hpp).
  const int32_t* rows_of(int r) const { return solver_->block(r); }
  // The engine's config of v's c, for a probe that compares the engine's schedules on it.
  DistributedConfig& engine_config() { return config_; }
  int n() const { return solver_->partition().n; }
  const Partition& partition() const { return solver_->partition(); }
  const Transport& transport() const { return *transport_; }
  Transport& transport() { return *transport_; }

 private:
  void synchronize();
  std::unique_ptr<Transport> transport_;
  DistributedConfig config_;
  std::unique_ptr<DistributedSolver> solver_;
  int band_rows_ = 0;
  std::unique_ptr<PinnedBuffer<int32_t>> host_;
  DeviceBuffer<int32_t> received_;  // process 0's: band rows that other processes send
};

}  // namespace apsp::harness
