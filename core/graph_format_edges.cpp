// The contest edge list, read by core/edge_list (line numbers in its faults, no column).
#include <charconv>

#include "core/graph_formats.hpp"
#include "core/graph_text.hpp"

namespace apsp {

namespace {

EdgeList parse(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
               std::string* /*note*/) {
  return parse_edge_list(text, source, max_matrix_bytes);
}

// A first line of two integers "V E" and then exactly E lines that are not blank.
bool looks_like(std::string_view text) {
  GraphText t(text, "", 1);
  if (!t.next_line("")) return false;
  int64_t header[2] = {0, 0};
  for (int64_t& field : header) {
    const std::string_view tok = t.token();
    auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), field);
    if (tok.empty() || ec != std::errc() || ptr != tok.data() + tok.size()) return false;
  }
  if (!t.at_end_of_line()) return false;
  int64_t lines = 0;
  while (lines <= header[1] && t.next_line("")) ++lines;
  return lines == header[1];
}

}  // namespace

const GraphFormat& edges_graph_format() {
  static const GraphFormat f{"edges",
                             "the contest's edge list: 'V E', then E lines 'src dst w', 0-based",
                             "", parse, looks_like};
  return f;
}

}  // namespace apsp
