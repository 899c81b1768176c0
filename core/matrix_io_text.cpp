// text: the contest's output, n lines of n integers, one space between them, '\n' after each.
// Built for speed at large V, where the output dominates: to_chars formatting by all cores
// while the previous batch is written. The contest prints 1073741823 (kInf) for "no path", so
// int64 entries (the 64-bit path's) are written saturated at kInf: unreachable keeps its
// meaning whatever precision solved the graph, and a finite distance of kInf or more, which the
// contest format cannot hold, becomes kInf as the contest's reference saturates it (the solver
// counts those pairs and says so: count_saturated).
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <future>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "core/matrix_io.hpp"
#include "core/parallel.hpp"

namespace apsp {
namespace {

// The most characters an entry takes, with its separator: 10 digits of int32 (entries are
// non-negative, and int64 ones are saturated at kInf).
constexpr size_t kEntryChars = 11;

// Appends the n entries of r in the output format; `out` must have room for n * kEntryChars + 1.
template <typename T>
char* format_row(const T* r, int n, char* out) {
  for (int j = 0; j < n; ++j) {
    const int32_t x = static_cast<int32_t>(std::min<T>(r[j], kInf));
    out = std::to_chars(out, out + kEntryChars, x).ptr;
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

// write_matrix over `rows` rows of `cols` entries at d (a band of a larger matrix); the bytes
// written.
template <typename T>
uint64_t write_rows(const T* d, int cols, int rows, int fd, int threads, size_t task_bytes,
                    const RowsWritten& rows_written) {
  const int n = rows;
  uint64_t bytes = 0;
  if (n == 0) return 0;
  if (threads <= 0) threads = hardware_threads();
  // Each task formats a band of rows; a batch is `threads` bands. Two sets of buffers: while
  // one batch is written in order, the next is formatted.
  const size_t row_max = static_cast<size_t>(cols) * kEntryChars + 1;
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
      for (int i = r0; i < r1; ++i) p = format_row(d + static_cast<size_t>(i) * cols, cols, p);
      used[cur][t] = static_cast<size_t>(p - bufs[cur][t].data());
    });
    if (writing.valid()) writing.get();     // rethrows a write error
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
      parallel_for(threads, threads,
                   [&](int t) { pwrite_all(fd, bufs[c][t].data(), used[c][t], at[t]); });
    });
  }
  if (writing.valid()) writing.get();
  if (rows_written) rows_written(n);
  if (seekable) lseek(fd, offset, SEEK_SET);  // as if written sequentially
  return bytes;
}

std::string no_header(int64_t) { return ""; }
std::string no_rows_header(int64_t, int64_t) { return ""; }

uint64_t write_text_rows(const int32_t* rows, int n, int count, int fd, int threads,
                         const RowsWritten& rows_written) {
  return write_rows(rows, n, count, fd, threads, 4u << 20, rows_written);
}

uint64_t write_text_rows64(const int64_t* rows, int n, int count, int fd, int threads,
                           const RowsWritten& rows_written) {
  return write_rows(rows, n, count, fd, threads, 4u << 20, rows_written);
}

}  // namespace

const MatrixFormat& text_matrix_format() {
  static const MatrixFormat format{
      "text",         "the contest's: V lines of V distances, 1073741823 for no path",
      no_header,      write_text_rows,
      no_header,      write_text_rows64,
      no_rows_header, no_rows_header};
  return format;
}

uint64_t count_saturated(const int64_t* d, size_t count, int threads) {
  if (count == 0) return 0;
  const int tasks =
      static_cast<int>(std::clamp<size_t>(threads > 0 ? threads : hardware_threads(), 1, count));
  std::vector<uint64_t> counts(tasks);
  parallel_for(tasks, tasks, [&](int t) {
    const size_t first = count * t / tasks, last = count * (t + 1) / tasks;
    counts[t] =
        std::count_if(d + first, d + last, [](int64_t x) { return x >= kInf && x < kInf64; });
  });
  return std::accumulate(counts.begin(), counts.end(), uint64_t{0});
}

void write_matrix(MatrixView d, int fd, int threads, size_t task_bytes,
                  const RowsWritten& rows_written) {
  write_rows(d.data, d.n, d.n, fd, threads, task_bytes, rows_written);
}

std::string format_matrix(MatrixView d) {
  std::string s;
  std::vector<char> buf(static_cast<size_t>(d.n) * 11 + 1);
  for (int i = 0; i < d.n; ++i) s.append(buf.data(), format_row(d.row(i), d.n, buf.data()));
  return s;
}

}  // namespace apsp
