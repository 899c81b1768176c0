// The V x V matrices apsp writes (distances, next hops), in the formats of --format. Each format
// is one file (core/matrix_io_<name>.cpp) that defines its header and how it writes rows, and
// one line in matrix_formats(); --format's check and help come from that list, so a new format
// touches nothing else. Every format has an int32 form (unreachable 1073741823) and an int64 form
// for the exact 64-bit path. bin's and npy's int64 forms write every distance exactly, unreachable
// as kInf64 = 2^62 - 1 (which no distance of a proven result reaches: core/precision.hpp); text's
// is the contest's, whatever precision solved the graph: unreachable 1073741823, and a distance
// of 1073741823 or more, which that format cannot hold, saturated to it (count_saturated).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/dist_matrix.hpp"

namespace apsp {

// rows_written(r): called as rows are written, with the count so far (a progress line).
using RowsWritten = std::function<void(int rows_written)>;

struct MatrixFormat {
  std::string name;         // as --format takes it
  std::string description;  // one line for --help
  // What comes before the rows of an n x n matrix ("" for none).
  std::string (*header)(int64_t n);
  // Writes `count` rows of n entries (row-major at `rows`, a band of the matrix) to fd, using
  // `threads` threads where that helps (0: all cores); rows_written counts within the band.
  // Returns the bytes written; throws std::runtime_error on a write error.
  uint64_t (*write_rows)(const int32_t* rows, int n, int count, int fd, int threads,
                         const RowsWritten& rows_written);
  // The same for int64 entries (the 64-bit path).
  std::string (*header64)(int64_t n);
  uint64_t (*write_rows64)(const int64_t* rows, int n, int count, int fd, int threads,
                           const RowsWritten& rows_written);
  // What comes before `rows` int32 rows chosen from an n x n matrix (apsp --sources), in the
  // order given: text none, bin its own magic, npy the shape (rows, n); and before int64 ones.
  std::string (*rows_header)(int64_t rows, int64_t n);
  std::string (*rows_header64)(int64_t rows, int64_t n);
};

// Every format, in the order --help lists them; the first is the default (text).
const std::vector<const MatrixFormat*>& matrix_formats();
// nullptr when no format has this name.
const MatrixFormat* parse_matrix_format(std::string_view name);
std::vector<std::string> matrix_format_names();
// "text (the contest's: ...), bin (...) or npy (...)": the formats for --format's help.
std::string matrix_formats_help();

// How many of the `count` int64 entries at d are finite (below kInf64) and yet at least kInf:
// the distances the text format saturates. Parallel (`threads`, 0: all cores).
uint64_t count_saturated(const int64_t* d, size_t count, int threads = 0);

// The formats, one file each. text: n lines of n integers, one space between them, '\n' after
// each line (the contest's; int64 entries saturated at 1073741823). bin: the 8 bytes "APSPDST1" ("APSPDS64" for int64), V as an int64,
// then V * V int32 (int64), row-major; all little-endian (k rows chosen: "APSPROW1" ("APSPRO64"),
// k and V as int64, then k * V int32 (int64)). npy: NumPy's format 1.0, dtype '<i4' ('<i8'), shape (V, V) (k rows
// chosen: (k, V)), C order: np.load reads it as it is.
const MatrixFormat& text_matrix_format();
const MatrixFormat& bin_matrix_format();
const MatrixFormat& npy_matrix_format();
// NumPy's format 1.0 header of a C-ordered array of dtype `descr` ('<i4', '<i8') and `shape`.
std::string npy_array_header(const char* descr, std::initializer_list<int64_t> shape);

// An n x n matrix that need not be in host memory as a whole: band(first, count) gives rows
// [first, first + count) (count <= band_rows), row-major, valid until the next call (apsp
// copies a device's matrix down a band at a time). Returns the bytes written.
using RowBand = std::function<const int32_t*(int first, int count)>;
uint64_t write_matrix_bands(int n, int band_rows, const RowBand& band, int fd,
                            const MatrixFormat& format, int threads = 0,
                            const RowsWritten& rows_written = {});
// The same for a matrix in host memory.
uint64_t write_matrix_as(MatrixView d, int fd, const MatrixFormat& format, int threads = 0,
                         const RowsWritten& rows_written = {});

// The matrix to `path` ("" or "-": standard output; a file appears only when whole,
// core/atomic_file.hpp), with a progress line "writing <what>". Returns the bytes written.
uint64_t write_matrix_output(const std::string& path, int n, int band_rows, const RowBand& band,
                             const MatrixFormat& format, int threads, const std::string& what);
// The same for an int64 matrix, in the format's int64 form.
using RowBand64 = std::function<const int64_t*(int first, int count)>;
uint64_t write_matrix_output64(const std::string& path, int n, int band_rows, const RowBand64& band,
                               const MatrixFormat& format, int threads, const std::string& what);
// The same for `rows` int32 rows of n entries chosen from an n x n matrix, after the format's
// rows_header: band(first, count) gives the chosen rows [first, first + count).
uint64_t write_rows_output(const std::string& path, int rows, int n, int band_rows,
                           const RowBand& band, const MatrixFormat& format, int threads,
                           const std::string& what);
// The same for int64 rows, in the format's int64 form.
uint64_t write_rows_output64(const std::string& path, int rows, int n, int band_rows,
                             const RowBand64& band, const MatrixFormat& format, int threads,
                             const std::string& what);

// The text format's writer for a whole matrix: rows formatted by `threads` threads (0: all
// cores) into large buffers, written in order with write(2) (into a regular file, each
// buffer at its offset with pwrite(2), from all threads), task_bytes of output per task, so
// memory stays bounded to threads * task_bytes; the formatting of one batch overlaps the write
// of the previous one. rows_written is called after each batch. Throws std::runtime_error on a
// write error.
void write_matrix(MatrixView d, int fd, int threads = 0, size_t task_bytes = 4u << 20,
                  const RowsWritten& rows_written = {});
std::string format_matrix(MatrixView d);

// For the binary formats: the rows as they are in memory, about 64 MB a write (and a progress
// step); and `len` bytes to fd, whatever write(2) takes at a time.
uint64_t write_raw_rows(const int32_t* rows, int n, int count, int fd, int threads,
                        const RowsWritten& rows_written);
uint64_t write_raw_rows64(const int64_t* rows, int n, int count, int fd, int threads,
                          const RowsWritten& rows_written);
void write_all(int fd, const char* p, size_t len);

}  // namespace apsp
