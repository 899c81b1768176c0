// The solves behind the Python module's floyd_warshall (python/): a graph given as arrays, read
// with scipy.sparse.csgraph's conventions, solved by the Solver when every weight is an integer
// in [0, 2^31 - 1] (exact: the narrowest precision that proves its result, harness/solve/solver.hpp)
// or by the float64 path otherwise (harness/solve/solve_float.hpp), into arrays the caller holds.
// SciPy's conventions (its floyd_warshall and validate_graph):
//   - dense: an entry off the diagonal that is 0, NaN or +-inf, or masked, is no edge; the
//     diagonal is ignored (d[i][i] = 0);
//   - sparse: every stored entry is an edge, explicit zeros too; duplicates keep the smallest
//     (csgraph_to_dense); self loops are ignored; an inf or NaN entry is no edge;
//   - unweighted: every edge weighs 1; undirected: d[i][j] = d[j][i] = the smaller of the two;
//   - the result: +inf where there is no path (float64); predecessors -9999 for none.
// Dense matrices are never listed as edges on the way (harness/solve/solve_input.hpp), and sparse
// ones never become a matrix on the host unless the float64 path solves them.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/solve/solver.hpp"

namespace apsp::harness {

enum class Element {
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
  kFloat16,  // device arrays only (solve_device_matrix)
  kBFloat16
};

// A dense n x n matrix the caller holds: entry (i, j) at data + i * row_stride + j * col_stride
// elements (any order, C or Fortran); mask (may be null): nonzero where the entry is masked.
struct DenseArray {
  const void* data = nullptr;
  Element type = Element::kFloat64;
  int n = 0;
  int64_t row_stride = 0, col_stride = 0;
  const uint8_t* mask = nullptr;
  int64_t mask_row_stride = 0, mask_col_stride = 0;
};

// Sparse entries (a COO view of any SciPy sparse format): edge e is row[e] -> col[e], weight
// values[e]; indices int32 or int64.
struct SparseArray {
  int n = 0;
  size_t count = 0;
  const void* row = nullptr;
  const void* col = nullptr;
  bool index64 = false;
  const void* values = nullptr;
  Element type = Element::kFloat64;
};

struct ArraySolveRequest {
  bool directed = true, unweighted = false, predecessors = false;
  std::string device = "auto";   // auto: the GPU when there is one; cpu; cuda (refused without)
  std::string variant = "auto";  // the Solver's (SolveRequest::variant), for integer weights
  // The result's type: kFloat64 (SciPy's: +inf where no path), kInt32 (kInf) or kInt64 (kInf64);
  // the integer types take integer weights >= 0 only.
  Element out = Element::kFloat64;
  int threads = 0;                              // CPU threads (0: all cores)
  std::function<void(const std::string&)> log;  // lines for the user; may be empty
  // Only these rows of the result, in this order (SciPy's `indices`): dist and pred are then
  // rows.size() x n; of a result a GPU holds, only these rows are copied back. Empty: every row.
  std::vector<int> rows;
};

struct ArraySolveResult {
  std::string precision;    // core/precision.hpp's, or "float64"
  std::string solved_with;  // "sm90[...]", "blocked_i64[...]", "cpu"
  // The float64 path's vertices whose d[i][i] ended below 0: they lie on negative cycles.
  std::vector<int> negative_cycle;
  SolveTiming timing;
};

// Solves into dist (n x n, or r.rows.size() x n, row-major, of r.out's type) and pred (as dist,
// int32, when r.predecessors; -9999 for none). Throws std::invalid_argument (one line) for what SciPy refuses
// or r.out cannot hold, std::range_error when int32 cannot hold the distances, SolveError from the
// Solver, std::runtime_error from the float64 path.
ArraySolveResult solve_dense(const DenseArray& a, const ArraySolveRequest& r, void* dist,
                             int32_t* pred);
ArraySolveResult solve_sparse(const SparseArray& a, const ArraySolveRequest& r, void* dist,
                              int32_t* pred);

// An n x n int32 matrix in device memory (a DLPack array of CuPy, PyTorch, JAX), rows `stride`
// apart, SciPy's dense conventions but for one: an entry at or above kInf is no edge (the lab's
// unreachable value, so a result can be solved again); a negative entry is refused. Solved into
// `out` (device memory, rows `out_stride` apart; may be `in`: in place), kInf where no path,
// after the work already queued on `stream` (the producer's); returns when done. No entry goes
// through host memory. Distances past int32 (std::range_error) and predecessors are not solved so.
ArraySolveResult solve_device_array(const int32_t* in, int n, int64_t stride, int32_t* out,
                                    int64_t out_stride, cudaStream_t stream,
                                    const ArraySolveRequest& r);

// A device array of any numeric element type but bool (kFloat16 and kBFloat16 too), rows
// `stride` elements apart, read with SciPy's dense conventions (0, NaN and +-inf are no edge;
// int32 arrays as solve_device_array reads them, an entry at or above kInf no edge), solved
// exactly by the Solver when every weight is an integer in [0, kInf), else in float64 on the
// device (negative weights too: negative_cycle names the vertices whose diagonal ended below 0).
// Integer types into int32 `out` (kInf: no path; std::range_error for a distance past it),
// floating ones into float64 `out` (+inf: no path). Every entry stays in device memory; work
// after the producer's queued work on `stream`; returns when done.
struct DeviceMatrixIn {
  const void* data = nullptr;
  Element type = Element::kInt32;
  int n = 0;
  int64_t stride = 0;
};
bool is_floating(Element e);
ArraySolveResult solve_device_matrix(const DeviceMatrixIn& in, void* out, int64_t out_stride,
                                     cudaStream_t stream, const ArraySolveRequest& r);

}  // namespace apsp::harness
