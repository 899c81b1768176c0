// Every batched GPU variant, every config, against the CPU solve (batch_cpu) byte for byte: the
// mixed batches of tests/support/graph_batch_cases.hpp (every size 0..64, partial warps and
// blocks, 224/225 at the shared-memory band's edge, up to 512; isolated vertices, self loops,
// duplicate and zero-weight edges), hop distances in uint8, short weights in int16, long ones in
// int32, ragged and padded, with the type's own and a chosen unreachable value.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "tests/support/graph_batch_cases.hpp"
#include "tests/support/graph_batch_device.hpp"
#include "variants/batch_variant.hpp"

namespace apsp {
namespace {

struct Case {
  std::string name;
  GraphBatch batch;
  std::optional<int64_t> unreachable;
  bool padded;
};

std::vector<Case> cases() {
  const GraphBatch hops = test::mixed_batch(255, 1, false, 11);
  const GraphBatch short_w = test::mixed_batch(kMaxBatchGraphVertices, 64, true, 12);
  const GraphBatch long_w = test::mixed_batch(300, 1000000, true, 13);
  return {{"hops uint8 ragged", hops, std::nullopt, false},
          {"hops uint8 padded", hops, std::nullopt, true},
          {"hops int16 unreachable 510", hops, 510, false},
          {"weights 0..64 int16 padded, unreachable -1", short_w, -1, true},
          {"weights to 10^6 int32 ragged", long_w, std::nullopt, false},
          {"weights to 10^6 int32 padded, unreachable -1", long_w, -1, true}};
}

// The bytes `v` writes for the case (host memory in, host memory out).
std::vector<char> solve(const BatchVariant& v, const Config& c, const Case& k) {
  const GraphBatch& b = k.batch;
  BatchFacts facts;
  EXPECT_EQ(check_batch(b.view(), &facts), "");
  BatchOutputView out;
  out.type = narrowest_exact_type(longest_possible_distance(facts), k.unreachable);
  out.unreachable = k.unreachable.value_or(default_unreachable(out.type));
  std::vector<int64_t> offsets = ragged_offsets(b.vertex_ptr.data(), b.graphs());
  out.padded_n = k.padded ? facts.max_n + 5 : 0;
  out.pad_value = k.padded ? 3 : 0;
  const size_t elems =
      k.padded ? size_t(b.graphs()) * out.padded_n * out.padded_n : size_t(offsets.back());
  std::vector<char> host(elems * bytes_of(out.type), 0x5a);
  if (v.target == Target::kHost) {
    out.offsets = k.padded ? nullptr : offsets.data();
    out.dist = host.data();
    v.run({b.view(), out, facts.max_n}, c, nullptr, 0);
    return host;
  }
  const test::BatchOnDevice on_device(b);
  const DeviceBuffer<int64_t> offs = test::upload(offsets);
  DeviceBuffer<char> dist(host.size());
  APSP_CUDA_CHECK(cudaMemset(dist.get(), 0x5a, host.size()));
  out.offsets = k.padded ? nullptr : offs.get();
  out.dist = dist.get();
  v.run({on_device.view, out, facts.max_n}, c, nullptr, 0);
  APSP_CUDA_CHECK(cudaDeviceSynchronize());
  APSP_CUDA_CHECK(cudaMemcpy(host.data(), dist.get(), host.size(), cudaMemcpyDeviceToHost));
  return host;
}

TEST(BatchVariants, EqualTheCpuSolveByteForByte) {
  const BatchVariant& cpu = *find_batch_variant("batch_cpu");
  int checked = 0;
  for (const Case& k : cases()) {
    const std::vector<char> want = solve(cpu, {}, k);
    for (const BatchVariant& v : batch_registry()) {
      if (v.target != Target::kDevice) continue;
      for (const Config& c : all_batch_configs(v)) {
        const std::vector<char> got = solve(v, c, k);
        ASSERT_EQ(got.size(), want.size());
        size_t first = 0;
        while (first < got.size() && got[first] == want[first]) ++first;
        EXPECT_EQ(first, got.size()) << v.name << " " << config_name(v.name, c) << " on " << k.name
                                     << ": first differing byte " << first;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 6 * 10);  // batch_simple and batch_shared's nine configs, six cases
}

// An empty batch launches nothing and writes nothing.
TEST(BatchVariants, EmptyBatch) {
  GraphBatch empty;
  for (const BatchVariant& v : batch_registry()) {
    BatchOutputView out{.type = BatchDistType::kU8, .unreachable = 255};
    std::vector<int64_t> offsets{0};
    out.offsets = offsets.data();
    if (v.target == Target::kDevice) {
      auto vp = test::upload(empty.vertex_ptr), ep = test::upload(empty.edge_ptr);
      DeviceBuffer<int64_t> offs = test::upload(offsets);
      out.offsets = offs.get();
      v.run({{0, vp.get(), ep.get(), nullptr, nullptr, nullptr}, out, 0}, v.defaults, nullptr, 0);
      APSP_CUDA_CHECK(cudaDeviceSynchronize());
    } else {
      v.run({empty.view(), out, 0}, v.defaults, nullptr, 0);
    }
  }
}

}  // namespace
}  // namespace apsp
