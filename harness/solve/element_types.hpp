// The element types of the arrays harness/solve/array_solve.hpp reads, as C++ types.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "harness/solve/array_solve.hpp"

namespace apsp::harness {

// f(T{}) with T the element type; kFloat16 and kBFloat16 (device arrays only: device_array.cu
// reads them) throw std::invalid_argument.
template <class Fn>
void with_element(Element e, Fn&& f) {
  switch (e) {
    case Element::kBool:
      return f(bool{});
    case Element::kInt8:
      return f(int8_t{});
    case Element::kInt16:
      return f(int16_t{});
    case Element::kInt32:
      return f(int32_t{});
    case Element::kInt64:
      return f(int64_t{});
    case Element::kUInt8:
      return f(uint8_t{});
    case Element::kUInt16:
      return f(uint16_t{});
    case Element::kUInt32:
      return f(uint32_t{});
    case Element::kUInt64:
      return f(uint64_t{});
    case Element::kFloat32:
      return f(float{});
    case Element::kFloat64:
      return f(double{});
    case Element::kFloat16:
    case Element::kBFloat16:
      break;  // read on the device only (device_array.cu)
  }
  throw std::invalid_argument("an element type the solver does not read");
}

}  // namespace apsp::harness
