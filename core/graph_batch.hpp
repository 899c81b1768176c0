// Many small graphs at once (graph learning needs every molecule's shortest paths): how a batch
// is laid out, what is checked before any work, the narrowest distance type proven exact, and
// the CPU solve every batched variant is checked against. Host-only; the batched variants
// (variants/batch_variant.hpp) solve the same layout on the GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dist_matrix.hpp"

namespace apsp {

// The largest graph a batch holds: a graph is solved whole by one warp or one block.
inline constexpr int kMaxBatchGraphVertices = 512;

// A batch packed ragged, as PyTorch Geometric packs a Batch: graph g owns the vertices
// [vertex_ptr[g], vertex_ptr[g + 1]) and the edges [edge_ptr[g], edge_ptr[g + 1]). An edge's
// ends are global vertex numbers (edge_index's two rows), inside its graph's range; an edge's id
// is its position. weight null: every edge weighs 1 (hop distances). Host or device memory, as
// the function taking it says.
struct GraphBatchView {
  int64_t graphs = 0;
  const int64_t* vertex_ptr = nullptr;  // graphs + 1 entries, vertex_ptr[0] = 0
  const int64_t* edge_ptr = nullptr;    // graphs + 1 entries, edge_ptr[0] = 0
  const int64_t* src = nullptr;         // edge_ptr[graphs] entries
  const int64_t* dst = nullptr;
  const int32_t* weight = nullptr;  // null: unweighted
};

// A batch held in host vectors: what the generator makes and the tests build.
struct GraphBatch {
  std::vector<int64_t> vertex_ptr{0}, edge_ptr{0}, src, dst;
  std::vector<int32_t> weight;  // one an edge; read only when weighted
  bool weighted = true;

  // Appends g: its vertices take the next global numbers, its edges keep their order.
  void add(const EdgeList& g);
  int64_t graphs() const { return static_cast<int64_t>(vertex_ptr.size()) - 1; }
  GraphBatchView view() const;
  // Graph g alone, its vertices numbered from 0 (unweighted: every weight 1).
  EdgeList graph(int64_t g) const;
};

// Molecule-like graphs, the batches everyone measures alike: `count` graphs with sizes drawn
// from a normal distribution (mean, sd) rounded and clamped to [min_n, max_n]; each a random tree
// of degree at most 4 with about one ring closure in eight vertices (a bond between vertices 4 to
// 6 bonds apart, so rings of 5 to 7 atoms), every bond as two directed edges, as PyTorch
// Geometric stores an undirected graph. Unweighted; the same seed gives the same batch.
GraphBatch molecule_batch(int64_t count, double mean, double sd, int min_n, int max_n,
                          uint64_t seed);

// The batch as NumPy's .npz, what np.load reads: 'ptr' (int64, B + 1), 'edge_index' (int64,
// 2 x E) and, when weighted, 'edge_weight' (int32, E), as a PyG Batch holds them and
// apsp_lab.floyd_warshall_batch takes them. std::length_error past 4 GiB.
std::string format_batch_npz(const GraphBatch& b);

// What check_batch learns on the way: the largest graph, the totals and the largest weight (1
// for an unweighted batch with an edge; 0 without edges).
struct BatchFacts {
  int max_n = 0;
  int64_t vertices = 0;
  int64_t edges = 0;
  int64_t max_weight = 0;
};

// "" when the batch (host memory) is well formed: the pointers increase from 0, no graph has
// more than kMaxBatchGraphVertices vertices, every edge's ends lie in its graph, every weight is
// in [0, 2^30 - 1). Otherwise the first fault, one line naming the graph or edge. Fills facts.
std::string check_batch(const GraphBatchView& batch, BatchFacts* facts);

// check_batch's checks one item at a time, in the order it makes them (the pointers' starts,
// every graph, every edge), for a check that reads the batch elsewhere (on the GPU: harness/batch)
// and must name the same first fault: "" or the fault, one line. vertices and edges: the graph's
// two pointer entries; weight 1 for an unweighted batch.
std::string batch_start_fault(int64_t vertex_ptr0, int64_t edge_ptr0);
std::string graph_fault(int64_t g, const int64_t vertices[2], const int64_t edges[2]);
std::string edge_fault(int64_t e, int64_t g, const int64_t vertices[2], int64_t src, int64_t dst,
                       int64_t weight);

// The element types a batch's distances are written in, narrowest first.
enum class BatchDistType { kU8, kI16, kI32 };
const char* name_of(BatchDistType type);  // "uint8", "int16", "int32"
int bytes_of(BatchDistType type);
int64_t min_of(BatchDistType type);  // 0, -32768, -2^31
int64_t max_of(BatchDistType type);  // 255, 32767, 2^31 - 1
// "No path" when the caller names no value, and what a solve in the type computes with: the
// type's maximum, and for int32 the project's kInf (2^30 - 1), so that two of them add up in int32.
int64_t default_unreachable(BatchDistType type);

// The longest distance any pair of the batch can have: (max_n - 1) * max_weight.
int64_t longest_possible_distance(const BatchFacts& facts);

// The narrowest type that holds every distance of a batch whose longest possible distance is
// `longest` and the value written for "no path" (`unreachable`; absent: default_unreachable),
// known before the solve, so the proof holds for the whole batch: uint8 for hop distances of
// graphs up to 255 vertices, then int16, then int32. Throws std::invalid_argument when the
// unreachable value could be a distance (0 <= unreachable <= longest) or no type holds both
// (longest must stay below the type's default_unreachable, which the solve keeps for "no path").
BatchDistType narrowest_exact_type(int64_t longest, std::optional<int64_t> unreachable);

// Where the distances go: graph g's n x n block, row-major, at element offsets[g] (ragged,
// padded_n 0: offsets[g + 1] = offsets[g] + n^2), or at g * padded_n^2 with rows padded_n apart
// and every entry outside the n x n corner set to pad_value (padded). A pair with no path
// holds `unreachable`. Host or device memory, as the batch.
struct BatchOutputView {
  void* dist = nullptr;
  BatchDistType type = BatchDistType::kI32;
  const int64_t* offsets = nullptr;  // ragged only
  int padded_n = 0;                  // 0: ragged
  int64_t unreachable = 0;
  int64_t pad_value = 0;
};

// "" when out can take the batch's distances: padded_n (padded) at least its largest graph, the
// unreachable and pad values inside the type, the type holding every possible distance and the
// unreachable value no distance; else the fault, one line.
std::string check_batch_output(const BatchOutputView& out, const BatchFacts& facts);

// The ragged offsets of a batch (host memory): graphs + 1 entries, the last the total elements.
std::vector<int64_t> ragged_offsets(const int64_t* vertex_ptr, int64_t graphs);

// The reference: each graph by the plain Floyd-Warshall loop in int32, on `threads` threads (0:
// all cores), graphs spread over them. Host memory; the batch checked by check_batch.
void solve_batch_host(const GraphBatchView& batch, const BatchOutputView& out, int threads = 0);

}  // namespace apsp
