// Maps a runtime parameter value onto a compiled template instance. The value list is the one
// the variant declares in its Param, so the space and the instances can never drift apart.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace apsp {

template <int... Values>
using IntList = std::integer_sequence<int, Values...>;

template <int... Values>
std::vector<int> to_vector(IntList<Values...>) {
  return {Values...};
}

// Calls f(std::integral_constant<int, V>{}) for the V of the list equal to `value`.
template <int... Values, class F>
void dispatch(IntList<Values...>, int value, const char* param, F&& f) {
  const bool found =
      ((value == Values ? (f(std::integral_constant<int, Values>{}), true) : false) || ...);
  if (!found) {
    throw std::invalid_argument(std::string("no compiled instance for ") + param + "=" +
                                std::to_string(value));
  }
}

}  // namespace apsp
