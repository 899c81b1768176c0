// harness/solve/summary.hpp: the host reductions, what is made of them, and --sources.
#include "harness/solve/summary.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/atomic_file.hpp"
#include "core/console.hpp"
#include "core/edge_list.hpp"
#include "core/integer.hpp"
#include "core/parallel.hpp"

namespace apsp::harness {

VertexReductions::VertexReductions(int n)
    : eccentricity(n), reaches(n), out_sum(n), reached_by(n), in_sum(n) {}

namespace {

// to += x, for sums of distances of T: int32 ones cannot pass 2^64 in a row or a column
// (V <= 2^20), int64 ones can.
template <class T>
void add_distance(uint64_t& to, uint64_t x) {
  if constexpr (sizeof(T) == 4) {
    to += x;
  } else if (__builtin_add_overflow(to, x, &to)) {
    throw std::overflow_error("a vertex's sum of distances passes 2^64, which " +
                              mention("summary") + " holds");
  }
}

// Rows [first, last) of d into r's row values, and their columns' into counts and sums.
template <class T>
void reduce_host_rows(BasicMatrixView<T> d, int first, int last, VertexReductions& r,
                      std::vector<uint32_t>& counts, std::vector<uint64_t>& sums) {
  for (int i = first; i < last; ++i) {
    const T* row = d.row(i);
    T most = 0;
    uint32_t count = 0;
    uint64_t sum = 0;
    for (int j = 0; j < d.n; ++j) {
      const T x = row[j];
      if (j == i || x >= kUnreachableOf<T>) continue;
      most = std::max(most, x);
      ++count;
      add_distance<T>(sum, static_cast<uint64_t>(x));
      ++counts[j];
      add_distance<T>(sums[j], static_cast<uint64_t>(x));
    }
    r.eccentricity[i] = most;
    r.reaches[i] = count;
    r.out_sum[i] = sum;
  }
}

}  // namespace

template <class T>
VertexReductions reduce_on_host(BasicMatrixView<T> d, int threads) {
  const int n = d.n;
  VertexReductions r(n);
  const int tasks = std::clamp(threads > 0 ? threads : hardware_threads(), 1, std::max(n, 1));
  std::vector<std::vector<uint32_t>> counts(tasks, std::vector<uint32_t>(n));
  std::vector<std::vector<uint64_t>> sums(tasks, std::vector<uint64_t>(n));
  parallel_for(tasks, tasks, [&](int t) {
    const int first = static_cast<int>(int64_t{n} * t / tasks),
              last = static_cast<int>(int64_t{n} * (t + 1) / tasks);
    reduce_host_rows(d, first, last, r, counts[t], sums[t]);
  });
  for (int t = 0; t < tasks; ++t) {
    for (int j = 0; j < n; ++j) {
      r.reached_by[j] += counts[t][j];
      add_distance<T>(r.in_sum[j], sums[t][j]);
    }
  }
  return r;
}
template VertexReductions reduce_on_host(MatrixView, int);
template VertexReductions reduce_on_host(MatrixView64, int);

double closeness(const VertexReductions& r, int v) {
  const int n = r.n();
  if (r.in_sum[v] == 0 || n <= 1) return 0.0;
  // NetworkX: (len(sp) - 1.0) / totsp, then *= (len(sp) - 1.0) / (len_G - 1).
  const double reached = static_cast<double>(r.reached_by[v]);
  double c = reached / static_cast<double>(r.in_sum[v]);
  c *= reached / static_cast<double>(n - 1);
  return c;
}

GraphSummary summarize(const VertexReductions& r, uint64_t edges) {
  GraphSummary s;
  s.vertices = r.n();
  s.edges = edges;
  s.ordered_pairs = static_cast<uint64_t>(s.vertices) * static_cast<uint64_t>(s.vertices - 1);
  if (s.vertices == 0) return s;
  s.diameter = *std::max_element(r.eccentricity.begin(), r.eccentricity.end());
  s.radius = *std::min_element(r.eccentricity.begin(), r.eccentricity.end());
  for (int i = 0; i < s.vertices; ++i) {
    s.reachable_pairs += r.reaches[i];
    s.distance_sum += r.out_sum[i];
  }
  if (s.reachable_pairs > 0)
    s.average_shortest_path_length =
        static_cast<double>(s.distance_sum) / static_cast<double>(s.reachable_pairs);
  return s;
}

std::string decimal(unsigned __int128 x) {
  std::string digits;
  do {
    digits += static_cast<char>('0' + static_cast<int>(x % 10));
    x /= 10;
  } while (x > 0);
  return {digits.rbegin(), digits.rend()};
}

std::string summary_lines(const GraphSummary& s, const SolvedWith& with) {
  std::string out = fmt::format("graph: V = {}, E = {} ({}); solved with {} on {} ({})\n",
                                s.vertices, s.edges, with.input == "-" ? "<stdin>" : with.input,
                                with.solver, with.device, with.precision);
  out += fmt::format("reachable pairs: {} of the {} ordered pairs i != j{}\n", s.reachable_pairs,
                     s.ordered_pairs,
                     s.strongly_connected() ? " (strongly connected)"
                                            : "; every value below is over reachable pairs only");
  out += fmt::format("diameter: {}\n", s.diameter);
  out += fmt::format("radius: {}\n", s.radius);
  out += fmt::format(
      "average shortest path length: {} (= {} / {}: the exact sum of the finite distances, "
      "divided once in double precision)\n",
      s.average_shortest_path_length, decimal(s.distance_sum), s.reachable_pairs);
  return out;
}

std::string summary_json(const GraphSummary& s, const SolvedWith& with) {
  nlohmann::ordered_json j;
  j["schema"] = "apsp-summary/1";
  j["input"] = with.input;
  j["vertices"] = s.vertices;
  j["edges"] = s.edges;
  j["solver"] = {{"variant", with.solver},
                 {"precision", with.precision},
                 {"device", with.device},
                 {"gpus", with.gpus}};
  j["unreachable_pairs"] = "left out: every value is over the reachable pairs only";
  j["strongly_connected"] = s.strongly_connected();
  j["reachable_pairs"] = s.reachable_pairs;
  j["ordered_pairs"] = s.ordered_pairs;
  j["diameter"] = s.diameter;
  j["radius"] = s.radius;
  j["distance_sum"] = decimal(s.distance_sum);  // a string: it may pass 2^53, even 2^64
  j["average_shortest_path_length"] = s.average_shortest_path_length;
  return j.dump(2) + "\n";
}

std::string per_vertex_csv(const VertexReductions& r, const std::vector<int64_t>& ids) {
  std::string out = "vertex,eccentricity,closeness,reaches,reached_by\n";
  auto it = std::back_inserter(out);
  for (int v = 0; v < r.n(); ++v)
    fmt::format_to(it, "{},{},{},{},{}\n", id_of_vertex(v, ids), r.eccentricity[v], closeness(r, v),
                   r.reaches[v], r.reached_by[v]);
  return out;
}

void write_text_output(const std::string& path, const std::string& text) {
  if (path == "-") {
    write_all(STDOUT_FILENO, text.data(), text.size());
    return;
  }
  write_file_atomic(path, text);
}

std::string answer_summary(const SolveRequest& r, const SolvedDistances& d, uint64_t edges,
                           const std::vector<int64_t>& ids, const SolvedWith& with, SolveTiming& t,
                           bool& to_stdout) {
  const auto t0 = std::chrono::steady_clock::now();
  const VertexReductions v = reduce(d, r.threads);
  t.add("summary",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  const GraphSummary g = summarize(v, edges);
  if (r.per_vertex_to) {
    to_stdout = *r.per_vertex_to == "-";
    write_text_output(*r.per_vertex_to, per_vertex_csv(v, ids));
  }
  if (r.summary_json_to) {
    to_stdout = *r.summary_json_to == "-";
    write_text_output(*r.summary_json_to, summary_json(g, with));
  }
  return summary_lines(g, with);
}

std::string sources_file(const std::string& text) {
  return !text.empty() && text[0] == '@' ? text.substr(1) : "";
}

namespace {

// The ids in `text`, separated by spaces, commas or line ends ('0,,1' is refused: an id left
// out, not a separator); '#' comments when `comments`.
std::vector<int64_t> source_ids(const std::string& text, bool comments, const std::string& where) {
  std::vector<int64_t> ids;
  size_t line = 1, i = 0;
  bool after_comma = false;  // a comma, and no id since
  const auto empty_entry = [&] {
    return std::invalid_argument(fmt::format("{} {}{}: an empty entry at character {}",
                                             mention("sources"), where,
                                             comments ? fmt::format(":{}", line) : "", i + 1));
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (comments && c == '#') {
      i = text.find('\n', i);
      if (i == std::string::npos) break;
      continue;
    }
    if (c == ',' && after_comma) throw empty_entry();
    if (c == ',') after_comma = true;
    if (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
      continue;
    }
    after_comma = false;
    const size_t end = text.find_first_of(comments ? ", \t\r\n#" : ", \t\r\n", i);
    const std::string token = text.substr(i, end == std::string::npos ? end : end - i);
    try {
      ids.push_back(parse_integer<int64_t>(token, INT64_MIN, INT64_MAX));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(fmt::format("{} {}{}: {}", mention("sources"), where,
                                              comments ? fmt::format(":{}", line) : "", e.what()));
    }
    i = end == std::string::npos ? text.size() : end;
  }
  if (ids.empty())
    throw std::invalid_argument(fmt::format("{} {}: no vertex", mention("sources"), where));
  return ids;
}

}  // namespace

std::vector<int64_t> parse_sources(const std::string& text) {
  const std::string file = sources_file(text);
  if (file.empty()) return source_ids(text, /*comments=*/false, fmt::format("'{}'", escaped(text)));
  std::string content;
  try {
    content = read_whole_file(file, "a list of vertex ids");
  } catch (const std::exception& e) {  // its line starts with the file's name
    throw std::invalid_argument(fmt::format("{} @{}", mention("sources"), e.what()));
  }
  return source_ids(content, /*comments=*/true, "@" + file);
}

int vertex_of_id(int64_t id, const std::vector<int64_t>& ids, int n) {
  if (ids.empty()) return id >= 0 && id < n ? static_cast<int>(id) : -1;
  const auto at = std::lower_bound(ids.begin(), ids.end(), id);
  return at != ids.end() && *at == id ? static_cast<int>(at - ids.begin()) : -1;
}

}  // namespace apsp::harness
