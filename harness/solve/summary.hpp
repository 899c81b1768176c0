// Answers without writing the V x V matrix (apsp --summary, --sources): per-vertex reductions of
// the solved distances, computed where the matrix is (one GPU, the ranks of several, or the
// host), and what is made of them: the diameter, the radius, the average shortest path length,
// the reachable pairs, each vertex's eccentricity and closeness centrality; and the rows of
// chosen sources.
//
// Unreachable pairs. NetworkX raises for the diameter, the radius, an eccentricity and the
// average shortest path length of a graph that is not strongly connected; here every value is
// taken over the reachable pairs alone, as igraph does (its eccentricity and radius ignore the
// vertices not reached; its diameter with unconn=True is the longest finite distance):
//   reaches(i)      = |{j != i : d(i, j) < kInf}|, reached_by(j) the same down column j;
//   eccentricity(i) = max d(i, j) over those j, 0 when i reaches no other vertex;
//   diameter        = the largest eccentricity, radius = the smallest (a vertex that reaches
//                     nothing has eccentricity 0, so such a graph has radius 0);
//   reachable pairs = the ordered pairs (i, j), i != j, with d(i, j) < kInf;
//   ASPL            = (the sum of d(i, j) over those pairs) / their number; 0 when there are
//                     none (V = 1, or no edge), as NetworkX gives for V = 1.
// On a strongly connected graph these are NetworkX's values exactly. Closeness is NetworkX's
// closeness_centrality with wf_improved=True, which is defined on every graph and, on a directed
// one, reads the distances INTO a vertex: with r(u) = reached_by(u) + 1 (u counted),
//   closeness(u) = (r - 1) / S(u) * (r - 1) / (V - 1),  S(u) = the sum of d(v, u) over those v,
// and 0 when S(u) = 0 or V = 1; the same operations in the same order as NetworkX, so the same
// double.
// The sums are integers, exact: a row's or column's fits 64 bits (V <= 2^20 entries below 2^30;
// on the 64-bit path a sum that would pass 2^64 is refused, std::overflow_error), the matrix's
// 128; the average is that sum converted to double and divided once.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/dist_matrix.hpp"
#include "core/matrix_io.hpp"
#include "harness/solve/request.hpp"
#include "harness/solve/solved.hpp"
#include "harness/solve/solver.hpp"

