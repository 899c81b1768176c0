// The shortest-path certificate on the device agrees with the host's: right matrices pass,
// planted single-entry errors fail (a zero-weight cycle's too-small value included), on sizes
// that are no multiple of any batch or block.
#include <gtest/gtest.h>

#include "core/device_buffer.hpp"
#include "core/generators.hpp"
#include "core/reference.hpp"
#include "harness/verify/certificate.hpp"

namespace apsp::harness {
namespace {

struct Case {
  EdgeList graph;
  DistMatrix d;
};

Case solved(const GraphSpec& s) {
  Case c{generate(s), {}};
  c.d = DistMatrix::from_edges(c.graph);
  floyd_warshall_blocked(c.d);
  return c;
}

std::string on_device(const DistMatrix& d, const InEdges& in) {
  DeviceBuffer<int> buf(d.size());
  CudaStream stream;
  APSP_CUDA_CHECK(
      cudaMemcpyAsync(buf.get(), d.data(), d.bytes(), cudaMemcpyHostToDevice, stream.get()));
  DeviceCertificate cert(in);
  return cert.check(buf.get(), stream.get());
}

TEST(DeviceCertificate, AgreesWithTheHostOnRightAndPlantedMatrices) {
  GraphSpec zeros;
  zeros.num_vertices = 301;
  zeros.density = 0.03;
  zeros.wmin = 0;
  zeros.wmax = 3;
  zeros.duplicates = 0.5;
  GraphSpec parts;
  parts.kind = GraphKind::kComponents;
  parts.num_vertices = 257;
  parts.components = 3;
  parts.density = 0.02;
  GraphSpec dense;
  dense.num_vertices = 200;
  dense.density = 0.3;
  for (const GraphSpec& s : {zeros, parts, dense}) {
    const Case c = solved(s);
    const InEdges in = InEdges::of(c.graph);
    EXPECT_EQ(on_device(c.d, in), "");
    for (int i : {0, 17, s.num_vertices - 1}) {
      for (int j : {0, 5, s.num_vertices - 2}) {
        const int32_t right = c.d.row(i)[j];
        for (int32_t wrong : {right + 1, right - 1, right == kInf ? 7 : kInf}) {
          if (wrong == right || wrong > kInf) continue;
          DistMatrix d = c.d;
          d.row(i)[j] = wrong;
          const std::string device = on_device(d, in), host = certify_host(d.view(), in);
          EXPECT_NE(device, "") << "d[" << i << "][" << j << "] = " << wrong << " instead of "
                                << right;
          EXPECT_EQ(device, host);  // the same lowest fault, described the same way
        }
      }
    }
  }
}

TEST(DeviceCertificate, KeepsTheHostsEssentialEdgesOnADenseGraph) {
  // Dense, weights [1, 1000]: the row checks run over the few essential edges; the first pass
  // alone catches an entry above its own edge's weight.
  GraphSpec dense;
  dense.num_vertices = 333;
  dense.density = 0.5;
  const Case c = solved(dense);
  const InEdges in = InEdges::of(c.graph);
  EXPECT_EQ(on_device(c.d, in), "");
  const Edge e = c.graph.edges[c.graph.edges.size() / 2];
  DistMatrix d = c.d;
  d.row(e.src)[e.dst] = e.w + 1;
  ASSERT_NE(e.src, e.dst);  // the generator draws no self loops
  EXPECT_EQ(on_device(d, in), certify_host(d.view(), in));
  EXPECT_NE(on_device(d, in), "");
}

TEST(DeviceCertificate, AZeroWeightCycleCannotHoldAValueTooSmall) {
  EdgeList g{3, {{0, 1, 5}, {1, 2, 0}, {2, 1, 0}}};
  DistMatrix d = DistMatrix::from_edges(g);
  floyd_warshall_blocked(d);
  const InEdges in = InEdges::of(g);
  ASSERT_EQ(on_device(d, in), "");
  d.row(0)[1] = d.row(0)[2] = 3;
  EXPECT_NE(on_device(d, in).find("d[0][1] = 3: no path of tight edges reaches it"),
            std::string::npos);
}

}  // namespace
}  // namespace apsp::harness
