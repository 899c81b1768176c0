// harness/batch/batch_solve.hpp: check_batch_on_device, the host side: the kernels' record read
// back, and the first fault named as check_batch names it, from the few entries it needs.
#include <fmt/format.h>

#include <stdexcept>

#include "core/cuda_check.hpp"
#include "harness/batch/batch_solve.hpp"

namespace apsp::harness {

namespace {

template <class T>
T read_one(const T* device, cudaStream_t stream) {
  T host{};
  APSP_CUDA_CHECK(cudaMemcpyAsync(&host, device, sizeof(T), cudaMemcpyDeviceToHost, stream));
  APSP_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

// The graph that edge e belongs to: the last g with edge_ptr[g] <= e, by bisection over the
// device's pointers (a handful of reads, only to name a fault).
int64_t graph_of_edge(const GraphBatchView& b, int64_t e, cudaStream_t stream) {
  int64_t lo = 0, hi = b.graphs - 1;
  while (lo < hi) {
    const int64_t mid = (lo + hi + 1) / 2;
    if (read_one(b.edge_ptr + mid, stream) <= e) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

[[noreturn]] void throw_graph_fault(const GraphBatchView& b, int64_t g, cudaStream_t stream) {
  const int64_t vertices[2] = {read_one(b.vertex_ptr + g, stream),
                               read_one(b.vertex_ptr + g + 1, stream)};
  const int64_t edges[2] = {read_one(b.edge_ptr + g, stream), read_one(b.edge_ptr + g + 1, stream)};
  throw std::invalid_argument(graph_fault(g, vertices, edges));
}

[[noreturn]] void throw_edge_fault(const GraphBatchView& b, int64_t e, cudaStream_t stream) {
  const int64_t g = graph_of_edge(b, e, stream);
  const int64_t vertices[2] = {read_one(b.vertex_ptr + g, stream),
                               read_one(b.vertex_ptr + g + 1, stream)};
  const int64_t weight = b.weight ? read_one(b.weight + e, stream) : 1;
  throw std::invalid_argument(
      edge_fault(e, g, vertices, read_one(b.src + e, stream), read_one(b.dst + e, stream), weight));
}

}  // namespace

BatchFacts check_batch_on_device(const GraphBatchView& b, int64_t edges, cudaStream_t stream) {
  if (!b.vertex_ptr || !b.edge_ptr) throw std::invalid_argument("a batch needs its pointers");
  const std::string fault =
      batch_start_fault(read_one(b.vertex_ptr, stream), read_one(b.edge_ptr, stream));
  if (!fault.empty()) throw std::invalid_argument(fault);
  BatchFacts facts;
  facts.vertices = read_one(b.vertex_ptr + b.graphs, stream);
  facts.edges = read_one(b.edge_ptr + b.graphs, stream);
  if (facts.edges != edges) {
    throw std::invalid_argument(
        fmt::format("edge_ptr[{}] is {}, but there are {} edges", b.graphs, facts.edges, edges));
  }
  if (edges > 0 && (!b.src || !b.dst)) {
    throw std::invalid_argument("a batch with edges needs their ends");
  }
  const BatchCheckResult found = run_batch_checks(b, edges, stream);
  if (found.bad_graph >= 0) throw_graph_fault(b, found.bad_graph, stream);
  if (found.bad_edge >= 0) throw_edge_fault(b, found.bad_edge, stream);
  facts.max_n = found.max_n;
  facts.max_weight = edges > 0 ? found.max_weight : 0;
  return facts;
}

}  // namespace apsp::harness
