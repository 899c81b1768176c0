// SNAP-style edge lists (and NetworkX's write_edgelist / write_weighted_edgelist): '#' or '%'
// comment lines, no header, one edge 'u v' or 'u v w' a line (weight 1 when absent). Vertex ids
// are any integers, remapped densely to 0..V-1 in the order they first appear, so 0-based,
// 1-based and sparse ids all work.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "core/graph_formats.hpp"
#include "core/graph_text.hpp"

namespace apsp {

namespace {

// Vertex ids to dense ids in the order they first appear. Ids in [0, kTableIds), the usual
// 0- or 1-based ones, go through a table grown as they come (a hash look-up each took most of
// a parse); others (negative, or sparse ids of billions) through a hash map.
class DenseIds {
 public:
  // The dense id of `id`, and whether it is new.
  std::pair<int32_t, bool> find_or_add(int64_t id) {
    if (id >= 0 && id < kTableIds) {
      const size_t at = static_cast<size_t>(id);
      if (at >= table_.size())
        table_.resize(std::min<size_t>(kTableIds, std::max(at + 1, 2 * table_.size())), -1);
      if (table_[at] >= 0) return {table_[at], false};
      table_[at] = static_cast<int32_t>(count_);
    } else {
      const auto [it, added] = others_.try_emplace(id, static_cast<int32_t>(count_));
      if (!added) return {it->second, false};
    }
    if (count_ == 0) first_ = id;
    return {static_cast<int32_t>(count_++), true};
  }
  int64_t size() const { return count_; }
  int64_t first() const { return first_; }

 private:
  static constexpr int64_t kTableIds = int64_t{1} << 24;
  std::vector<int32_t> table_;
  std::unordered_map<int64_t, int32_t> others_;
  int64_t count_ = 0, first_ = 0;
};

// The dense id of the next token's vertex, a new one when it was not seen before.
int32_t dense_id(GraphText& t, DenseIds& ids) {
  const auto [dense, added] = ids.find_or_add(t.integer("vertex id"));
  if (added) t.check_vertex_count(ids.size());
  return dense;
}

EdgeList parse(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
               std::string* note) {
  GraphText t(text, source, max_matrix_bytes);
  DenseIds ids;
  EdgeList g;
  while (t.next_line("#%")) {
    const int32_t u = dense_id(t, ids);
    const int32_t v = dense_id(t, ids);
    const int32_t w = t.at_end_of_line() ? 1 : t.weight();
    t.end_of_line("'u v' or 'u v w'");
    g.edges.push_back(Edge{u, v, w});
  }
  if (ids.size() == 0) t.fail_at_end("no edges: a SNAP edge list names its vertices by its edges");
  g.num_vertices = static_cast<int32_t>(ids.size());
  if (note)
    *note = fmt::format(
        "read a SNAP edge list: {} ids remapped to 0..{} in the order they first appear "
        "(id {} is vertex 0)",
        ids.size(), ids.size() - 1, ids.first());
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
