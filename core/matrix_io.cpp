#include "core/matrix_io.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/console.hpp"

namespace apsp {

const std::vector<const MatrixFormat*>& matrix_formats() {
  static const std::vector<const MatrixFormat*> formats{&text_matrix_format(), &bin_matrix_format(),
                                                        &npy_matrix_format()};
  return formats;
}

const MatrixFormat* parse_matrix_format(std::string_view name) {
  for (const MatrixFormat* f : matrix_formats())
    if (f->name == name) return f;
  return nullptr;
}

std::vector<std::string> matrix_format_names() {
  std::vector<std::string> names;
  for (const MatrixFormat* f : matrix_formats()) names.push_back(f->name);
  return names;
}

std::string matrix_formats_help() {
  std::string help;
  const std::vector<const MatrixFormat*>& formats = matrix_formats();
  for (size_t i = 0; i < formats.size(); ++i) {
    if (i > 0) help += i + 1 == formats.size() ? " or " : ", ";
    help += fmt::format("{} ({})", formats[i]->name, formats[i]->description);
  }
  return help;
}

void write_all(int fd, const char* p, size_t len) {
  while (len > 0) {
    const ssize_t w = ::write(fd, p, len);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("write failed: {}", std::strerror(errno)));
    }
    p += w;
    len -= static_cast<size_t>(w);
  }
}

namespace {

template <typename T>
uint64_t write_raw(const T* rows, int n, int count, int fd, const RowsWritten& rows_written) {
  const size_t row_bytes = static_cast<size_t>(n) * sizeof(T);
  const int chunk =
      static_cast<int>(std::max<size_t>(1, (size_t{64} << 20) / std::max<size_t>(row_bytes, 1)));
  uint64_t bytes = 0;
  for (int r = 0; r < count; r += chunk) {
    const int rows_now = std::min(chunk, count - r);
    write_all(fd, reinterpret_cast<const char*>(rows + static_cast<size_t>(r) * n),
              rows_now * row_bytes);
    bytes += rows_now * row_bytes;
    if (rows_written) rows_written(r + rows_now);
  }
  return bytes;
}

// The header, then `rows` rows of n entries, a band at a time, each by `write_rows`.
template <typename T, typename Band, typename WriteRows>
uint64_t write_bands(const std::string& header, int rows, int n, int band_rows, const Band& band,
                     int fd, WriteRows write_rows, int threads, const RowsWritten& rows_written) {
  write_all(fd, header.data(), header.size());
  uint64_t bytes = header.size();
  for (int first = 0; first < rows; first += band_rows) {
    const int count = std::min(band_rows, rows - first);
    const auto written = [&](int r) {
      if (rows_written) rows_written(first + r);
    };
    const T* data = band(first, count);
    bytes += write_rows(data, n, count, fd, threads, written);
  }
  return bytes;
}

// To standard output ("" or "-") or atomically to a file, with a progress line; `write(fd,
// rows_written)` writes the whole matrix (or the chosen rows), `rows` rows.
template <typename Write>
uint64_t write_output(const std::string& path, int rows_in_all, const std::string& what,
                      Write write) {
  ProgressMeter meter("writing " + what);
  const RowsWritten rows = [&](int written) { meter.update(written, rows_in_all); };
  if (path.empty() || path == "-") return write(STDOUT_FILENO, rows);
  AtomicFile out(path);
  uint64_t bytes = 0;
  try {
    bytes = write(out.fd(), rows);
  } catch (const std::runtime_error& e) {  // the writer's line, which names no file
    throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
  }
  out.commit(/*sync=*/false);  // atomic against a crash of this program, not of the machine
  return bytes;
}

}  // namespace

uint64_t write_raw_rows(const int32_t* rows, int n, int count, int fd, int /*threads*/,
                        const RowsWritten& rows_written) {
  return write_raw(rows, n, count, fd, rows_written);
}

uint64_t write_raw_rows64(const int64_t* rows, int n, int count, int fd, int /*threads*/,
                          const RowsWritten& rows_written) {
  return write_raw(rows, n, count, fd, rows_written);
}

uint64_t write_matrix_bands(int n, int band_rows, const RowBand& band, int fd,
                            const MatrixFormat& format, int threads,
                            const RowsWritten& rows_written) {
  return write_bands<int32_t>(format.header(n), n, n, band_rows, band, fd, format.write_rows,
                              threads, rows_written);
}

uint64_t write_matrix_as(MatrixView d, int fd, const MatrixFormat& format, int threads,
                         const RowsWritten& rows_written) {
  return write_matrix_bands(
      d.n, std::max(d.n, 1), [&](int first, int) { return d.row(first); }, fd, format, threads,
      rows_written);
}

uint64_t write_matrix_output(const std::string& path, int n, int band_rows, const RowBand& band,
                             const MatrixFormat& format, int threads, const std::string& what) {
  return write_output(path, n, what, [&](int fd, const RowsWritten& rows) {
    return write_matrix_bands(n, band_rows, band, fd, format, threads, rows);
  });
}

uint64_t write_matrix_output64(const std::string& path, int n, int band_rows, const RowBand64& band,
                               const MatrixFormat& format, int threads, const std::string& what) {
  return write_output(path, n, what, [&](int fd, const RowsWritten& rows) {
    return write_bands<int64_t>(format.header64(n), n, n, band_rows, band, fd, format.write_rows64,
                                threads, rows);
  });
}

uint64_t write_rows_output(const std::string& path, int rows, int n, int band_rows,
                           const RowBand& band, const MatrixFormat& format, int threads,
                           const std::string& what) {
  return write_output(path, rows, what, [&](int fd, const RowsWritten& written) {
    return write_bands<int32_t>(format.rows_header(rows, n), rows, n, band_rows, band, fd,
                                format.write_rows, threads, written);
  });
}

uint64_t write_rows_output64(const std::string& path, int rows, int n, int band_rows,
                             const RowBand64& band, const MatrixFormat& format, int threads,
                             const std::string& what) {
  return write_output(path, rows, what, [&](int fd, const RowsWritten& written) {
    return write_bands<int64_t>(format.rows_header64(rows, n), rows, n, band_rows, band, fd,
                                format.write_rows64, threads, written);
  });
}

}  // namespace apsp
