// The batch's paths on the GPU equal the host's bit for bit, whichever batched GPU variant and
// config solved the distances: the mixed batches of tests/support/graph_batch_cases.hpp (every
// size 0..64, up to 512; isolated vertices, self loops, duplicate and zero-weight edges), hop
// distances and weights, ragged and padded, the predecessors and the edge paths alone and
// together.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "harness/batch/batch_solve.hpp"
#include "tests/support/graph_batch_cases.hpp"
#include "tests/support/graph_batch_device.hpp"

namespace apsp::harness {
namespace {

struct Case {
  std::string name;
  GraphBatch batch;
  std::optional<int64_t> unreachable;
  bool padded;
  bool predecessors;
  int max_dist;
};

std::vector<Case> cases() {
  const GraphBatch hops = test::mixed_batch(255, 1, false, 31);
  const GraphBatch zeros = test::mixed_batch(kMaxBatchGraphVertices, 2, true, 32);
  const GraphBatch long_w = test::mixed_batch(300, 1000000, true, 33);
  return {{"hops ragged, both", hops, std::nullopt, false, true, 5},
          {"hops padded, unreachable 510, both", hops, 510, true, true, 20},
          {"weights 0..2 ragged, predecessors", zeros, -1, false, true, 0},
          {"weights 0..2 padded, edges alone", zeros, std::nullopt, true, false, 3},
          {"weights to 10^6 ragged, both", long_w, -1, false, true, 1}};
}

struct Paths {
  std::vector<int16_t> pred;
  std::vector<int32_t> edges;
};

BatchRequest request_for(const Case& k, const GraphBatchView& graphs) {
  BatchRequest r;
  r.graphs = graphs;
  r.edges = static_cast<int64_t>(k.batch.src.size());
  r.unreachable = k.unreachable;
  if (k.padded) r.padded_n = 0;
  r.max_dist = k.max_dist;
  return r;
}

Paths on_host(const Case& k) {
  const BatchRequest r = request_for(k, k.batch.view());
  const BatchPlan p = plan_batch(r);
  std::vector<char> dist(p.elements * bytes_of(p.out.type));
  Paths out{std::vector<int16_t>(k.predecessors ? p.elements : 0),
            std::vector<int32_t>(p.elements * k.max_dist)};
  run_batch(r, p, dist.data(),
            {k.predecessors ? out.pred.data() : nullptr, k.max_dist ? out.edges.data() : nullptr});
  return out;
}

Paths on_device(const Case& k, const std::string& variant, const Config& c) {
  const test::BatchOnDevice batch(k.batch);
  BatchRequest r = request_for(k, batch.view);
  r.on_device = true;
  r.variant = variant;
  r.config = c;
  const BatchPlan p = plan_batch(r);
  DeviceBuffer<char> dist(std::max<int64_t>(p.elements * bytes_of(p.out.type), 1));
  DeviceBuffer<int16_t> pred(std::max<int64_t>(k.predecessors ? p.elements : 0, 1));
  DeviceBuffer<int32_t> edges(std::max<int64_t>(p.elements * k.max_dist, 1));
  APSP_CUDA_CHECK(cudaMemset(pred.get(), 0x5a, pred.bytes()));  // a stale buffer
  APSP_CUDA_CHECK(cudaMemset(edges.get(), 0x5a, edges.bytes()));
  run_batch(r, p, dist.get(),
            {k.predecessors ? pred.get() : nullptr, k.max_dist ? edges.get() : nullptr});
  APSP_CUDA_CHECK(cudaDeviceSynchronize());
  Paths out{std::vector<int16_t>(k.predecessors ? p.elements : 0),
            std::vector<int32_t>(p.elements * k.max_dist)};
  APSP_CUDA_CHECK(cudaMemcpy(out.pred.data(), pred.get(), out.pred.size() * sizeof(int16_t),
                             cudaMemcpyDeviceToHost));
  APSP_CUDA_CHECK(cudaMemcpy(out.edges.data(), edges.get(), out.edges.size() * sizeof(int32_t),
                             cudaMemcpyDeviceToHost));
  return out;
}

TEST(BatchPathsGpu, EveryVariantGivesTheHostsPaths) {
  int checked = 0;
  for (const Case& k : cases()) {
    const Paths want = on_host(k);
    for (const BatchVariant& v : batch_registry()) {
      if (v.target != Target::kDevice) continue;
      for (const Config& c : all_batch_configs(v)) {
        const Paths got = on_device(k, v.name, c);
        EXPECT_TRUE(got.pred == want.pred) << config_name(v.name, c) << " on " << k.name;
        EXPECT_TRUE(got.edges == want.edges) << config_name(v.name, c) << " on " << k.name;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 5 * 10);  // batch_simple and batch_shared's nine configs, five cases
}

}  // namespace
}  // namespace apsp::harness
