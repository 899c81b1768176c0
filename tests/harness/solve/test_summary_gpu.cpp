// The reductions of harness/solve/summary.hpp on the device equal the host's bit for bit: after a
// one-GPU solve (every layout: naive's plain rows, sm90's padded ones, sm90_u16), on a matrix
// whose padding holds garbage, in bands that do not divide V, and over the ranks of a distributed
// solve (3 ranks on one GPU: idle ranks at small V). V = 1, 2, 63, 65, 1000, 1537, on graphs with
// unreachable pairs, zero weights, duplicate edges and self loops. Run alone with
//   build/release/tests/gpu_variant_tests --gtest_filter='SummaryGpu*'   (ctest -R gpu_summary)
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/device_info.hpp"
#include "core/generators.hpp"
#include "core/matrix_io.hpp"
#include "core/reference.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/multi_gpu_solve.hpp"
#include "harness/solve/device_solve.hpp"
#include "harness/solve/summary.hpp"
#include "tests/support/file_contents.hpp"
#include "tests/support/scratch_dir.hpp"

namespace apsp::harness {
namespace {

const int kSizes[] = {1, 2, 63, 65, 1000, 1537};

EdgeList awkward_graph(int n) {
  GraphSpec s;
  s.kind = GraphKind::kComponents;
  s.num_vertices = n;
  s.components = 3;
  s.density = std::min(1.0, 6.0 / n);
  s.wmin = 0;
  s.wmax = 9;
  s.duplicates = 0.5;
  s.seed = 17 * n + 1;
  EdgeList g = generate(s);
  for (int i = 0; i < n; i += 7) g.edges.push_back({i, i, 3});
  if (n >= 2) g.edges.push_back({0, n - 1, 0});  // a zero weight across the components
  return g;
}

struct Reference {
  EdgeList g;
  DistMatrix d;
  VertexReductions r;
};

Reference reference(int n) {
  Reference ref;
  ref.g = awkward_graph(n);
  ref.d = solve_reference(ref.g);
  ref.r = reduce_on_host(ref.d.view());
  return ref;
}

TEST(SummaryGpu, EqualsTheHostAfterEveryOneGpuSolve) {
  const DeviceInfo dev = query_device();
  for (int n : kSizes) {
    const Reference ref = reference(n);
    for (const char* name : {"naive", "sm90", "sm90_u16"}) {
      const Variant& v = *find_variant(name);
      if (!admission_problem(v, n, max_edge_weight(ref.g)).empty() ||
          !v.check(v.defaults, n, dev).empty())
        continue;
      SCOPED_TRACE(std::string(name) + " at V = " + std::to_string(n));
      const SolveInput in(ref.g);
      SolvedDistances where = OnGpu{std::make_unique<DeviceSolve>(in, v, v.defaults)};
      DeviceSolve& solve = *std::get<OnGpu>(where).solve;
      solve.run();
      EXPECT_EQ(reduce_on_device(solve.matrix(), solve.pitch(), n), ref.r);
      for (int band_rows : {1, 7, 64})
        EXPECT_EQ(reduce_on_device(solve.matrix(), solve.pitch(), n, band_rows), ref.r)
            << band_rows;
      EXPECT_EQ(reduce(where, 0), ref.r);
    }
  }
}

TEST(SummaryGpu, ReadsNothingOfThePadding) {
  for (int n : kSizes) {
    const Reference ref = reference(n);
    const int pitch = n + 5;
    const size_t cells = static_cast<size_t>(pitch) * pitch;
    DeviceBuffer<int32_t> d(cells);
    APSP_CUDA_CHECK(cudaMemset(d.get(), 0x11, cells * sizeof(int32_t)));  // finite garbage
    const size_t row = static_cast<size_t>(n) * sizeof(int32_t);
    APSP_CUDA_CHECK(cudaMemcpy2D(d.get(), pitch * sizeof(int32_t), ref.d.data(), row, row, n,
                                 cudaMemcpyHostToDevice));
    EXPECT_EQ(reduce_on_device(d.get(), pitch, n, 13), ref.r) << n;
  }
}

TEST(SummaryGpu, OverTheRanksOfADistributedSolve) {
  const Variant& sm90 = *find_variant("sm90");
  const Config c{{"tile", 64}, {"chunk", 16}, {"per_thread", 4}, {"lookahead", 1}};
  ASSERT_EQ(distributed_problem(sm90, c), "");
  for (int n : kSizes) {
    const Reference ref = reference(n);
    for (int ranks : {1, 3}) {
      SCOPED_TRACE("V = " + std::to_string(n) + " over " + std::to_string(ranks) + " ranks");
      SolvedDistances where =
          OnRanks{std::make_unique<MultiGpuSolve>("single-device", ranks, sm90, c,
                                                  DistMatrix::from_edges(ref.g)),
                  std::nullopt};
      MultiGpuSolve& solve = *std::get<OnRanks>(where).solve;
      solve.run();
      EXPECT_EQ(reduce_on_ranks(solve), ref.r);
      EXPECT_EQ(reduce_on_ranks(solve, 5), ref.r);
      EXPECT_EQ(reduce(where, 0), ref.r);
    }
  }
}

TEST(SummaryGpu, SourceRowsFromTheDeviceAndTheRanks) {
  const int n = 1537;
  const Reference ref = reference(n);
  const std::vector<int> sources{n - 1, 0, 700, 700, 64};
  test::ScratchDir dir;
  SolvedDistances host = OnHost{ref.d};
  write_source_rows(dir.file("want.npy"), sources, host, npy_matrix_format(), 0);
  const std::string want = test::file_contents(dir.file("want.npy"));
  const Variant& sm90 = *find_variant("sm90");
  const SolveInput in(ref.g);
  SolvedDistances one = OnGpu{std::make_unique<DeviceSolve>(in, sm90, sm90.defaults)};
  std::get<OnGpu>(one).solve->run();
  write_source_rows(dir.file("one.npy"), sources, one, npy_matrix_format(), 0);
  EXPECT_EQ(test::file_contents(dir.file("one.npy")), want);
  const Config c{{"tile", 128}, {"chunk", 8}, {"per_thread", 8}, {"lookahead", 1}};
  SolvedDistances over = OnRanks{
      std::make_unique<MultiGpuSolve>("single-device", 3, sm90, c, DistMatrix::from_edges(ref.g)),
      std::nullopt};
  std::get<OnRanks>(over).solve->run();
  write_source_rows(dir.file("ranks.npy"), sources, over, npy_matrix_format(), 0);
  EXPECT_EQ(test::file_contents(dir.file("ranks.npy")), want);
}

}  // namespace
}  // namespace apsp::harness
