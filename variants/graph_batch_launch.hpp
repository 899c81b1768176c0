// What the batched GPU variants (variants/2*_batch_*.cu) share on the host: the batch and its
// output as the kernels take them (kernels/batch_fw.cuh), and a call per output element type.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "kernels/batch_fw.cuh"
#include "variants/batch_variant.hpp"

namespace apsp {

inline kernels::BatchGraphs kernel_graphs(const GraphBatchView& b) {
  return {b.vertex_ptr, b.edge_ptr, b.src, b.dst, b.weight};
}

template <class T>
kernels::BatchOut<T> kernel_out(const BatchOutputView& o) {
  return {static_cast<T*>(o.dist), o.offsets, o.padded_n, static_cast<T>(o.unreachable),
          static_cast<T>(o.pad_value)};
}

// f(T{}) with T the element type of `type`.
template <class F>
void with_element_type(BatchDistType type, F&& f) {
  switch (type) {
    case BatchDistType::kU8:
      return f(uint8_t{});
    case BatchDistType::kI16:
      return f(int16_t{});
    case BatchDistType::kI32:
      return f(int32_t{});
  }
}

// A grid of `blocks` blocks in x, which CUDA takes up to 2^31 - 1 of.
inline unsigned checked_grid_x(int64_t blocks) {
  if (blocks > INT32_MAX) throw std::invalid_argument("a batch past 2^31 - 1 blocks of a grid");
  return static_cast<unsigned>(blocks);
}

}  // namespace apsp
