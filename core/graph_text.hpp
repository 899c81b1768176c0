// What the graph readers of core/graph_formats.hpp share: a cursor over lines and
// whitespace-separated tokens that knows the line and column of each token, so that every fault
// is one InputError "SOURCE:LINE:COLUMN: what"; and the checks every reader applies (the bounds
// of core/edge_list.hpp: V against the memory, weights against kMaxWeight).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/edge_list.hpp"

namespace apsp {

class GraphText {
 public:
  GraphText(std::string_view text, std::string_view source, uint64_t max_matrix_bytes);

  // Moves to the next line that is not blank and whose first non-blank byte is not one of
  // `comments`; false at the end of the text.
  bool next_line(std::string_view comments);
  // The line's next token ("" at its end), and whether the line has none left.
  std::string_view token();
  bool at_end_of_line();
  // The next token as an integer, as a weight (an integer or a real of integral value,
  // 0 <= w <= kMaxWeight), or as a vertex id in [base, base + V), returned 0-based. `what` names the
  // field in faults ("V", "the source vertex").
  int64_t integer(std::string_view what);
  int32_t weight();
  int32_t vertex(int64_t V, int base, std::string_view what);
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
  std::string_view text_, source_, rest_;
  size_t line_start_ = 0, next_ = 0;
  int64_t line_ = 0, column_ = 1;
  MatrixLimit limit_;
  uint64_t max_matrix_bytes_;
  bool limit_known_ = false;
};

}  // namespace apsp
