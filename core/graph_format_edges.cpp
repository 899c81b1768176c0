// The contest edge list, read by core/edge_list.
#include "core/graph_formats.hpp"

namespace apsp {

namespace {

EdgeList parse(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
               std::string* /*note*/) {
  return parse_edge_list(text, source, max_matrix_bytes);
}

// The format auto-detection falls back on: the contest's has no signature of its own, so a text
// that starts with no other format's is read as this one, and a malformed one is refused as one.
bool looks_like(std::string_view /*text*/) { return true; }

}  // namespace

const GraphFormat& edges_graph_format() {
  static const GraphFormat f{"edges",
                             "the contest's edge list: 'V E', then E lines 'src dst w', 0-based",
                             {},
                             parse,
                             looks_like};
  return f;
}

}  // namespace apsp
