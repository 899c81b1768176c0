// A batch of tests/support/graph_batch_cases.hpp copied to the GPU, as the batched GPU tests
// take it: the arrays in device memory and a request for the batched solve over them.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/graph_batch.hpp"

namespace apsp::test {

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& host) {
  DeviceBuffer<T> d(std::max<size_t>(host.size(), 1));
  if (!host.empty()) {
    APSP_CUDA_CHECK(cudaMemcpy(d.get(), host.data(), host.size() * sizeof(T), cudaMemcpyDefault));
  }
  return d;
}

struct BatchOnDevice {
  DeviceBuffer<int64_t> vertex_ptr, edge_ptr, src, dst;
  DeviceBuffer<int32_t> weight;
  GraphBatchView view;
  explicit BatchOnDevice(const GraphBatch& b)
      : vertex_ptr(upload(b.vertex_ptr)),
        edge_ptr(upload(b.edge_ptr)),
        src(upload(b.src)),
        dst(upload(b.dst)),
        weight(upload(b.weight)) {
    view = {b.graphs(), vertex_ptr.get(), edge_ptr.get(),
            src.get(),  dst.get(),        b.weighted ? weight.get() : nullptr};
  }
};

}  // namespace apsp::test
