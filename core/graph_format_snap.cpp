// SNAP-style edge lists (and NetworkX's write_edgelist / write_weighted_edgelist): '#' or '%'
// comment lines, no header, one edge 'u v' or 'u v w' a line (weight 1 when absent). Vertex ids
// are any integers, remapped densely to 0..V-1 in the order they first appear, so 0-based,
// 1-based and sparse ids all work.
#include <fmt/format.h>

#include <unordered_map>

#include "core/graph_formats.hpp"
#include "core/graph_text.hpp"

namespace apsp {

namespace {

// The dense id of the next token's vertex, a new one when it was not seen before.
int32_t dense_id(GraphText& t, std::unordered_map<int64_t, int32_t>& ids, int64_t& first_id) {
  const int64_t id = t.integer("vertex id");
  const auto [it, added] = ids.try_emplace(id, static_cast<int32_t>(ids.size()));
  if (added) {
    t.check_vertex_count(static_cast<int64_t>(ids.size()));
    if (ids.size() == 1) first_id = id;
  }
  return it->second;
}

EdgeList parse(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
               std::string* note) {
  GraphText t(text, source, max_matrix_bytes);
  std::unordered_map<int64_t, int32_t> ids;
  int64_t first_id = 0;
  EdgeList g;
  while (t.next_line("#%")) {
    const int32_t u = dense_id(t, ids, first_id);
    const int32_t v = dense_id(t, ids, first_id);
    const int32_t w = t.at_end_of_line() ? 1 : t.weight();
    t.end_of_line("'u v' or 'u v w'");
    g.edges.push_back(Edge{u, v, w});
  }
  if (ids.empty()) t.fail_at_end("no edges: a SNAP edge list names its vertices by its edges");
  g.num_vertices = static_cast<int32_t>(ids.size());
  if (note)
    *note = fmt::format(
        "read a SNAP edge list: {} ids remapped to 0..{} in the order they first appear "
        "(id {} is vertex 0)",
        ids.size(), ids.size() - 1, first_id);
  return g;
}

// Whether a line's tokens are `count` integers (the last may be a real: a weight "3.0").
bool numbers_on_line(GraphText& t, int count) {
  for (int i = 0; i < count; ++i) {
    const std::string_view tok = t.token();
    if (tok.empty() || tok.find_first_not_of("0123456789-+.eE") != std::string_view::npos)
      return false;
  }
  return t.at_end_of_line();
}

// A comment first ('#', '%'), or a first line 'u v w', or two lines 'u v': never the contest
// edge list, whose 'V E' header is followed by lines of three.
bool looks_like(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return false;
  if (text[first] == '#' || text[first] == '%') return true;
  GraphText line(text, "", 1), next(text, "", 1);
  if (!line.next_line("") || !next.next_line("")) return false;
  if (numbers_on_line(line, 3)) return true;
  return numbers_on_line(next, 2) && next.next_line("") && numbers_on_line(next, 2);
}

}  // namespace

const GraphFormat& snap_graph_format() {
  static const GraphFormat f{
      "snap", "SNAP edge list: '#'/'%' comments, 'u v [w]' lines, ids remapped to 0..V-1", "",
      parse, looks_like};
  return f;
}

}  // namespace apsp
