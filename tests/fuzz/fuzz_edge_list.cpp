// The edge-list reader (core/edge_list): any bytes either parse into a graph whose every edge
// is in range, or are refused with one InputError line. An accepted graph written back out
// (format_edge_list) reads back the same.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/edge_list.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace apsp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // A fixed bound, not this machine's available memory: the same input must give the same
  // answer on every machine, and a header may not make the fuzzer allocate gigabytes.
  constexpr uint64_t kMaxMatrixBytes = 64u << 20;
  EdgeList g;
  try {
    g = parse_edge_list(text, "fuzz", kMaxMatrixBytes);
  } catch (const InputError& e) {
    fuzz::expect_one_line(e.what());
    return 0;
  }
  fuzz::expect(g.num_vertices >= 1 && matrix_bytes(g.num_vertices) <= kMaxMatrixBytes,
               "accepted a bad V");
  for (const Edge& e : g.edges) {
    fuzz::expect(e.src >= 0 && e.src < g.num_vertices && e.dst >= 0 && e.dst < g.num_vertices,
                 "accepted a vertex out of range");
    fuzz::expect(e.w >= 0 && e.w < kInf, "accepted a weight out of range");
    fuzz::expect(int64_t(g.num_vertices - 1) * e.w < kInf,
                 "accepted a weight whose paths reach kInf");
  }
  const std::string again = format_edge_list(g);
  EdgeList h;
  try {
    h = parse_edge_list(again, "fuzz (written back)", kMaxMatrixBytes);
  } catch (const InputError& e) {
    fuzz::finding("an accepted graph, written back, is refused", e.what());
  }
  fuzz::expect(h.num_vertices == g.num_vertices && h.edges.size() == g.edges.size(),
               "round trip changed the graph");
  for (size_t i = 0; i < g.edges.size(); ++i)
    fuzz::expect(h.edges[i].src == g.edges[i].src && h.edges[i].dst == g.edges[i].dst &&
                     h.edges[i].w == g.edges[i].w,
                 "round trip changed an edge");
  return 0;
}
