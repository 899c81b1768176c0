// A solve over P ranks for a program that wants distances, not times (apsp): the input laid out
// into the ranks' row blocks, one solve on the distributed engine (distributed.hpp), and the
// distances read back a band of rows at a time, each band copied down from the ranks that own
// its rows. No pristine copy, no L2 flush, no events: those are the bench's (the distributed
// Executor).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/device_buffer.hpp"
#include "core/dist_matrix.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/row_partition.hpp"
#include "harness/multigpu/transport.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

// "" when the ranks of partition p fit the free memory of their devices (every rank on a device
// counted there); otherwise one line with the bytes needed and free on the first device short.
std::string device_memory_problem(const Transport& t, const Partition& p);

class MultiGpuSolve {
 public:
  // The band a solve copies down at most, in bytes (one pinned host buffer of that size).
  static constexpr size_t kBandBytes = size_t{64} << 20;
  // `ranks` ranks of the transport registered as `transport` (make_transport: its devices, or
  // `device` where the ranks share one) solving v's config c (std::invalid_argument when the
  // engine cannot: distributed_problem) on `input`, which is laid out into the ranks' blocks here
  // and not read again. std::runtime_error (one line) when a device's free memory is short.
  MultiGpuSolve(const std::string& transport, int ranks, const Variant& v, const Config& c,
                const DistMatrix& input, int device = 0, size_t band_bytes = kBandBytes);
  ~MultiGpuSolve();
  MultiGpuSolve(const MultiGpuSolve&) = delete;
  MultiGpuSolve& operator=(const MultiGpuSolve&) = delete;

  // One solve of what the blocks hold (the input, or its distances, which a solve leaves as they
  // are); returns when every rank is done.
  void run();
  // Rows [first, first + count) in host memory, n entries each (count <= band_rows()), for
  // write_matrix_bands (core/edge_list.hpp: RowBand). Valid until the next call.
  const int32_t* band(int first, int count);
  int band_rows() const { return band_rows_; }
  // Rank r's rows on its device (transport().device(r)) once run() has returned: the
  // partition's real_rows(r) rows from global row first_row(r), pitch apart; null when idle.
  // For work that reads them where they are (the reductions of harness/solve/summary.hpp).
  const int32_t* rows_of(int r) const { return solver_->block(r); }
  int n() const { return solver_->partition().n; }
  const Partition& partition() const { return solver_->partition(); }
  const Transport& transport() const { return *transport_; }

 private:
  void synchronize();
  std::unique_ptr<Transport> transport_;
  DistributedConfig config_;
  std::unique_ptr<DistributedSolver> solver_;
  int band_rows_ = 0;
  std::unique_ptr<PinnedBuffer<int32_t>> host_;
};

}  // namespace apsp::harness
