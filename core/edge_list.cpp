#include "core/edge_list.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iterator>
#include <vector>

#include "core/console.hpp"
#include "core/memory.hpp"

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

struct Header {
  int64_t V = 0, E = 0, line = 0;
};

// The first line 'V E', checked, and the matrix it implies against `max_matrix_bytes` (0: the
// memory available here), before anything the size of the graph is allocated.
Header read_header(LineParser& p, uint64_t max_matrix_bytes) {
  std::vector<int64_t> f;
  if (!p.next_fields(f)) p.fail(1, "empty input: expected a first line 'V E'");
  if (f.size() != 2) {
    p.fail(p.line(), fmt::format("expected 2 integers 'V E', found {}", f.size()));
  }
  const Header h{f[0], f[1], p.line()};
  if (h.V <= 0) p.fail(h.line, fmt::format("V must be positive, got {}", h.V));
  if (h.E < 0) p.fail(h.line, fmt::format("E must be non-negative, got {}", h.E));
  if (const std::string fault = vertex_count_fault(h.V, matrix_limit(max_matrix_bytes));
      !fault.empty())
    p.fail(h.line, fault);
  return h;
}

// One edge line 'src dst w', checked against V.
Edge read_edge(LineParser& p, const std::vector<int64_t>& f, int64_t V) {
  const int64_t line = p.line();
  if (f.size() != 3) {
    p.fail(line, fmt::format("expected 3 integers 'src dst w', found {}", f.size()));
  }
  for (int c = 0; c < 2; ++c) {
    if (f[c] < 0 || f[c] >= V) {
      p.fail(line, fmt::format("vertex {} out of range [0, {})", f[c], V));
    }
  }
  if (const std::string fault = weight_fault(f[2], std::to_string(f[2])); !fault.empty())
    p.fail(line, fault);
  return Edge{static_cast<int32_t>(f[0]), static_cast<int32_t>(f[1]), static_cast<int32_t>(f[2])};
}

EdgeList parse_edge_list_unchecked(std::string_view text, std::string_view source,
                                   uint64_t max_matrix_bytes) {
  LineParser p(text, source);
  const auto [V, E, header_line] = read_header(p, max_matrix_bytes);
  EdgeList g;
  g.num_vertices = static_cast<int32_t>(V);
  // A bogus E must not allocate: an edge line takes at least 6 bytes ("0 0 0\n").
  g.edges.reserve(static_cast<size_t>(std::min<int64_t>(E, text.size() / 6 + 1)));
  std::vector<int64_t> f;
  for (int64_t k = 0; k < E; ++k) {
    if (!p.next_fields(f)) {
      p.fail(p.line() + 1, fmt::format("end of input after {} of {} edges", k, E));
    }
    g.edges.push_back(read_edge(p, f, V));
  }
  if (p.next_fields(f)) {
    p.fail(p.line(), fmt::format("unexpected content after the {} edges the header announced", E));
  }
  return g;
}

}  // namespace

MatrixLimit matrix_limit(uint64_t max_matrix_bytes) {
  if (max_matrix_bytes != 0) return {max_matrix_bytes, ""};
  const MemoryLimit limit = available_memory();
  return {limit.bytes, " (" + limit.source + ")"};
}

std::string vertex_count_fault(int64_t V, const MatrixLimit& limit) {
  if (V <= 0) return fmt::format("V must be positive, got {}", V);
  if (V > INT32_MAX) return fmt::format("V = {} is larger than {}", V, INT32_MAX);
  const uint64_t need = matrix_bytes(V);
  if (need <= limit.bytes) return "";
  return fmt::format("V = {} needs a {} distance matrix ({} bytes), more than the {} available{}",
                     V, human_bytes(need), need, human_bytes(limit.bytes), limit.source);
}

std::string weight_fault(int64_t w, std::string_view shown) {
  if (w < 0) return fmt::format("negative weight {}", shown);
  if (w > kMaxWeight)
    return fmt::format("weight {} is above {}, the largest weight read (2^31 - 1)", shown,
                       kMaxWeight);
  return "";
}

// The encoding faults a text editor hides get their own message or a hint.
EdgeList parse_edge_list(std::string_view text, std::string_view source,
                         uint64_t max_matrix_bytes) {
  if (text.starts_with("\xEF\xBB\xBF"))
    throw InputError(
        fmt::format("{}:1: the file starts with a UTF-8 byte order mark (\\xEF\\xBB\\xBF): "
                    "save it without one",
                    source));
  try {
    return parse_edge_list_unchecked(text, source, max_matrix_bytes);
  } catch (const InputError& e) {
    const size_t cr = text.find('\r');
    if (cr == std::string_view::npos || text.find('\n') != std::string_view::npos) throw;
    throw InputError(
        fmt::format("{} (the lines end in CR alone, as on classic Mac OS: convert them to "
                    "\\n, e.g. tr '\\r' '\\n')",
                    e.what()));
  }
}

namespace {

// The rest of what fd holds; `name` and `kind` word the faults ("g.txt: is a folder, not an
// edge-list file").
std::string read_all(int fd, const std::string& name, std::string_view kind) {
  struct stat st {};
  if (fstat(fd, &st) != 0)
    throw InputError(fmt::format("{}: cannot read: {}", name, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw InputError(fmt::format("{}: is a folder, not {}", name, kind));
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

}  // namespace

std::string read_whole_input(const std::string& path) {
  constexpr std::string_view kind = "an edge-list file";
  return path == "-" ? read_all(STDIN_FILENO, "<stdin>", kind) : read_whole_file(path, kind);
}

std::string read_whole_file(const std::string& path, std::string_view kind) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  return read_all(fd, path, kind);
}

EdgeList read_edge_list(const std::string& path, uint64_t max_matrix_bytes) {
  const std::string text = read_whole_input(path);
  return parse_edge_list(text, path == "-" ? "<stdin>" : path, max_matrix_bytes);
}

std::string format_edge_list(const EdgeList& g) {
  std::string s = fmt::format("{} {}\n", g.num_vertices, g.edges.size());
  for (const Edge& e : g.edges)
    fmt::format_to(std::back_inserter(s), "{} {} {}\n", e.src, e.dst, e.w);
  return s;
}

}  // namespace apsp
