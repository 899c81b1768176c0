// What the graph-reader fuzz targets (fuzz_edge_list, fuzz_dimacs, fuzz_snap, fuzz_mtx,
// fuzz_graph_input) assert of any bytes: the readers' contract (core/edge_list.hpp,
// core/graph_formats.hpp). A refusal is one InputError line naming the source first. An accepted
// graph has 1 <= V with its matrix inside the bound, every edge in range, every weight in
// [0, kMaxWeight], the file's own ids (where a reader keeps them) one per vertex in increasing
// order, and, written out as the contest's edge list, reads back the same. Distances are not
// bounded here: a solve proves them exact afterwards (core/precision.hpp), so a chain of weights
// of 2^31 - 1 is as good a graph as any.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/graph_formats.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace apsp::fuzz {

// A fixed bound, not this machine's available memory: the same input must give the same answer
// on every machine, and a header may not make the fuzzer allocate gigabytes.
inline constexpr uint64_t kMaxMatrixBytes = 64u << 20;
// The source every target names its bytes by, which each refusal must start with.
inline constexpr std::string_view kSource = "fuzz";

// The file's own id of each vertex, for a reader that renumbers (SNAP): none (the identity) or
// one per vertex, strictly increasing, so that row k is the k-th smallest id.
inline void check_ids(const EdgeList& g) {
  expect(g.ids.empty() || g.ids.size() == static_cast<size_t>(g.num_vertices),
         "accepted a graph whose ids are not one per vertex");
  expect(std::adjacent_find(g.ids.begin(), g.ids.end(), std::greater_equal<>()) == g.ids.end(),
         "accepted a graph whose ids are not strictly increasing");
}

inline bool same_edges(const EdgeList& a, const EdgeList& b) {
  return a.num_vertices == b.num_vertices &&
         std::equal(a.edges.begin(), a.edges.end(), b.edges.begin(), b.edges.end(),
                    [](const Edge& x, const Edge& y) {
                      return x.src == y.src && x.dst == y.dst && x.w == y.w;
                    });
}

inline void check_graph(const EdgeList& g) {
  expect(g.num_vertices >= 1 && matrix_bytes(g.num_vertices) <= kMaxMatrixBytes,
         "accepted a bad V");
  for (const Edge& e : g.edges) {
    expect(e.src >= 0 && e.src < g.num_vertices && e.dst >= 0 && e.dst < g.num_vertices,
           "accepted a vertex out of range");
    expect(e.w >= 0 && e.w <= kMaxWeight, "accepted a weight out of range");
  }
  check_ids(g);
  // The contest edge list holds rows, not ids: what comes back is the same rows and edges.
  EdgeList back;
  try {
    back = parse_edge_list(format_edge_list(g), "fuzz (written back)", kMaxMatrixBytes);
  } catch (const InputError& e) {
    finding("an accepted graph, written as an edge list, is refused", e.what());
  }
  expect(same_edges(back, g), "the edge list written changed the graph");
}

// A note for the user ("read a SNAP edge list: ..."): none, or one printable line.
inline void check_note(std::string_view note) {
  if (!note.empty()) expect_one_line(note);
}

// One reader on the bytes, as they are.
inline int fuzz_format(const GraphFormat& format, const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  EdgeList g;
  std::string note;
  try {
    g = format.parse(text, kSource, kMaxMatrixBytes, &note);
  } catch (const InputError& e) {
    expect_refusal(e.what(), kSource);
    return 0;
  }
  check_note(note);
  check_graph(g);
  return 0;
}

}  // namespace apsp::fuzz
