// The message of the exception `f` throws, "" when it throws none: for tests of one-line refusals.
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace apsp::test {

inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace apsp::test
