// What every fuzz target asserts beyond "no crash, no sanitizer report": a refusal is the
// reader's own exception type with a one-line, printable message (the programs print it as the
// user's one line), and what a reader accepts it reads back the same after writing it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace apsp::fuzz {

[[noreturn]] inline void finding(const char* what, std::string_view detail) {
  std::fprintf(stderr, "FUZZ FINDING: %s: %.*s\n", what, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

// One line, no control bytes: a NUL would cut the message, a newline would make it two.
inline void expect_one_line(std::string_view message) {
  if (message.empty()) finding("empty error message", message);
  for (unsigned char c : message)
    if (c < 0x20 || c == 0x7f) finding("error message with a control byte", message);
}

inline void expect(bool holds, const char* what, std::string_view detail = {}) {
  if (!holds) finding(what, detail);
}

// A reader's refusal: one line that names the input first ("SOURCE:LINE:COLUMN: what" or
// "SOURCE: what"), which is how the programs show the user where the fault is.
inline void expect_refusal(std::string_view message, std::string_view source) {
  expect_one_line(message);
  if (!(message.starts_with(source) && message.substr(source.size()).starts_with(':')))
    finding("a refusal that does not name its source first", message);
}

}  // namespace apsp::fuzz
