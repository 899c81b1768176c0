// The contest's edge-list reader (core/edge_list, the format "edges"), on any bytes:
// tests/fuzz/fuzz_graph_reader.hpp says what it asserts.
#include "tests/fuzz/fuzz_graph_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return apsp::fuzz::fuzz_format(apsp::edges_graph_format(), data, size);
}
