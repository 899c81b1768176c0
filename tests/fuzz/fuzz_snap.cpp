// The snap reader (core/graph_format_snap.cpp), on any bytes: tests/fuzz/fuzz_graph_reader.hpp says
// what it asserts.
#include "tests/fuzz/fuzz_graph_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return apsp::fuzz::fuzz_format(apsp::snap_graph_format(), data, size);
}