namespace apsp::harness {

// The reductions of every vertex: rows (out of i) and columns (into j); diagonal left out.
struct VertexReductions {
  std::vector<int64_t> eccentricity;  // the largest finite d(i, j); 0 when there is none
  std::vector<uint32_t> reaches;      // finite d(i, j), j != i
  std::vector<uint64_t> out_sum;      // their sum
  std::vector<uint32_t> reached_by;   // finite d(i, j), i != j, down column j
  std::vector<uint64_t> in_sum;       // their sum
  explicit VertexReductions(int n = 0);
  int n() const { return static_cast<int>(eccentricity.size()); }
  friend bool operator==(const VertexReductions&, const VertexReductions&) = default;
};

// On the host, the reference the device's are tested against: rows split over `threads` threads
// (0: all cores), each adding its rows into columns of its own. int32, or the 64-bit path's int64.
template <class T>
VertexReductions reduce_on_host(BasicMatrixView<T> d, int threads = 0);

// On the device: d holds the n x n matrix with rows `pitch` apart (Variant::pitch), reduced a
// band of `band_rows` rows at a time (0: about 256 MB a band). Device memory it takes:
// reduction_device_bytes(n).
VertexReductions reduce_on_device(const int32_t* d, int pitch, int n, int band_rows = 0);
uint64_t reduction_device_bytes(int n);
// Over the ranks of a distributed solve: each rank reduces its rows on its device (columns
// partially), and the host adds the ranks' columns up. Nothing of V x V comes to the host.
VertexReductions reduce_on_ranks(const MultiGpuSolve& ranks, int band_rows = 0);

// The reductions of the solved distances where they are (harness/solve/solved.hpp).
VertexReductions reduce(const SolvedDistances& d, int threads);

// NetworkX's closeness_centrality(wf_improved=True) of vertex v (above).
double closeness(const VertexReductions& r, int v);

// What ran, for the summary's lines and JSON.
struct SolvedWith {
  std::string input;      // the graph file as given ("-": standard input)
  std::string solver;     // "sm90[tile=128,...]", or "cpu"
  std::string precision;  // what the distances were computed in (core/precision.hpp)
  std::string device;     // "NVIDIA H200", or "CPU"
  int gpus = 0;           // 0 on the CPU
};

struct GraphSummary {
  int vertices = 0;
  uint64_t edges = 0;                       // as read (duplicates and self loops counted)
  uint64_t reachable_pairs = 0;             // ordered, i != j
  uint64_t ordered_pairs = 0;               // V (V - 1)
  unsigned __int128 distance_sum = 0;       // of the finite d(i, j), i != j
  int64_t diameter = 0, radius = 0;         // over reachable pairs (above)
  double average_shortest_path_length = 0;  // distance_sum / reachable_pairs, or 0
  bool strongly_connected() const { return reachable_pairs == ordered_pairs; }
};
GraphSummary summarize(const VertexReductions& r, uint64_t edges);

// The lines apsp --summary prints ("diameter: 57 ...").
std::string summary_lines(const GraphSummary& s, const SolvedWith& with);
// The JSON document of --summary-json (schema "apsp-summary/1", docs/apsp.md).
std::string summary_json(const GraphSummary& s, const SolvedWith& with);
// -o with --summary: "vertex,eccentricity,closeness,reaches,reached_by" then a line a vertex,
// named by its id in the file (`ids`, a SNAP list's; empty: its row); closeness as the shortest
// text that reads back as the same double.
std::string per_vertex_csv(const VertexReductions& r, const std::vector<int64_t>& ids = {});
// The decimal digits of x.
std::string decimal(unsigned __int128 x);

// `text` to `path`: a file (it appears only when whole), or "-" for standard output.
void write_text_output(const std::string& path, const std::string& text);

// The solver's --summary after the solve (and the certificate): the reductions where the
// distances are (timed in t as "summary"), then the request's per_vertex_to and summary_json_to
// written. Returns the lines. `to_stdout` tells, on a throw, whether the write that failed was
// to standard output.
// per_vertex_to names each vertex by its id in the file (`ids`: per_vertex_csv).
std::string answer_summary(const SolveRequest& r, const SolvedDistances& d, uint64_t edges,
                           const std::vector<int64_t>& ids, const SolvedWith& with, SolveTiming& t,
                           bool& to_stdout);

// --sources: "0,5,17" (commas, spaces allowed), or "@FILE": ids separated by spaces, commas or
// line ends, '#' starting a comment to the end of its line. In the order given, repeats kept.
// Throws std::invalid_argument (one line, the field `sources` marked: request.hpp, mention) for an
// empty list, an empty entry ("0,,1"), a token that is no integer, or a file that cannot be read.
std::vector<int64_t> parse_sources(const std::string& text);
// The file "@FILE" names ("" for a list): an input, for check_distinct_files.
std::string sources_file(const std::string& text);

// The vertex (row) of a file's vertex id: the id's place in `ids` (increasing, a SNAP list's),
// or where ids is empty the id itself, when in [0, n); -1 when the graph has no such vertex.
int vertex_of_id(int64_t id, const std::vector<int64_t>& ids, int n);
// The file's id of vertex v: ids[v], or v where ids is empty.
inline int64_t id_of_vertex(int v, const std::vector<int64_t>& ids) {
  return ids.empty() ? v : ids[static_cast<size_t>(v)];
}

// The rows of `sources`, in their order, to `path` in `format` (a file appears only when whole;
// "-" standard output): rows x V, with the format's header for chosen rows. Returns the bytes.
uint64_t write_source_rows(const std::string& path, const std::vector<int>& sources,
                           SolvedDistances& d, const MatrixFormat& format, int threads);

}  // namespace apsp::harness
