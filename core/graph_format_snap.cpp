// SNAP-style edge lists (and NetworkX's write_edgelist / write_weighted_edgelist): '#' or '%'
// comment lines, no header, one edge a line: 'u v', 'u v w' (weight 1 when absent), or NetworkX's
// default 'u v {'weight': 3}' (a Python dict of the edge's data; weight 1 when it has no
// 'weight', as NetworkX's own default). Vertex ids are any integers; row k is the k-th smallest
// id, so ids 0..V-1 are their own rows (as SciPy and NetworkX index them) and 1-based and sparse
// ids keep their order.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <numeric>
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
      table_[at] = static_cast<int32_t>(order_.size());
    } else {
      const auto [it, added] = others_.try_emplace(id, static_cast<int32_t>(order_.size()));
      if (!added) return {it->second, false};
    }
    order_.push_back(id);
    return {static_cast<int32_t>(order_.size() - 1), true};
  }
  int64_t size() const { return static_cast<int64_t>(order_.size()); }
  // The id of each dense id.
  const std::vector<int64_t>& order() const { return order_; }

 private:
  static constexpr int64_t kTableIds = int64_t{1} << 24;
  std::vector<int32_t> table_;
  std::unordered_map<int64_t, int32_t> others_;
  std::vector<int64_t> order_;
};

// The dense id of the next token's vertex, a new one when it was not seen before.
int32_t dense_id(GraphText& t, DenseIds& ids) {
  const auto [dense, added] = ids.find_or_add(t.integer("vertex id"));
  if (added) t.check_vertex_count(ids.size());
  return dense;
}

// The weight in the rest of a line that starts a Python dict: the subset of literal_eval that
// NetworkX's write_edgelist writes, '{}' or '{'weight': 3, 'color': 'red'}': quoted keys, and
// values that are numbers, quoted strings, True, False or None. The value of 'weight' is a weight
// (an integer or a real of integral value); none means 1.
class EdgeData {
 public:
  explicit EdgeData(GraphText& t) : t_(t) {}

  int32_t weight() {
    int32_t w = 1;
    punctuation('{', "'{'");
    while (!next_is('}')) {
      const std::string_view key = quoted("a key in quotes ('weight')");
      punctuation(':', "':' after the key");
      const std::string_view value = scalar();
      if (key == "weight") w = weight_of(value);  // the last one counts, as in a Python dict
      if (!next_is(',')) break;
      t_.take(1);  // {'weight': 3,} is a dict too
    }
    punctuation('}', "',' or '}' after a value");
    return w;
  }

 private:
  int32_t weight_of(std::string_view value) {
    if (value.front() == '\'' || value.front() == '"')
      t_.fail(
          fmt::format("in the edge's data: the weight must be a number, found {}", shown(value)));
    return t_.weight_of(value);
  }
  bool next_is(char c) {
    const std::string_view rest = t_.rest_of_line();
    return !rest.empty() && rest.front() == c;
  }
  void punctuation(char c, std::string_view expected) {
    const bool found = next_is(c);
    const std::string_view tok = t_.take(std::min<size_t>(t_.rest_of_line().size(), 1));
    if (found) return;
    t_.fail(fmt::format("in the edge's data: expected {}, found {}", expected,
                        tok.empty() ? "the end of the line" : fmt::format("'{}'", shown(tok))));
  }
  // A quoted string, whole; returns what is between the quotes.
  std::string_view quoted(std::string_view expected) {
    const std::string_view rest = t_.rest_of_line();
    if (rest.empty() || (rest.front() != '\'' && rest.front() != '"')) {
      t_.take(rest.empty() ? 0 : 1);
      t_.fail(fmt::format("in the edge's data: expected {}", expected));
    }
    const size_t length = string_length(rest);
    const std::string_view s = t_.take(length == 0 ? 1 : length);
    if (length == 0) t_.fail("in the edge's data: a string without its closing quote");
    return s.substr(1, s.size() - 2);
  }
  // The bytes of the quoted string `rest` starts with, its quotes and escapes included; 0 when
  // the line ends before its closing quote.
  static size_t string_length(std::string_view rest) {
    for (size_t i = 1; i < rest.size(); ++i) {
      if (rest[i] == '\\')
        ++i;
      else if (rest[i] == rest.front())
        return i + 1;
    }
    return 0;
  }
  // A value: a quoted string, or a run of letters, digits and '+-._' (a number, True, None).
  std::string_view scalar() {
    const std::string_view rest = t_.rest_of_line();
    if (!rest.empty() && (rest.front() == '\'' || rest.front() == '"')) {
      const std::string_view s = quoted("a value");
      return std::string_view(s.data() - 1, s.size() + 2);
    }
    size_t n = 0;
    while (n < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[n])) ||
                               std::string_view("+-._").find(rest[n]) != std::string_view::npos))
      ++n;
    if (n == 0) {
      t_.take(rest.empty() ? 0 : 1);
      t_.fail("in the edge's data: expected a number, a string, True, False or None");
    }
    return t_.take(n);
  }
  GraphText& t_;
};

