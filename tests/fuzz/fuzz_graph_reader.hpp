// What the graph-format fuzz targets (fuzz_dimacs, fuzz_snap, fuzz_mtx, fuzz_graph_input) assert
// of any bytes: a refusal is one InputError line; an accepted graph has every edge in range and
// every weight below kInf with no path of V-1 edges reaching it, and, written out as the
// contest's edge list, reads back the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/graph_formats.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace apsp::fuzz {

// A fixed bound, not this machine's available memory: the same input must give the same answer
// on every machine, and a header may not make the fuzzer allocate gigabytes.
inline constexpr uint64_t kMaxMatrixBytes = 64u << 20;

inline void check_graph(const EdgeList& g) {
  expect(g.num_vertices >= 1 && matrix_bytes(g.num_vertices) <= kMaxMatrixBytes,
         "accepted a bad V");
  for (const Edge& e : g.edges) {
    expect(e.src >= 0 && e.src < g.num_vertices && e.dst >= 0 && e.dst < g.num_vertices,
           "accepted a vertex out of range");
    expect(e.w >= 0 && e.w < kInf, "accepted a weight out of range");
    expect(int64_t(g.num_vertices - 1) * e.w < kInf, "accepted a weight whose paths reach kInf");
  }
  EdgeList back;
  try {
    back = parse_edge_list(format_edge_list(g), "fuzz (written back)", kMaxMatrixBytes);
  } catch (const InputError& e) {
    finding("an accepted graph, written as an edge list, is refused", e.what());
  }
  expect(back.num_vertices == g.num_vertices && back.edges.size() == g.edges.size(),
         "the edge list written changed the graph");
  for (size_t i = 0; i < g.edges.size(); ++i)
    expect(back.edges[i].src == g.edges[i].src && back.edges[i].dst == g.edges[i].dst &&
               back.edges[i].w == g.edges[i].w,
           "the edge list written changed an edge");
}

// One reader on the bytes, as they are.
inline int fuzz_format(const GraphFormat& format, const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  EdgeList g;
  std::string note;
  try {
    g = format.parse(text, "fuzz", kMaxMatrixBytes, &note);
  } catch (const InputError& e) {
    expect_one_line(e.what());
    return 0;
  }
  check_graph(g);
  return 0;
}

}  // namespace apsp::fuzz
