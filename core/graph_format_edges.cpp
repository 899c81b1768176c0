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
// The format auto-detection falls back on: a text no other format claims is read as this one,
// whose reader says best what is wrong with a file meant as the contest's.
bool looks_like(std::string_view /*text*/) { return true; }

}  // namespace

const GraphFormat& edges_graph_format() {
  static const GraphFormat f{"edges",
                             "the contest's edge list: 'V E', then E lines 'src dst w', 0-based",
                             "", parse, looks_like};
  return f;
}

}  // namespace apsp
