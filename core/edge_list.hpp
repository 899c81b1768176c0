// The contest's edge-list format (README, "Edge-list format"): "V E", then E lines "src dst w".
// The reader is strict: every fault is one InputError naming the source, the line and the fault.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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

std::string format_edge_list(const EdgeList& graph);

// Writes the matrix in the output format: n lines of n integers, one space between them, '\n'
// after each line. Rows are formatted by `threads` threads (0: all cores) into large buffers
// and written in order with write(2), task_bytes of output per task (memory stays bounded to
// threads * task_bytes). Throws std::runtime_error on a write error.
// Formatting of one batch overlaps the write(2) of the previous one.
// `rows_written` (optional) is called after each batch with the rows written so far.
void write_matrix(MatrixView d, int fd, int threads = 0, size_t task_bytes = 4u << 20,
                  const std::function<void(int rows_written)>& rows_written = {});
std::string format_matrix(MatrixView d);

// apsp --format: the text above (the contest's), or, for large V, raw binary:
//   bin: the 8 bytes "APSPDST1", V as an int64, then V * V int32, row-major; all little-endian;
//   npy: NumPy's format 1.0, dtype '<i4', shape (V, V), C order: np.load reads it as it is.
// Unreachable is 1073741823 in every format.
enum class MatrixFormat { kText, kBin, kNpy };
std::optional<MatrixFormat> parse_matrix_format(std::string_view name);
std::string matrix_header(MatrixFormat format, int64_t n);  // "" for text
// `rows_written` (if set) is called as rows are written, with the count so far. Returns the
// bytes written.
uint64_t write_matrix_as(MatrixView d, int fd, MatrixFormat format, int threads = 0,
                         const std::function<void(int)>& rows_written = {});

// The same for an n x n matrix that is not in host memory as a whole: band(first, count) gives
// rows [first, first + count) (count <= band_rows), row-major, valid until the next call (apsp
// copies a device's matrix down a band at a time). Same bytes as write_matrix_as.
using RowBand = std::function<const int32_t*(int first, int count)>;
uint64_t write_matrix_bands(int n, int band_rows, const RowBand& band, int fd, MatrixFormat format, int threads = 0,
                            const std::function<void(int)>& rows_written = {});

}  // namespace apsp
