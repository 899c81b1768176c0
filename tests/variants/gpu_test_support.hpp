// What the GPU tests of the variants that convert the caller's int32 matrix inside their solve
// (sm90_u16, blocked_i64) share: the sizes, the message of a mismatch, the test names of their
// configs, and the check that such a solve replays as a CUDA graph.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "core/device_buffer.hpp"
#include "core/dist_matrix.hpp"
#include "variants/variant.hpp"

namespace apsp::test {

// APSP_TEST_SIZES=77,100 replaces a test's own sizes (as in test_variants_gpu.cpp).
inline std::vector<int> sizes_or_env(std::vector<int> sizes) {
  if (const char* env = std::getenv("APSP_TEST_SIZES")) {
    sizes.clear();
    std::stringstream ss(env);
    for (std::string item; std::getline(ss, item, ',');) sizes.push_back(std::stoi(item));
  }
  return sizes;
}

inline std::string describe(const Mismatch& m) {
  return std::to_string(m.count) + " elements differ, first d[" + std::to_string(m.i) + "][" +
         std::to_string(m.j) + "] = " + std::to_string(m.got) + ", expected " +
         std::to_string(m.expected);
}

// A config as a GoogleTest name: config_name with every other character than a letter or a
// digit made '_'.
inline std::string test_name(const std::string& variant, const Config& c) {
  std::string s = config_name(variant, c);
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

// apsp_bench --cuda-graph: (v, c)'s solve of `input` (its own buffer allocated and freed on the
// stream) captured once and replayed, twice, from a fresh input, each time equal to `expected`.
// One plain solve first, as the bench verifies before it captures: kernel attributes are set
// outside the capture.
inline void expect_replays_as_cuda_graph(const Variant& v, const Config& c, const DistMatrix& input,
                                         const DistMatrix& expected) {
  CudaStream stream;
  DeviceBuffer<int> d(input.size());
  auto upload = [&] {
    APSP_CUDA_CHECK(cudaMemcpyAsync(d.get(), input.data(), input.bytes(), cudaMemcpyHostToDevice,
                                    stream.get()));
  };
  upload();
  v.run(d.get(), input.n(), c, stream.get(), nullptr);
  stream.synchronize();
  cudaGraph_t graph;
  APSP_CUDA_CHECK(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  v.run(d.get(), input.n(), c, stream.get(), nullptr);
  APSP_CUDA_CHECK(cudaStreamEndCapture(stream.get(), &graph));
  cudaGraphExec_t exec;
  APSP_CUDA_CHECK(cudaGraphInstantiate(&exec, graph,
                                       cudaGraphInstantiateFlagUseNodePriority));  // as the bench
  for (int replay = 0; replay < 2; ++replay) {
    upload();
    APSP_CUDA_CHECK(cudaGraphLaunch(exec, stream.get()));
    DistMatrix got(input.n());
    APSP_CUDA_CHECK(
        cudaMemcpyAsync(got.data(), d.get(), got.bytes(), cudaMemcpyDeviceToHost, stream.get()));
    stream.synchronize();
    EXPECT_FALSE(compare(got, expected)) << config_name(v.name, c) << " replay " << replay << ": "
                                         << describe(compare(got, expected));
  }
  APSP_CUDA_CHECK(cudaGraphExecDestroy(exec));
  APSP_CUDA_CHECK(cudaGraphDestroy(graph));
}

}  // namespace apsp::test
