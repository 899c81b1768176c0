// What apsp does with a file's bytes (core/graph_formats.hpp, read_graph without the file): gzip
// unpacked by its magic bytes, the format chosen by content, then that reader through parse_graph.
// Beyond tests/fuzz/fuzz_graph_reader.hpp's checks: detection never reinterprets a contest edge
// list, so a text the contest reader accepts is read by auto as that same graph. gzip is fuzzed
// here with zlib itself uninstrumented (found by the fuzz project's find_package): the code under
// test is how the stream is fed, bounded and its faults worded, not zlib's inflate.
#include <optional>
#include <string>

#include "tests/fuzz/fuzz_graph_reader.hpp"

using namespace apsp;

namespace {

std::optional<EdgeList> as_contest_edge_list(std::string_view text) {
  try {
    return edges_graph_format().parse(text, fuzz::kSource, fuzz::kMaxMatrixBytes, nullptr);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text, note;
  try {
    text = gunzip_if_gzip(std::string(reinterpret_cast<const char*>(data), size), fuzz::kSource,
                          fuzz::kMaxMatrixBytes, &note);
  } catch (const InputError& e) {
    fuzz::expect_refusal(e.what(), fuzz::kSource);
    return 0;
  }
  fuzz::check_note(note);
  const std::optional<EdgeList> contest = as_contest_edge_list(text);
  std::string why;
  const GraphFormat& format = choose_graph_format("auto", "-", text, &why);
  EdgeList g;
  try {
    g = parse_graph(format, why, text, fuzz::kSource, fuzz::kMaxMatrixBytes,
                    [](const std::string& line) { fuzz::expect_one_line(line); });
  } catch (const InputError& e) {
    fuzz::expect_refusal(e.what(), fuzz::kSource);
    fuzz::expect(!contest, "auto refused a contest edge list", e.what());
    return 0;
  }
  fuzz::check_graph(g);
  if (contest)
    fuzz::expect(fuzz::same_edges(*contest, g) && format.name == edges_graph_format().name,
                 "auto read a contest edge list as another graph", format.name);
  return 0;
}
