// What apsp does with a file's bytes before any one reader (core/graph_formats.hpp): gzip
// unpacked by its magic bytes, the format chosen by content, then that reader. gzip is fuzzed here
// with zlib itself uninstrumented (found by the fuzz project's find_package): the code under test
// is how the stream is fed, bounded and its faults worded, not zlib's inflate.
#include <stdexcept>
#include <string>

#include "tests/fuzz/fuzz_graph_reader.hpp"

using namespace apsp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string note;
  try {
    const std::string text = gunzip_if_gzip(std::string(reinterpret_cast<const char*>(data), size),
                                            "fuzz", fuzz::kMaxMatrixBytes, &note);
    const GraphFormat& format = choose_graph_format("auto", "-", text, &note);
    fuzz::check_graph(format.parse(text, "fuzz", fuzz::kMaxMatrixBytes, &note));
  } catch (const InputError& e) {
    fuzz::expect_one_line(e.what());
  }
  return 0;
}
