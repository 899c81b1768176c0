#include "core/edge_list.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <vector>

#include "core/graph_text.hpp"
#include "core/memory.hpp"

namespace apsp {

namespace {

constexpr std::string_view kHeaderFields = "'V E'", kEdgeFields = "'src dst w'";

// The next of the `count` integers a line should have (`expected` names them); a line that ends
// before says how many it had, at the column where the next should have been.
int64_t field(GraphText& t, int index, int count, std::string_view expected) {
  const std::string_view tok = t.token();
  if (tok.empty()) t.fail(fmt::format("expected {} integers {}, found {}", count, expected, index));
  return t.integer_of(tok, "");
}

// The end of a line of `count` integers: more are a fault at the first extra one.
void end_of_fields(GraphText& t, int count, std::string_view expected) {
  if (t.at_end_of_line()) return;
  t.token();
  const int64_t column = t.column();
  int64_t found = count + 1;
  while (!t.token().empty()) ++found;
  t.fail_at(t.line(), column,
            fmt::format("expected {} integers {}, found {}", count, expected, found));
}

struct Header {
  int64_t V = 0, E = 0;
};

// The first line 'V E', checked, and the matrix it implies against the memory, before anything
// the size of the graph is allocated.
Header read_header(GraphText& t) {
  if (!t.next_line("")) t.fail_at(1, 1, "empty input: expected a first line 'V E'");
  const int64_t V = field(t, 0, 2, kHeaderFields);
  if (V <= 0) t.fail(fmt::format("V must be positive, got {}", V));
  t.check_vertex_count(V);
  const int64_t E = field(t, 1, 2, kHeaderFields);
  if (E < 0) t.fail(fmt::format("E must be non-negative, got {}", E));
  end_of_fields(t, 2, kHeaderFields);
  return Header{V, E};
}

// One edge line 'src dst w', checked against V.
Edge read_edge(GraphText& t, int64_t V) {
  int32_t ends[2];
  for (int k = 0; k < 2; ++k) {
    const int64_t v = field(t, k, 3, kEdgeFields);
    if (v < 0 || v >= V) t.fail(fmt::format("vertex {} out of range [0, {})", v, V));
    ends[k] = static_cast<int32_t>(v);
  }
  const int64_t w = field(t, 2, 3, kEdgeFields);
  if (w < 0 || w > kMaxWeight) t.fail(weight_fault(w, std::to_string(w)));
  end_of_fields(t, 3, kEdgeFields);
  return Edge{ends[0], ends[1], static_cast<int32_t>(w)};
}

EdgeList parse_edge_list_unchecked(std::string_view text, std::string_view source,
                                   uint64_t max_matrix_bytes) {
  GraphText t(text, source, max_matrix_bytes);
  const auto [V, E] = read_header(t);
  EdgeList g;
  g.num_vertices = static_cast<int32_t>(V);
  // A bogus E must not allocate: an edge line takes at least 6 bytes ("0 0 0\n").
  g.edges.reserve(static_cast<size_t>(std::min<int64_t>(E, text.size() / 6 + 1)));
  for (int64_t k = 0; k < E; ++k) {
    if (!t.next_line("")) t.fail_at_end(fmt::format("end of input after {} of {} edges", k, E));
    g.edges.push_back(read_edge(t, V));
  }
  if (t.next_line("")) {
    t.token();
    t.fail(fmt::format("unexpected content after the {} edges the header announced", E));
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

// Lines ending in CR alone (classic Mac OS) read as one line: the fault gets a hint.
EdgeList parse_edge_list(std::string_view text, std::string_view source,
                         uint64_t max_matrix_bytes) {
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