// The line's weight after 'u v': none (1), a number, or NetworkX's dict.
int32_t edge_weight(GraphText& t) {
  if (t.at_end_of_line()) return 1;
  if (t.rest_of_line().front() != '{') return t.weight();
  return EdgeData(t).weight();
}

// Rows in increasing id order: every edge's dense ids renumbered to the rank of their id. `ids`
// gets the id of each row, left empty when they are 0..V-1 (each id its own row).
void sort_ids(const DenseIds& dense, EdgeList& g) {
  const std::vector<int64_t>& order = dense.order();
  std::vector<int32_t> by_id(order.size());
  std::iota(by_id.begin(), by_id.end(), 0);
  std::sort(by_id.begin(), by_id.end(), [&](int32_t a, int32_t b) { return order[a] < order[b]; });
  std::vector<int32_t> row(order.size());
  for (size_t k = 0; k < by_id.size(); ++k) row[by_id[k]] = static_cast<int32_t>(k);
  for (Edge& e : g.edges) e.src = row[e.src], e.dst = row[e.dst];
  const int64_t V = dense.size();
  if (order[by_id.front()] == 0 && order[by_id.back()] == V - 1) return;
  g.ids.resize(order.size());
  for (size_t k = 0; k < by_id.size(); ++k) g.ids[k] = order[by_id[k]];
}

// How the file's ids map to rows, for the user.
std::string ids_note(const EdgeList& g) {
  const int64_t V = g.num_vertices;
  if (g.ids.empty())
    return fmt::format("read a SNAP edge list: ids 0..{} are rows 0..{}", V - 1, V - 1);
  if (g.ids.back() == g.ids.front() + (V - 1))  // distinct and sorted: no overflow
    return fmt::format("read a SNAP edge list: ids {}..{} are rows 0..{} in increasing order",
                       g.ids.front(), g.ids.back(), V - 1);
  return fmt::format(
      "read a SNAP edge list: {} ids from {} to {}, sparse: rows 0..{} are the ids in increasing "
      "order (--row-ids FILE writes them)",
      V, g.ids.front(), g.ids.back(), V - 1);
}

EdgeList parse(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
               std::string* note) {
  GraphText t(text, source, max_matrix_bytes);
  DenseIds ids;
  EdgeList g;
  while (t.next_line("#%")) {
    const int32_t u = dense_id(t, ids);
    const int32_t v = dense_id(t, ids);
    const int32_t w = edge_weight(t);
    t.end_of_line("'u v', 'u v w' or 'u v {'weight': w}'");
    g.edges.push_back(Edge{u, v, w});
  }
  if (ids.size() == 0) t.fail_at_end("no edges: a SNAP edge list names its vertices by its edges");
  g.num_vertices = static_cast<int32_t>(ids.size());
  sort_ids(ids, g);
  if (note) *note = ids_note(g);
  return g;
}

// SNAP's own signature: a comment first, '#' (SNAP's header) or '%' (KONECT's); the '%%' of a
// Matrix Market banner is claimed by mtx before.
bool looks_like(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '#' || text[first] == '%');
}

}  // namespace

const GraphFormat& snap_graph_format() {
  static const GraphFormat f{"snap",
                             "SNAP or NetworkX edge list: '#'/'%' comments, 'u v', 'u v w' or "
                             "'u v {'weight': w}' lines; rows in increasing id order",
                             {".edges", ".edgelist"},
                             parse,
                             looks_like};
  return f;
}

}  // namespace apsp
