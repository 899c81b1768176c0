// The contest's edge-list format (README, "Edge-list format"): "V E", then E lines "src dst w".
// The reader is strict: every fault is one InputError "SOURCE:LINE:COLUMN: what" (the graph
// readers' tokenizer, core/graph_text.hpp, which also skips a UTF-8 byte order mark).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/dist_matrix.hpp"

namespace apsp {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses a whole buffer. `source` names it in messages ("graph.txt", "<stdin>").
// max_matrix_bytes bounds the V x V int32 matrix the graph needs (0: the memory this process
// may still take, core/memory.hpp: available memory, cgroup and ulimit -v aware).
EdgeList parse_edge_list(std::string_view text, std::string_view source,
                         uint64_t max_matrix_bytes = 0);

// Reads a whole file ("-" is standard input) and parses it.
EdgeList read_edge_list(const std::string& path, uint64_t max_matrix_bytes = 0);

// The whole content of a file, a pipe (apsp <(cmd), /dev/stdin) or standard input ("-");
// InputError when it cannot be read or is a folder.
std::string read_whole_input(const std::string& path);
// The whole content of the file at `path` ("-" is a file of that name), for any reader (the JSON
// files too); InputError "PATH: cannot open: why", "PATH: is a folder, not KIND" or "PATH: read
// error: why".
std::string read_whole_file(const std::string& path, std::string_view kind);

std::string format_edge_list(const EdgeList& graph);

// The bounds every graph reader (core/graph_formats.hpp) applies, each fault one message without
// its place, which the reader adds. The bytes a V x V int32 matrix may take, and where that bound
// comes from (" (cgroup memory.max)"; "" when the caller gave it): max_matrix_bytes, or when
// that is 0 the memory this process may still take.
struct MatrixLimit {
  uint64_t bytes = 0;
  std::string source;
};
MatrixLimit matrix_limit(uint64_t max_matrix_bytes);
// "" when 1 <= V <= INT32_MAX and its matrix fits `limit`; else why not.
std::string vertex_count_fault(int64_t V, const MatrixLimit& limit);
// The largest weight a reader takes: weights are stored as int32. Nothing bounds a graph's
// distances a priori: a solve proves them exact afterwards (core/precision.hpp, exactness_fault),
// and distances beyond int32's range are solved in 64 bits.
inline constexpr int64_t kMaxWeight = INT32_MAX;
// "" when 0 <= w <= kMaxWeight; else the fault ("negative weight -5"), `shown` being the weight
// as the file wrote it.
std::string weight_fault(int64_t w, std::string_view shown);

}  // namespace apsp
