// What the graph readers of core/graph_formats.hpp share: a cursor over lines and
// whitespace-separated tokens that knows the line and column of each token, so that every fault
// is one InputError "SOURCE:LINE:COLUMN: what"; and the checks every reader applies (the bounds
// of core/edge_list.hpp: V against the memory, weights against kMaxWeight). A UTF-8 byte order
// mark at the start is skipped (editors on Windows write one, and no format means it), so every
// reader takes it alike; columns on line 1 count from after it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/edge_list.hpp"

namespace apsp {

// EF BB BF: UTF-8's byte order mark, and `text` without one at its start.
inline constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
std::string_view skip_byte_order_mark(std::string_view text);

// The usual token, up to 18 decimal digits after an optional '-', read without from_chars
// (which took a quarter of a parse); false for anything else, which from_chars then reads
// with its own faults. 18 digits never overflow int64.
inline bool small_integer(std::string_view tok, int64_t& v) {
  if (tok.empty() || tok.size() > 18) return false;
  const bool negative = tok[0] == '-';
  if (negative && tok.size() == 1) return false;
  int64_t x = 0;
  for (size_t i = negative; i < tok.size(); ++i) {
    const unsigned digit = static_cast<unsigned char>(tok[i]) - unsigned{'0'};
    if (digit > 9) return false;
    x = x * 10 + digit;
  }
  v = negative ? -x : x;
  return true;
}

// A token of the file as a message shows it: at most 24 bytes, non-printable ones escaped (a NUL
// or a control byte must not cut or garble the one line).
std::string shown(std::string_view tok);

class GraphText {
 public:
  GraphText(std::string_view text, std::string_view source, uint64_t max_matrix_bytes);

  // Moves to the next line that is not blank and whose first non-blank byte is not one of
  // `comments`; false at the end of the text.
  bool next_line(std::string_view comments);
  // The line's next token ("" at its end), and whether the line has none left.
  std::string_view token();
  bool at_end_of_line();
  // What is left of the line after blank space, not consumed; and the next n bytes of it
  // consumed as one token, for a field with blank space inside (a Python dict): faults then name
  // its column.
  std::string_view rest_of_line();
  std::string_view take(size_t n);
  // The next token as an integer, as a weight (an integer or a real of integral value,
  // 0 <= w <= kMaxWeight), or as a vertex id in [base, base + V), returned 0-based. `what` names the
  // field in faults ("V", "the source vertex"); "" names none.
  int64_t integer(std::string_view what);
  int32_t weight();
  int32_t vertex(int64_t V, int base, std::string_view what);
  // The same of `tok`, the token last read (token() or take()), whose column faults name.
  int64_t integer_of(std::string_view tok, std::string_view what) const {
    int64_t v = 0;
    return small_integer(tok, v) ? v : integer_beyond_18_digits(tok, what);
  }
  int32_t weight_of(std::string_view tok) const;
  // Fails when the line has more tokens; `expected` says what the line should have been.
  void end_of_line(std::string_view expected);
  // Fails at the last token unless V is a vertex count whose matrix fits.
  void check_vertex_count(int64_t V);

  [[noreturn]] void fail(const std::string& what) const;  // at the last token
  [[noreturn]] void fail_at(int64_t line, int64_t column, const std::string& what) const;
  [[noreturn]] void fail_at_end(const std::string& what) const;  // after the last line
  int64_t line() const { return line_; }
  int64_t column() const { return column_; }

 private:
  // What integer_of leaves to from_chars and its faults.
  int64_t integer_beyond_18_digits(std::string_view tok, std::string_view what) const;

  std::string_view text_, source_, rest_;
  size_t line_start_ = 0, next_ = 0;
  int64_t line_ = 0, column_ = 1;
  MatrixLimit limit_;
  uint64_t max_matrix_bytes_;
  bool limit_known_ = false;
};

}  // namespace apsp
