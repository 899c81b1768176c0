// The next hops on the device equal the host's, bit for bit, on sizes that are no multiple of a
// block (1, 2, 77, 200, 513) and graphs with unreachable pairs, zero weights, zero-weight cycles,
// long zero-weight chains (many rounds) and duplicate edges; a matrix that is not the distances
// is refused with the host's message. The predecessors (the reversed graph's next hops) too.
#include <gtest/gtest.h>

#include "core/device_buffer.hpp"
#include "core/generators.hpp"
#include "core/reference.hpp"
#include "harness/solve/paths.hpp"

namespace apsp::harness {
namespace {

std::vector<int32_t> on_device(const DistMatrix& d, const OutEdges& g) {
  DeviceBuffer<int32_t> dist(d.size()), next(d.size());
  CudaStream stream;  // every copy on it: the kernels' stream does not wait for the legacy one
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(dist.get(), d.data(), d.bytes(), cudaMemcpyHostToDevice, stream.get()));
  APSP_CUDA_CHECK(cudaMemsetAsync(next.get(), 0x5A, next.bytes(),
                                  stream.get()));  // no entry may be left as it was
  next_hops_device(dist.get(), next.get(), g, stream.get());
  std::vector<int32_t> out(d.size());
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(out.data(), next.get(), d.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return out;
}

std::vector<GraphSpec> specs() {
  std::vector<GraphSpec> out;
  for (int n : {1, 2, 77, 200, 513}) {
    GraphSpec zeros;  // zero weights, cycles of them, duplicates
    zeros.num_vertices = n;
    zeros.seed = static_cast<uint64_t>(n);
    zeros.density = 0.05;
    zeros.wmin = 0;
    zeros.wmax = 2;
    zeros.duplicates = 0.5;
    GraphSpec all_zero = zeros;
    all_zero.wmax = 0;
    all_zero.density = 0.01;
    GraphSpec parts;  // unreachable pairs
    parts.kind = GraphKind::kComponents;
    parts.num_vertices = n;
    parts.components = 3;
    parts.density = 0.04;
    parts.wmin = 0;
    parts.wmax = 5;
    GraphSpec chain;  // one zero-weight chain: as many rounds as vertices
    chain.kind = GraphKind::kChain;
    chain.num_vertices = n;
    chain.wmin = chain.wmax = 0;
    GraphSpec dense;
    dense.num_vertices = n;
    dense.density = 0.3;
    GraphSpec star = zeros;  // zero-weight cycles through the centre
    star.kind = GraphKind::kStar;
    star.wmax = 1;
    out.insert(out.end(), {zeros, all_zero, parts, chain, dense, star});
  }
  return out;
}

TEST(DevicePaths, EqualTheHostsBitForBit) {
  for (const GraphSpec& spec : specs()) {
    const EdgeList graph = generate(spec);
    DistMatrix d = DistMatrix::from_edges(graph);
    floyd_warshall_blocked(d);
    const OutEdges g = OutEdges::of(graph);
    std::vector<int32_t> host(d.size());
    next_hops_host(d.view(), g, host.data());
    const std::vector<int32_t> device = on_device(d, g);
    int64_t differ = 0, first = -1;
    for (size_t i = 0; i < host.size(); ++i) {
      if (host[i] != device[i] && differ++ == 0) first = static_cast<int64_t>(i);
    }
    const int n = d.n();
    EXPECT_EQ(differ, 0) << describe(spec) << " (" << to_string(spec.kind) << ", wmax " << spec.wmax
                         << "): first at [" << first / n << "][" << first % n << "]: device "
                         << device[first] << ", host " << host[first];
  }
}

TEST(DevicePredecessors, EqualTheHostsBitForBit) {
  for (const GraphSpec& spec : specs()) {
    const EdgeList graph = generate(spec);
    DistMatrix d = DistMatrix::from_edges(graph);
    floyd_warshall_blocked(d);
    std::vector<int32_t> host(d.size()), device(d.size(), 12345);
    predecessors_host(d.view(), graph, host.data());
    const DeviceBuffer<int32_t> dist =
        to_device<int32_t>(std::vector<int32_t>(d.data(), d.data() + d.size()));
    predecessors_device(dist.get(), graph, device.data());
    EXPECT_EQ(device, host) << describe(spec) << " (" << to_string(spec.kind) << ")";
  }
}

TEST(DevicePaths, AMatrixThatIsNotTheDistancesIsRefusedAsOnTheHost) {
  const EdgeList g{3, {{0, 1, 5}, {1, 2, 0}, {2, 1, 0}}};
  DistMatrix d = DistMatrix::from_edges(g);
  floyd_warshall_blocked(d);
  d.at(0, 1) = d.at(0, 2) = 3;
  try {
    on_device(d, OutEdges::of(g));
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), open_entry_fault(0, 1, 3));
  }
}

}  // namespace
}  // namespace apsp::harness
