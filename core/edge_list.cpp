#include "core/edge_list.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <future>
#include <iostream>
#include <iterator>
#include <sstream>
#include <thread>
#include <vector>

#include "core/console.hpp"
#include "core/memory.hpp"
#include "core/parallel.hpp"

namespace apsp {

namespace {

// Walks the buffer line by line; each line is split into integer fields.
class LineParser {
 public:
  LineParser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  [[noreturn]] void fail(int64_t line, const std::string& what) const {
    throw InputError(fmt::format("{}:{}: {}", source_, line, what));
  }

  // Next line that is not blank; false at the end of the buffer. Its fields go to `out`.
  bool next_fields(std::vector<int64_t>& out) {
    out.clear();
    while (pos_ < text_.size()) {
      ++line_;
      const size_t end = line_end();
      parse_line(text_.substr(pos_, end - pos_), out);
      pos_ = end < text_.size() ? end + 1 : end;
      if (!out.empty()) return true;
    }
    return false;
  }
  int64_t line() const { return line_; }

 private:
  size_t line_end() const {
    const void* nl = std::memchr(text_.data() + pos_, '\n', text_.size() - pos_);
    return nl ? static_cast<size_t>(static_cast<const char*>(nl) - text_.data()) : text_.size();
  }
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

  void parse_line(std::string_view s, std::vector<int64_t>& out) const {
    size_t i = 0;
    while (true) {
      while (i < s.size() && is_space(s[i])) ++i;
      if (i == s.size()) return;
      size_t j = i;
      while (j < s.size() && !is_space(s[j])) ++j;
      const std::string_view tok = s.substr(i, j - i);
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
      if (ec == std::errc::result_out_of_range) {
        fail(line_, fmt::format("integer out of range: '{}'", shorten(tok)));
      }
      if (ec != std::errc() || ptr != tok.data() + tok.size()) {
        fail(line_, fmt::format("expected an integer, found '{}'", shorten(tok)));
      }
      out.push_back(v);
      i = j;
    }
  }
  // At most 24 bytes, non-printable ones escaped: a NUL must not cut the message, and an
  // invisible byte must show.
  static std::string shorten(std::string_view tok) {
    const bool cut = tok.size() > 24;
    return cut ? escaped(tok.substr(0, 21)) + "..." : escaped(tok);
  }

  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
  int64_t line_ = 0;
};

}  // namespace

namespace {
EdgeList parse_edge_list_unchecked(std::string_view text, std::string_view source, uint64_t max_matrix_bytes);
}  // namespace

// The encoding faults a text editor hides get their own message or a hint.
EdgeList parse_edge_list(std::string_view text, std::string_view source, uint64_t max_matrix_bytes) {
  if (text.starts_with("\xEF\xBB\xBF"))
    throw InputError(fmt::format("{}:1: the file starts with a UTF-8 byte order mark (\\xEF\\xBB\\xBF): "
                                 "save it without one", source));
  try {
    return parse_edge_list_unchecked(text, source, max_matrix_bytes);
  } catch (const InputError& e) {
    const size_t cr = text.find('\r');
    if (cr == std::string_view::npos || text.find('\n') != std::string_view::npos) throw;
    throw InputError(fmt::format("{} (the lines end in CR alone, as on classic Mac OS: convert them to "
                                 "\\n, e.g. tr '\\r' '\\n')", e.what()));
  }
}

namespace {
EdgeList parse_edge_list_unchecked(std::string_view text, std::string_view source,
                                   uint64_t max_matrix_bytes) {
  std::string limit_source;
  if (max_matrix_bytes == 0) {
    const MemoryLimit limit = available_memory();
    max_matrix_bytes = limit.bytes;
    limit_source = " (" + limit.source + ")";
  }
  LineParser p(text, source);
  std::vector<int64_t> f;
  if (!p.next_fields(f)) p.fail(1, "empty input: expected a first line 'V E'");
  if (f.size() != 2) {
    p.fail(p.line(), fmt::format("expected 2 integers 'V E', found {}", f.size()));
  }
  const int64_t V = f[0], E = f[1];
  const int64_t header_line = p.line();
  if (V <= 0) p.fail(header_line, fmt::format("V must be positive, got {}", V));
  if (E < 0) p.fail(header_line, fmt::format("E must be non-negative, got {}", E));
  if (V > INT32_MAX) p.fail(header_line, fmt::format("V = {} is larger than {}", V, INT32_MAX));
  // Checked before anything the size of the graph is allocated.
  const uint64_t need = matrix_bytes(V);
  if (need > max_matrix_bytes) {
    p.fail(header_line, fmt::format("V = {} needs a {} distance matrix ({} bytes), more than the "
                                    "{} available{}",
                                    V, human_bytes(need), need, human_bytes(max_matrix_bytes), limit_source));
  }

  EdgeList g;
  g.num_vertices = static_cast<int32_t>(V);
  // A bogus E must not allocate: an edge line takes at least 6 bytes ("0 0 0\n").
  g.edges.reserve(static_cast<size_t>(std::min<int64_t>(E, text.size() / 6 + 1)));
  int64_t max_w = -1, max_w_line = 0;
  for (int64_t k = 0; k < E; ++k) {
    if (!p.next_fields(f)) {
      p.fail(p.line() + 1, fmt::format("end of input after {} of {} edges", k, E));
    }
    const int64_t line = p.line();
    if (f.size() != 3) {
      p.fail(line, fmt::format("expected 3 integers 'src dst w', found {}", f.size()));
    }
    for (int c = 0; c < 2; ++c) {
      if (f[c] < 0 || f[c] >= V) {
        p.fail(line, fmt::format("vertex {} out of range [0, {})", f[c], V));
      }
    }
    if (f[2] < 0) p.fail(line, fmt::format("negative weight {}", f[2]));
    if (f[2] >= kInf) {
      p.fail(line, fmt::format("weight {} is not below the unreachable value {}", f[2], kInf));
    }
    if (f[2] > max_w) {
      max_w = f[2];
      max_w_line = line;
    }
    g.edges.push_back(
        Edge{static_cast<int32_t>(f[0]), static_cast<int32_t>(f[1]), static_cast<int32_t>(f[2])});
  }
  if (p.next_fields(f)) {
    p.fail(p.line(), fmt::format("unexpected content after the {} edges the header announced", E));
  }
  // A shortest path has at most V-1 edges; if that sum can reach kInf a real distance could
  // be printed as "unreachable".
  if (max_w > 0 && (V - 1) * max_w >= kInf) {
    p.fail(max_w_line,
           fmt::format("weight {} with V = {}: (V-1)*w = {} reaches the unreachable value {}, so "
                       "distances could collide with 'unreachable'",
                       max_w, V, (V - 1) * max_w, kInf));
  }
  return g;
}
}  // namespace

std::string read_whole_input(const std::string& path) {
  const std::string name = path == "-" ? "<stdin>" : path;
  const int fd = path == "-" ? STDIN_FILENO : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(fmt::format("{}: cannot open: {}", name, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() {
      if (fd != STDIN_FILENO) close(fd);
    }
  } closer{fd};
  struct stat st {};
  if (fstat(fd, &st) != 0) throw InputError(fmt::format("{}: cannot read: {}", name, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw InputError(fmt::format("{}: is a folder, not an edge-list file", name));
  // A regular file is read in one piece of its size; a pipe, a terminal or a process
  // substitution (apsp <(cmd), /dev/stdin) is streamed to its end.
  std::string s;
  if (S_ISREG(st.st_mode)) s.reserve(static_cast<size_t>(st.st_size));
  constexpr size_t kChunk = 1 << 20;
  for (;;) {
    const size_t used = s.size();
    s.resize(used + (S_ISREG(st.st_mode) && s.capacity() > used ? s.capacity() - used : kChunk));
    const ssize_t got = ::read(fd, s.data() + used, s.size() - used);
    if (got < 0 && errno == EINTR) {
      s.resize(used);
      continue;
    }
    if (got < 0) throw InputError(fmt::format("{}: read error: {}", name, std::strerror(errno)));
    s.resize(used + static_cast<size_t>(got));
    if (got == 0) return s;
  }
}

EdgeList read_edge_list(const std::string& path, uint64_t max_matrix_bytes) {
  const std::string text = read_whole_input(path);
  return parse_edge_list(text, path == "-" ? "<stdin>" : path, max_matrix_bytes);
}

std::string format_edge_list(const EdgeList& g) {
  std::string s = fmt::format("{} {}\n", g.num_vertices, g.edges.size());
  for (const Edge& e : g.edges) fmt::format_to(std::back_inserter(s), "{} {} {}\n", e.src, e.dst, e.w);
  return s;
}

namespace {

// Appends row i of d in the output format; `out` must have room for n * 11 + 1 bytes.
char* format_row(MatrixView d, int i, char* out) {
  const int32_t* r = d.row(i);
  for (int j = 0; j < d.n; ++j) {
    out = std::to_chars(out, out + 11, r[j]).ptr;
    *out++ = ' ';
  }
  out[-1] = '\n';
  return out;
}

void pwrite_all(int fd, const char* p, size_t len, off_t at) {
  while (len > 0) {
    const ssize_t w = ::pwrite(fd, p, len, at);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("write failed: {}", std::strerror(errno)));
    }
    p += w;
    at += w;
    len -= static_cast<size_t>(w);
  }
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

}  // namespace

namespace {

// write_matrix over the first `rows` rows of d (d.n columns: a band of a larger matrix); the
// bytes written.
uint64_t write_rows(MatrixView d, int rows, int fd, int threads, size_t task_bytes,
                    const std::function<void(int rows_written)>& rows_written) {
  const int n = rows;
  uint64_t bytes = 0;
  if (n == 0) return 0;
  if (threads <= 0) threads = hardware_threads();
  // Each task formats a band of rows; a batch is `threads` bands. Two sets of buffers: while
  // one batch is written in order, the next is formatted.
  const size_t row_max = static_cast<size_t>(d.n) * 11 + 1;
  const int rows_per_task = static_cast<int>(std::max<size_t>(1, task_bytes / row_max));
  std::vector<std::vector<char>> bufs[2] = {std::vector<std::vector<char>>(threads),
                                            std::vector<std::vector<char>>(threads)};
  std::vector<size_t> used[2] = {std::vector<size_t>(threads), std::vector<size_t>(threads)};
  // Into a regular file, each band goes to its own offset with pwrite(2), from all threads at
  // once (one writer thread tops out near 1.3 GB/s into the page cache); pipes get write(2).
  struct stat st {};
  const bool seekable = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  off_t offset = seekable ? lseek(fd, 0, SEEK_CUR) : 0;
  std::future<void> writing;
  int cur = 0;
  for (int first = 0; first < n; first += rows_per_task * threads, cur ^= 1) {
    parallel_for(threads, threads, [&](int t) {
      const int r0 = first + t * rows_per_task;
      const int r1 = std::min(n, r0 + rows_per_task);
      used[cur][t] = 0;
      if (r0 >= r1) return;
      bufs[cur][t].resize(static_cast<size_t>(r1 - r0) * row_max);
      char* p = bufs[cur][t].data();
      for (int i = r0; i < r1; ++i) p = format_row(d, i, p);
      used[cur][t] = static_cast<size_t>(p - bufs[cur][t].data());
    });
    if (writing.valid()) writing.get();  // rethrows a write error
    if (rows_written) rows_written(first);  // the batches before this one are out
    for (int t = 0; t < threads; ++t) bytes += used[cur][t];
    writing = std::async(std::launch::async, [&, c = cur] {
      if (!seekable) {
        for (int t = 0; t < threads; ++t) write_all(fd, bufs[c][t].data(), used[c][t]);
        return;
      }
      std::vector<off_t> at(threads);
      for (int t = 0; t < threads; ++t) {
        at[t] = offset;
        offset += static_cast<off_t>(used[c][t]);
      }
      parallel_for(threads, threads, [&](int t) { pwrite_all(fd, bufs[c][t].data(), used[c][t], at[t]); });
    });
  }
  if (writing.valid()) writing.get();
  if (rows_written) rows_written(n);
  if (seekable) lseek(fd, offset, SEEK_SET);  // as if written sequentially
  return bytes;
}

}  // namespace

void write_matrix(MatrixView d, int fd, int threads, size_t task_bytes,
                  const std::function<void(int rows_written)>& rows_written) {
  write_rows(d, d.n, fd, threads, task_bytes, rows_written);
}

std::string format_matrix(MatrixView d) {
  std::string s;
  std::vector<char> buf(static_cast<size_t>(d.n) * 11 + 1);
  for (int i = 0; i < d.n; ++i) s.append(buf.data(), format_row(d, i, buf.data()));
  return s;
}

}  // namespace apsp

namespace apsp {

std::optional<MatrixFormat> parse_matrix_format(std::string_view name) {
  if (name == "text") return MatrixFormat::kText;
  if (name == "bin") return MatrixFormat::kBin;
  if (name == "npy") return MatrixFormat::kNpy;
  return std::nullopt;
}

std::string matrix_header(MatrixFormat format, int64_t n) {
  static_assert(std::endian::native == std::endian::little, "the binary formats are written as the host holds them");
  if (format == MatrixFormat::kBin) {
    std::string h = "APSPDST1";
    h.append(reinterpret_cast<const char*>(&n), sizeof n);
    return h;
  }
  if (format == MatrixFormat::kNpy) {
    std::string dict = fmt::format("{{'descr': '<i4', 'fortran_order': False, 'shape': ({}, {}), }}", n, n);
    // Magic (6), version (2), length (2), then the dict padded with spaces and ended by '\n' so
    // that the data starts at a multiple of 64 bytes.
    const size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
    dict.append(total - 10 - dict.size() - 1, ' ');
    dict += '\n';
    const uint16_t len = static_cast<uint16_t>(dict.size());
    std::string h("\x93NUMPY\x01\x00", 8);
    h.append(reinterpret_cast<const char*>(&len), 2);
    return h + dict;
  }
  return "";
}

uint64_t write_matrix_bands(int n, int band_rows, const RowBand& band, int fd, MatrixFormat format, int threads,
                            const std::function<void(int)>& rows_written) {
  const std::string header = matrix_header(format, n);
  write_all(fd, header.data(), header.size());
  uint64_t bytes = header.size();
  const size_t row_bytes = static_cast<size_t>(n) * sizeof(int32_t);
  // Binary: the rows as they are in memory, about 64 MB a write (and a progress step).
  const int chunk = static_cast<int>(std::max<size_t>(1, (size_t{64} << 20) / std::max<size_t>(row_bytes, 1)));
  for (int first = 0; first < n; first += band_rows) {
    const int rows = std::min(band_rows, n - first);
    const int32_t* data = band(first, rows);
    if (format == MatrixFormat::kText) {
      const auto written = [&](int r) {
        if (rows_written) rows_written(first + r);
      };
      bytes += write_rows(MatrixView{n, data}, rows, fd, threads, 4u << 20, written);
      continue;
    }
    for (int r = 0; r < rows; r += chunk) {
      const int count = std::min(chunk, rows - r);
      write_all(fd, reinterpret_cast<const char*>(data + static_cast<size_t>(r) * n), count * row_bytes);
      bytes += count * row_bytes;
      if (rows_written) rows_written(first + r + count);
    }
  }
  return bytes;
}

uint64_t write_matrix_as(MatrixView d, int fd, MatrixFormat format, int threads,
                         const std::function<void(int)>& rows_written) {
  return write_matrix_bands(d.n, std::max(d.n, 1), [&](int first, int) { return d.row(first); }, fd, format, threads,
                            rows_written);
}

}  // namespace apsp
