// Matrix Market coordinate files (SuiteSparse, scipy.io.mmwrite): the banner
// '%%MatrixMarket matrix coordinate FIELD SYMMETRY', '%' comments, 'M N NNZ' with M = N, then NNZ
// entries 'i j [v]', 1-based: entry (i, j) is an edge i -> j of weight v. FIELD integer, real
// (every value integral) or pattern (weight 1); SYMMETRY general or symmetric (each entry off the
// diagonal is an edge both ways).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "core/graph_formats.hpp"
#include "core/graph_text.hpp"

namespace apsp {

namespace {

constexpr std::string_view kBanner = "%%MatrixMarket";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

struct Banner {
  bool pattern = false, symmetric = false;
};

// The banner line, checked: the kinds of matrix that are graphs with integer weights.
Banner read_banner(GraphText& t) {
  constexpr std::string_view kExpected =
      "expected the banner '%%MatrixMarket matrix coordinate FIELD SYMMETRY' on line 1";
  if (!t.next_line("") || t.line() != 1) t.fail_at(1, 1, std::string(kExpected));
  if (t.token() != kBanner) t.fail(std::string(kExpected));
  if (lower(t.token()) != "matrix") t.fail("expected 'matrix' after %%MatrixMarket");
  if (lower(t.token()) != "coordinate")
    t.fail("only the 'coordinate' format is a graph (a dense 'array' is not read)");
  const std::string field = lower(t.token());
  if (field != "integer" && field != "real" && field != "pattern")
    t.fail("the field must be integer, real (of integral values) or pattern");
  const std::string symmetry = lower(t.token());
  if (symmetry != "general" && symmetry != "symmetric")
    t.fail("the symmetry must be general or symmetric");
  t.end_of_line("'%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
  return Banner{field == "pattern", symmetry == "symmetric"};
}

// The size line 'M N NNZ' of a square matrix; returns V = N, and NNZ in `nnz`.
int64_t read_size(GraphText& t, int64_t& nnz) {
  if (!t.next_line("%")) t.fail_at_end("no size line 'M N NNZ'");
  const int64_t rows = t.integer("M (rows)");
  const int64_t V = t.integer("N (columns)");
  if (rows != V)
    t.fail(fmt::format("the matrix is {} x {}: only a square matrix is a graph", rows, V));
  t.check_vertex_count(V);
  nnz = t.integer("NNZ");
  if (nnz < 0) t.fail(fmt::format("NNZ must be non-negative, got {}", nnz));
  t.end_of_line("'M N NNZ'");
  return V;
}

EdgeList parse(std::string_view text, std::string_view source, uint64_t max_matrix_bytes,
               std::string* /*note*/) {
  GraphText t(text, source, max_matrix_bytes);
  const Banner b = read_banner(t);
  int64_t nnz = 0;
  const int64_t V = read_size(t, nnz);
  EdgeList g;
  g.num_vertices = static_cast<int32_t>(V);
  // A bogus NNZ must not allocate: an entry takes at least 4 bytes ("1 1\n").
  g.edges.reserve(static_cast<size_t>(std::min<int64_t>(nnz, text.size() / 4 + 1)));
  for (int64_t k = 0; k < nnz; ++k) {
    if (!t.next_line("%"))
      t.fail_at_end(fmt::format("end of input after {} of {} entries", k, nnz));
    const int32_t i = t.vertex(V, 1, "row");
    const int32_t j = t.vertex(V, 1, "column");
    const int32_t w = b.pattern ? 1 : t.weight();
    t.end_of_line(b.pattern ? "'i j'" : "'i j value'");
    g.edges.push_back(Edge{i, j, w});
    if (b.symmetric && i != j) g.edges.push_back(Edge{j, i, w});
  }
  if (t.next_line("%")) t.fail(fmt::format("unexpected content after the {} entries", nnz));
  return g;
}

// The banner's '%%' first (a banner with a typo is then refused by this reader, not read as a
// SNAP comment).
bool looks_like(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text.substr(first).starts_with("%%");
}

}  // namespace

const GraphFormat& mtx_graph_format() {
  static const GraphFormat f{
      "mtx",
      "Matrix Market coordinate: integer, real (integral) or pattern; general or symmetric",
      {".mtx"},
      parse,
      looks_like};
  return f;
}

}  // namespace apsp
