// How every program reads an integer it is given (options, config values): std::from_chars, so
// no sign prefix, no spaces, nothing after the digits, then a range, each fault one line.
#pragma once

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "core/console.hpp"

namespace apsp {

// The value of `text` in [lo, hi]; std::invalid_argument "'6x' is not an integer" or "-1 is
// out of range [0, 18446744073709551615]" (a negative number for an unsigned value is out of
// range, not wrapped: --seed -1 gave 18446744073709551615).
template <class T>
T parse_integer(std::string_view text, T lo, T hi) {
  static_assert(std::is_integral_v<T>);
  const auto out_of_range = [&] {
    return std::invalid_argument(fmt::format("{} is out of range [{}, {}]", escaped(text), lo, hi));
  };
  T value{};
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (!text.empty() && stop == end && ec == std::errc::result_out_of_range) throw out_of_range();
  if (text.empty() || stop != end || ec != std::errc()) {
    int64_t negative = 0;  // "-1" for an unsigned T: from_chars stops at the sign
    const auto [s, e] = std::from_chars(text.data(), end, negative);
    if (std::is_unsigned_v<T> && !text.empty() && s == end &&
        (e == std::errc::result_out_of_range || negative < 0))
      throw out_of_range();
    throw std::invalid_argument(fmt::format("'{}' is not an integer", escaped(text)));
  }
  if (value < lo || value > hi) throw out_of_range();
  return value;
}

}  // namespace apsp
