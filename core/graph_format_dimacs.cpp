// DIMACS shortest-path graphs (the 9th Implementation Challenge's .gr): 'c' comment lines, one
// problem line 'p sp V E', then E arc lines 'a u v w' with 1-based vertices.
#include <fmt/format.h>

#include "core/graph_formats.hpp"
#include "core/graph_text.hpp"

namespace apsp {

namespace {

struct Problem {
  int64_t V = 0, E = 0, line = 0;
};

// The lines up to and with the problem line 'p sp V E', checked.
Problem read_problem(GraphText& t) {
  while (t.next_line("")) {
    const std::string_view tok = t.token();
    if (tok == "c") continue;
    if (tok != "p") t.fail(fmt::format("expected the problem line 'p sp V E' before the arcs"));
    if (t.token() != "sp") t.fail("expected 'sp' after 'p': a shortest-path problem");
    Problem p;
    p.line = t.line();
    p.V = t.integer("V");
    t.check_vertex_count(p.V);
    p.E = t.integer("E");
    if (p.E < 0) t.fail(fmt::format("E must be non-negative, got {}", p.E));
    t.end_of_line("'p sp V E'");
    return p;
  }
  t.fail_at_end("no problem line 'p sp V E'");
}

EdgeList parse(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
               std::string* /*note*/) {
  GraphText t(text, source, max_matrix_bytes);
  const Problem p = read_problem(t);
  EdgeList g;
  g.num_vertices = static_cast<int32_t>(p.V);
  // A bogus E must not allocate: an arc line takes at least 8 bytes ("a 1 1 0\n").
  g.edges.reserve(static_cast<size_t>(std::min<int64_t>(p.E, text.size() / 8 + 1)));
  while (t.next_line("")) {
    const std::string_view tok = t.token();
    if (tok == "c") continue;
    if (tok != "a") t.fail("expected an arc line 'a u v w' or a comment line 'c ...'");
    if (static_cast<int64_t>(g.edges.size()) == p.E)
      t.fail(
          fmt::format("more arcs than the {} the problem line (line {}) announced", p.E, p.line));
    const int32_t u = t.vertex(p.V, 1, "vertex");
    const int32_t v = t.vertex(p.V, 1, "vertex");
    g.edges.push_back(Edge{u, v, t.weight()});
    t.end_of_line("'a u v w'");
  }
  if (static_cast<int64_t>(g.edges.size()) != p.E)
    t.fail_at_end(fmt::format("end of input after {} of the {} arcs the problem line announced",
                              g.edges.size(), p.E));
  return g;
}

// DIMACS's own first token: a comment line 'c ...' or the problem line 'p ...' (whose reader then
// says what is wrong with a problem other than 'sp').
bool looks_like(std::string_view text) {
  GraphText t(text, "", 1);
  if (!t.next_line("")) return false;
  const std::string_view tok = t.token();
  return tok == "c" || tok == "p";
}

}  // namespace

const GraphFormat& dimacs_graph_format() {
  static const GraphFormat f{"dimacs",
                             "DIMACS .gr: 'c' comments, 'p sp V E', arcs 'a u v w', 1-based",
                             {".gr"},
                             parse,
                             looks_like};
  return f;
}

}  // namespace apsp
