// Integer options for the programs' command lines (CLI11), read by parse_integer
// (core/integer.hpp) instead of CLI11's own conversion, which takes "+5" and " 5" and wrapped
// "--seed -1" to 18446744073709551615. A fault is CLI11's usage error: one line, exit 2.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "core/integer.hpp"

namespace apsp {

template <class T>
CLI::Option* add_integer_option(CLI::App& app, const std::string& name, T& value, T lo, T hi, const std::string& help) {
  return app
      .add_option_function<std::string>(
          name,
          [&value, lo, hi, name](const std::string& text) {
            try {
              value = parse_integer<T>(text, lo, hi);
            } catch (const std::invalid_argument& e) {
              throw CLI::ValidationError(name, e.what());
            }
          },
          help)
      ->type_name(std::is_unsigned_v<T> ? "UINT" : "INT")
      ->default_str(std::to_string(value));
}

}  // namespace apsp
