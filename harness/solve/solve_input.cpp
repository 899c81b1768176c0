#include "harness/solve/solve_input.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/parallel.hpp"
#include "core/precision.hpp"

namespace apsp::harness {

namespace {

// f(i, row) for every row of the host matrix, 64 rows a task, over all cores.
template <class Fn>
void each_row(const int32_t* a, int n, size_t stride, Fn&& f) {
  parallel_for_chunks(n, 64, 0, [&](int i) { f(i, a + static_cast<size_t>(i) * stride); });
}

}  // namespace

SolveInput::SolveInput(EdgeList graph)
    : n_(graph.num_vertices), max_weight_(max_edge_weight(graph)), edge_count_(graph.edges.size()) {
  edges_->list = std::move(graph);
}

SolveInput SolveInput::host_matrix(const int32_t* a, int n, size_t stride, int64_t max_weight,
                                   size_t edges) {
  SolveInput in;
  in.kind_ = Kind::kHostMatrix;
  in.n_ = n;
  in.matrix_ = a;
  in.stride_ = stride;
  in.max_weight_ = max_weight;
  in.edge_count_ = edges;
  in.edges_->list.num_vertices = n;
  return in;
}

SolveInput SolveInput::device_matrix(const int32_t* a, int n, size_t stride, int64_t max_weight) {
  SolveInput in = host_matrix(a, n, stride, max_weight, 0);
  in.kind_ = Kind::kDeviceMatrix;
  return in;
}

const std::vector<int64_t>& SolveInput::ids() const {
  static const std::vector<int64_t> none;
  return kind_ == Kind::kEdges ? edges_->list.ids : none;
}

const EdgeList& SolveInput::edges() const {
  if (kind_ == Kind::kEdges) return edges_->list;
  if (kind_ == Kind::kDeviceMatrix)
    throw std::runtime_error(
        "a matrix in device memory is solved there alone: the certificate, next hops and "
        "predecessors, which read edges, need it on the host");
  // Row by row into lists of their own, then joined in row order: the same list on every run.
  std::call_once(edges_->listed, [&] {
    std::vector<std::vector<Edge>> rows(n_);
    each_row(matrix_, n_, stride_, [&](int i, const int32_t* row) {
      for (int j = 0; j < n_; ++j)
        if (j != i && row[j] < kInf) rows[i].push_back({i, j, row[j]});
    });
    size_t total = 0;
    for (const auto& r : rows) total += r.size();
    std::vector<Edge> all;
    all.reserve(total);
    for (auto& r : rows) all.insert(all.end(), r.begin(), r.end());
    edges_->list.edges = std::move(all);
  });
  return edges_->list;
}

uint64_t SolveInput::device_build_bytes() const {
  if (kind_ != Kind::kEdges) return 0;
  return std::max<uint64_t>(edges_->list.edges.size(), 1) * sizeof(Edge);
}

DistMatrix SolveInput::host_adjacency() const {
  if (kind_ == Kind::kEdges) return DistMatrix::from_edges(edges_->list);
  if (kind_ == Kind::kDeviceMatrix)
    throw std::runtime_error("a matrix in device memory is not solved on the host");
  DistMatrix d(n_);
  each_row(matrix_, n_, stride_,
           [&](int i, const int32_t* row) { std::copy_n(row, n_, d.row(i)); });
  return d;
}

DistMatrix64 SolveInput::host_adjacency64() const {
  if (kind_ == Kind::kEdges) return DistMatrix64::from_edges(edges_->list);
  if (kind_ == Kind::kDeviceMatrix)
    throw std::runtime_error(
        "the distances pass int32's 1073741823, and the 64-bit path solves on the host's copy, "
        "which a matrix in device memory does not have: solve a host array for them");
  DistMatrix64 d(n_);
  each_row(matrix_, n_, stride_, [&](int i, const int32_t* row) {
    std::transform(row, row + n_, d.row(i), [](int32_t x) { return x >= kInf ? kInf64 : x; });
  });
  return d;
}

}  // namespace apsp::harness
