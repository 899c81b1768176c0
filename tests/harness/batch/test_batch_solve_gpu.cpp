// The batched solve where the batch lies on the GPU: the device check names the host's first
// fault on every malformed batch, finds the same facts, makes the same ragged offsets, and the
// planned solve writes the host's bytes.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "harness/batch/batch_solve.hpp"
#include "tests/harness/batch/plan_fault.hpp"
#include "tests/support/graph_batch_cases.hpp"
#include "tests/support/graph_batch_device.hpp"

namespace apsp::harness {
namespace {

struct OnDevice : test::BatchOnDevice {
  BatchRequest request;
  explicit OnDevice(const GraphBatch& b) : BatchOnDevice(b) {
    request.graphs = view;
    request.on_device = true;
    request.edges = static_cast<int64_t>(b.src.size());
  }
};

TEST(BatchSolveGpu, DeviceCheckNamesTheHostsFirstFault) {
  const GraphBatch good = test::mixed_batch(300, 9, true, 21);
  const std::vector<std::function<void(GraphBatch&)>> breaks = {
      [](GraphBatch& b) { b.vertex_ptr[5] = b.vertex_ptr[4] - 1; },
      [](GraphBatch& b) { b.edge_ptr[7] = b.edge_ptr[6] - 2; },
      [](GraphBatch& b) { b.vertex_ptr[0] = 1; },
      [](GraphBatch& b) { b.dst[40] = b.vertex_ptr.back() + 3; },
      [](GraphBatch& b) { b.src[41] = -1; },
      [](GraphBatch& b) { b.weight[42] = -5; },
      [](GraphBatch& b) { b.weight[50] = -5, b.dst[44] = b.vertex_ptr.back(); },  // both: edge 44
  };
  for (size_t i = 0; i < breaks.size(); ++i) {
    GraphBatch bad = good;
    breaks[i](bad);
    const std::string host = check_batch(bad.view(), nullptr);
    ASSERT_NE(host, "") << "break " << i;
    OnDevice d(bad);
    EXPECT_EQ(plan_fault(d.request), host) << "break " << i;
  }
}

TEST(BatchSolveGpu, SameFactsOffsetsAndBytesAsTheHost) {
  for (const bool weighted : {false, true}) {
    const GraphBatch b = test::mixed_batch(weighted ? 512 : 255, weighted ? 60 : 1, weighted, 22);
    BatchRequest host;
    host.graphs = b.view();
    host.edges = static_cast<int64_t>(b.src.size());
    const BatchPlan hp = plan_batch(host);
    OnDevice d(b);
    const BatchPlan dp = plan_batch(d.request);
    EXPECT_EQ(dp.facts.max_n, hp.facts.max_n);
    EXPECT_EQ(dp.facts.max_weight, hp.facts.max_weight);
    EXPECT_EQ(dp.out.type, hp.out.type);
    ASSERT_EQ(dp.elements, hp.elements);
    std::vector<int64_t> offsets(b.graphs() + 1);
    APSP_CUDA_CHECK(
        cudaMemcpy(offsets.data(), dp.out.offsets, offsets.size() * 8, cudaMemcpyDeviceToHost));
    EXPECT_EQ(offsets, hp.host_offsets);
    const size_t bytes = hp.elements * bytes_of(hp.out.type);
    std::vector<char> want(bytes), got(bytes);
    run_batch(host, hp, want.data());
    DeviceBuffer<char> dist(bytes);
    run_batch(d.request, dp, dist.get());
    APSP_CUDA_CHECK(cudaMemcpy(got.data(), dist.get(), bytes, cudaMemcpyDeviceToHost));
    EXPECT_TRUE(got == want) << (weighted ? "weighted" : "hops");
  }
}

TEST(BatchSolveGpu, DerivesEdgePointersAsTheHostDoes) {
  const GraphBatch b = test::mixed_batch(300, 7, true, 23);
  OnDevice d(b);
  d.request.graphs.edge_ptr = nullptr;
  const BatchPlan p = plan_batch(d.request);
  std::vector<int64_t> ptr(b.graphs() + 1);
  APSP_CUDA_CHECK(
      cudaMemcpy(ptr.data(), p.graphs.edge_ptr, ptr.size() * 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ(ptr, b.edge_ptr);
}

}  // namespace
}  // namespace apsp::harness
