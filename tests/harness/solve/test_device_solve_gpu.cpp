// apsp's device path (harness/solve/device_solve.hpp): the adjacency matrix built on the device
// from every kind of input (edges, a matrix on the host or on the device, rows farther apart than
// n) equals the host's bit for bit, padding included; a solve read back in bands that do not
// divide n equals the CPU reference; the certificate runs on the matrix where it is.
#include <gtest/gtest.h>

#include <vector>

#include "core/device_buffer.hpp"
#include "core/generators.hpp"
#include "core/reference.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/solve/device_solve.hpp"

namespace apsp::harness {
namespace {

// Duplicates with other weights, self loops, zero weights and unreachable pairs.
EdgeList awkward_graph(int n) {
  GraphSpec s;
  s.kind = GraphKind::kComponents;
  s.num_vertices = n;
  s.components = 3;
  s.density = 0.05;
  s.wmin = 0;
  s.wmax = 4;
  s.duplicates = 0.5;
  EdgeList g = generate(s);
  for (int i = 0; i < n; i += 7) g.edges.push_back({i, i, 3});  // self loops: d[i][i] stays 0
  return g;
}

// The matrix of g with rows `stride` apart (the entries past n hold junk).
std::vector<int32_t> strided(const DistMatrix& m, size_t stride) {
  std::vector<int32_t> out(stride * m.n(), -7);
  for (int i = 0; i < m.n(); ++i) std::copy_n(m.row(i), m.n(), out.data() + i * stride);
  return out;
}

TEST(DeviceBuild, EqualsTheHostsAdjacencyInEveryLayoutFromEveryInput) {
  for (int n : {1, 77, 300}) {
    const EdgeList g = awkward_graph(n);
    const DistMatrix want = DistMatrix::from_edges(g);
    const std::vector<int32_t> host = strided(want, n + 3);
    const DeviceBuffer<int32_t> device = to_device<int32_t>(host);
    const int64_t w = max_edge_weight(g);
    const SolveInput inputs[] = {SolveInput(g),
                                 SolveInput::host_matrix(host.data(), n, n + 3, w, g.edges.size()),
                                 SolveInput::device_matrix(device.get(), n, n + 3, w)};
    for (int pitch : {n, n + 1, (n + 127) / 128 * 128})
      for (const SolveInput& in : inputs) {
        const size_t cells = static_cast<size_t>(pitch) * pitch;
        DeviceBuffer<int32_t> d(cells);
        CudaStream stream;
        APSP_CUDA_CHECK(cudaMemsetAsync(d.get(), 0x55, cells * sizeof(int32_t), stream.get()));
        in.build_on_device(d.get(), pitch, stream.get());
        std::vector<int32_t> got(cells);
        APSP_CUDA_CHECK(cudaMemcpyAsync(got.data(), d.get(), cells * sizeof(int32_t),
                                        cudaMemcpyDeviceToHost, stream.get()));
        stream.synchronize();
        size_t wrong = 0;
        for (int i = 0; i < pitch; ++i)
          for (int j = 0; j < pitch; ++j)
            wrong += got[static_cast<size_t>(i) * pitch + j] !=
                     (i < n && j < n ? want.at(i, j) : kPadding);
        EXPECT_EQ(wrong, 0u) << "n = " << n << ", pitch = " << pitch << ", input " << &in - inputs;
      }
  }
}

TEST(DeviceSolve, BandsOfTheSolvedMatrixEqualTheCpuReference) {
  const int n = 301;
  const EdgeList g = awkward_graph(n);
  DistMatrix want = DistMatrix::from_edges(g);
  floyd_warshall_blocked(want);
  for (const char* name : {"naive", "sm90", "sm90_u16"}) {  // (weights 0..4: 16 bits are exact)
    const Variant& v = *find_variant(name);
    ASSERT_EQ(admission_problem(v, n, max_edge_weight(g)), "") << name;
    const size_t band_bytes = 13 * n * sizeof(int32_t);  // 13 rows: bands that do not divide 301
    const SolveInput in(g);
    DeviceSolve solve(in, v, v.defaults, band_bytes);
    ASSERT_EQ(solve.band_rows(), 13);
    solve.run();
    EXPECT_EQ(solve.certify(InEdges::of(g)), "") << name;
    for (int first = 0; first < n; first += solve.band_rows()) {
      const int count = std::min(solve.band_rows(), n - first);
      const int32_t* band = solve.band(first, count);
      for (int r = 0; r < count; ++r)
        for (int j = 0; j < n; ++j)
          ASSERT_EQ(band[static_cast<size_t>(r) * n + j], want.at(first + r, j)) << name;
    }
    EXPECT_EQ(solve.at(n - 1, 0), want.at(n - 1, 0));
    std::vector<int32_t> compact(static_cast<size_t>(n) * n);
    APSP_CUDA_CHECK(cudaMemcpy(compact.data(), solve.compact(), compact.size() * sizeof(int32_t),
                               cudaMemcpyDeviceToHost));
    EXPECT_TRUE(std::equal(compact.begin(), compact.end(), want.data())) << name;
  }
}

}  // namespace
}  // namespace apsp::harness
