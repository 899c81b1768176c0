// What a solve starts from: a graph's edges (apsp reads them from a file), or its adjacency
// matrix already in memory, on the host or on the device (the Python module's arrays). Each
// solve builds its own matrix from it where it runs (on the device, on the host, into the
// ranks' row blocks, in 64 bits), so a matrix given is never turned into a list of edges on
// the way; only the certificate and the next hops read edges, listed from it when they ask.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/dist_matrix.hpp"

namespace apsp::harness {

class SolveInput {
 public:
  SolveInput() = default;
  // A graph's edges: duplicates keep their smallest weight, self loops never beat d[i][i] = 0.
  explicit SolveInput(EdgeList graph);
  // An n x n adjacency matrix held by the caller while the solve runs, rows `stride` entries
  // apart: kInf where there is no edge, 0 on the diagonal, every entry in [0, kInf]. `max_weight`
  // is its largest entry below kInf off the diagonal (what max_edge_weight is for edges), `edges`
  // how many such entries it has (0 when not counted).
  static SolveInput host_matrix(const int32_t* a, int n, size_t stride, int64_t max_weight,
                                size_t edges);
  static SolveInput device_matrix(const int32_t* a, int n, size_t stride, int64_t max_weight);

  int n() const { return n_; }
  int64_t max_weight() const { return max_weight_; }
  bool on_device() const { return kind_ == Kind::kDeviceMatrix; }
  // The edges: the graph's, or the matrix's entries below kInf off the diagonal, listed on the
  // first call. A device matrix's stay on the device: std::runtime_error.
  const EdgeList& edges() const;
  // How many edges: the graph's, or the matrix's count given (0 when it was not counted).
  size_t edge_count() const { return edge_count_; }
  // The file's id of each vertex (EdgeList::ids: a SNAP list's); empty: vertex k is id k, as for
  // every matrix.
  const std::vector<int64_t>& ids() const;

  // Device memory the build needs beside the matrix (the edges' upload; 0 for a matrix).
  uint64_t device_build_bytes() const;
  // d (rows `pitch` apart, pitch x pitch ints, device memory) <- the adjacency matrix in that
  // layout, kPadding outside the n x n corner (harness/measure/matrix_layout.hpp); returns when done.
  void build_on_device(int32_t* d, int pitch, cudaStream_t stream) const {
    build_rows_on_device(d, pitch, 0, pitch, stream);
  }
  // Rows [first_row, first_row + rows) of that matrix into d (row first_row at d): a rank's row
  // block (harness/multigpu/row_partition.hpp), built on its device from the whole edge list.
  void build_rows_on_device(int32_t* d, int pitch, int first_row, int rows,
                            cudaStream_t stream) const;
  // The adjacency matrix on the host, in int32 or in 64 bits (kInf -> kInf64); not of a device
  // matrix (std::runtime_error).
  DistMatrix host_adjacency() const;
  DistMatrix64 host_adjacency64() const;

 private:
  enum class Kind { kEdges, kHostMatrix, kDeviceMatrix };
  Kind kind_ = Kind::kEdges;
  int n_ = 0;
  int64_t max_weight_ = 0;
  const int32_t* matrix_ = nullptr;
  size_t stride_ = 0, edge_count_ = 0;
  // The graph's edges, or those listed from a host matrix on first use; shared by the copies of
  // this input (the Solver's state holds one), so listed once for all of them.
  struct Edges {
    EdgeList list;
    std::once_flag listed;
  };
  std::shared_ptr<Edges> edges_ = std::make_shared<Edges>();
};

}  // namespace apsp::harness
