#include "harness/solve/array_solve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "core/cuda_check.hpp"
#include "core/device_info.hpp"
#include "core/parallel.hpp"
#include "core/precision.hpp"
#include "core/reference.hpp"
#include "harness/solve/element_types.hpp"
#include "harness/solve/paths.hpp"
#include "harness/solve/solve_float.hpp"
#include "harness/solve/solve_steps.hpp"

namespace apsp::harness {

namespace {

constexpr double kPlusInf = std::numeric_limits<double>::infinity();
constexpr int kRowsPerTask = 16;  // rows a thread takes at a time in the passes over a matrix

// f(i) for every row, over `threads` threads, in tasks of kRowsPerTask rows.
template <class Fn>
void each_row(int n, int threads, Fn&& f) {
  parallel_for_chunks(n, kRowsPerTask, threads, f);
}

// What an entry of the input is: no edge, an edge the int32 matrix holds ([0, kInf)), an integer
// weight up to int32's limit (the Solver's edges hold it; its 64-bit path solves it), or a weight
// only the float64 path takes (not an integer, negative, or larger).
enum class Weight { kNone, kInt32, kEdgeOnly, kFloat };

template <class T>
double as_double(T x) {
  return static_cast<double>(x);
}

// Dense conventions: 0, NaN and +-inf are no edge.
template <class T>
Weight classify_dense(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x == 0 || std::isnan(x) || std::isinf(x)) return Weight::kNone;
  } else {
    if (x == 0) return Weight::kNone;
  }
  const double v = as_double(x);
  if (v < 0 || v != std::floor(v) || v > INT32_MAX) return Weight::kFloat;
  return v < kInf ? Weight::kInt32 : Weight::kEdgeOnly;
}

// Sparse conventions: a stored entry is an edge, 0 too; NaN and inf are none.
template <class T>
Weight classify_sparse(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) || std::isinf(x)) return Weight::kNone;
  }
  const double v = as_double(x);
  if (v < 0 || v != std::floor(v) || v > INT32_MAX) return Weight::kFloat;
  return v < kInf ? Weight::kInt32 : Weight::kEdgeOnly;
}

template <class T>
T entry(const DenseArray& a, int i, int j) {
  return static_cast<const T*>(a.data)[i * a.row_stride + j * a.col_stride];
}
bool masked(const DenseArray& a, int i, int j) {
  return a.mask && a.mask[i * a.mask_row_stride + j * a.mask_col_stride];
}

// The most demanding weight of any entry: what the solve must take.
struct Scan {
  Weight most = Weight::kNone;
  int64_t max_weight = 0;  // of the int32 entries
  size_t edges = 0;        // entries below kInf off the diagonal
  void take(Weight w) { most = std::max(most, w); }
};

// The int32 adjacency (kInf: no edge, diagonal 0) of the dense input; the scan says whether it
// holds every weight (most <= kInt32).
template <class T>
Scan dense_to_int32(const DenseArray& a, bool unweighted, int32_t* out, int threads) {
  const int n = a.n;
  std::vector<Scan> rows(n);
  each_row(n, threads, [&](int i) {
    int32_t* o = out + static_cast<size_t>(i) * n;
    Scan s;
    for (int j = 0; j < n; ++j) {
      const T x = entry<T>(a, i, j);
      const Weight w = i == j || masked(a, i, j) ? Weight::kNone : classify_dense(x);
      int32_t v = i == j ? 0 : kInf;  // kEdgeOnly and kFloat: the scan sends them elsewhere
      if (w != Weight::kNone && unweighted) {
        v = 1;
        s.take(Weight::kInt32);
      } else {
        s.take(w);
        if (w == Weight::kInt32) v = static_cast<int32_t>(x);
      }
      o[j] = v;
      if (v < kInf && j != i) {
        ++s.edges;
        s.max_weight = std::max<int64_t>(s.max_weight, v);
      }
    }
    rows[i] = s;
  });
  Scan all;
  for (const Scan& s : rows) {
    all.take(s.most);
    all.max_weight = std::max(all.max_weight, s.max_weight);
    all.edges += s.edges;
  }
  return all;
}

// The float64 adjacency (+inf: no edge, diagonal 0) of the dense input.
template <class T>
void dense_to_float64(const DenseArray& a, bool unweighted, double* out, int threads) {
  const int n = a.n;
  each_row(n, threads, [&](int i) {
    double* o = out + static_cast<size_t>(i) * n;
    for (int j = 0; j < n; ++j) {
      const T x = entry<T>(a, i, j);
      const bool none = i == j || masked(a, i, j) || classify_dense(x) == Weight::kNone;
      o[j] = i == j ? 0.0 : none ? kPlusInf : unweighted ? 1.0 : as_double(x);
    }
  });
}

// The dense input's edges (every weight an integer in [0, 2^31 - 1]).
template <class T>
EdgeList dense_to_edges(const DenseArray& a, bool unweighted) {
  EdgeList g{a.n, {}};
  for (int i = 0; i < a.n; ++i)
    for (int j = 0; j < a.n; ++j)
      if (i != j && !masked(a, i, j) && classify_dense(entry<T>(a, i, j)) != Weight::kNone)
        g.edges.push_back({i, j, unweighted ? 1 : static_cast<int32_t>(entry<T>(a, i, j))});
  return g;
}

// d[i][j] = d[j][i] = the smaller of the two, in 64 x 64 blocks of pairs.
template <class T>
void symmetric_min(T* d, int n, int threads) {
  constexpr int kBlock = 64;
  const int blocks = (n + kBlock - 1) / kBlock;
  parallel_for(blocks, threads, [&](int bi) {
    for (int bj = bi; bj < blocks; ++bj)
      for (int i = bi * kBlock; i < std::min(n, (bi + 1) * kBlock); ++i)
        for (int j = std::max(i + 1, bj * kBlock); j < std::min(n, (bj + 1) * kBlock); ++j) {
          T& a = d[static_cast<size_t>(i) * n + j];
          T& b = d[static_cast<size_t>(j) * n + i];
          a = b = std::min(a, b);
        }
  });
}

void add_reversed(EdgeList& g) {
  const size_t m = g.edges.size();
  g.edges.reserve(2 * m);
  for (size_t e = 0; e < m; ++e) g.edges.push_back({g.edges[e].dst, g.edges[e].src, g.edges[e].w});
}

// The result's stores: from the Solver's int32 (kInf) or int64 (kInf64) bands into the caller's
// matrix of type Out.
template <class Out, class In>
Out convert(In x, In unreachable) {
  if constexpr (std::is_floating_point_v<Out>) {
    return x >= unreachable ? kPlusInf : static_cast<Out>(x);
  } else if constexpr (sizeof(Out) == 8) {
    return x >= unreachable ? kInf64 : static_cast<Out>(x);
  } else {
    if constexpr (sizeof(In) == 8) {
      if (x < unreachable && x >= kInf)
        throw std::range_error(
            "the distances pass int32's 1073741823 (unreachable): ask for int64 or float64");
    }
    return x >= unreachable ? kInf : static_cast<Out>(x);
  }
}

template <class Out, class In>
void store_band(Out* dist, int n, int first, int count, const In* rows, In unreachable,
                int threads) {
  each_row(count, threads, [&](int r) {
    const In* from = rows + static_cast<size_t>(r) * n;
    Out* to = dist + static_cast<size_t>(first + r) * n;
    for (int j = 0; j < n; ++j) to[j] = convert<Out>(from[j], unreachable);
  });
}

// Row k of `rows` (a row number of the result) from the band [first, first + count) into
// dist + k * n, for every k the band holds.
template <class Out, class In>
void store_chosen(Out* dist, int n, const std::vector<int>& rows, int first, int count,
                  const In* band, In unreachable, int threads) {
  each_row(static_cast<int>(rows.size()), threads, [&](int k) {
    const int row = rows[k];
    if (row < first || row >= first + count) return;
    const In* from = band + static_cast<size_t>(row - first) * n;
    Out* to = dist + static_cast<size_t>(k) * n;
    for (int j = 0; j < n; ++j) to[j] = convert<Out>(from[j], unreachable);
  });
}

// The chosen rows of a result one GPU holds, copied down one row each: nothing else leaves it.
std::vector<int32_t> rows_from_device(const Solver::OnDevice& at, int n,
                                      const std::vector<int>& rows) {
  std::vector<int32_t> staged(rows.size() * static_cast<size_t>(n));
  for (size_t k = 0; k < rows.size(); ++k)
    APSP_CUDA_CHECK(cudaMemcpy(staged.data() + k * n,
                               at.data + static_cast<size_t>(rows[k]) * at.pitch,
                               static_cast<size_t>(n) * sizeof(int32_t), cudaMemcpyDeviceToHost));
  return staged;
}

template <class Out>
void store_distances(const Solver& solver, Out* dist, int n, const std::vector<int>& rows,
                     int threads) {
  const bool all = rows.empty();
  if (solver.wide()) {
    solver.each_band64([&](int first, int count, const int64_t* band) {
      if (all) return store_band(dist, n, first, count, band, kInf64, threads);
      store_chosen(dist, n, rows, first, count, band, kInf64, threads);
    });
    return;
  }
  if (const Solver::OnDevice at = solver.on_device(); !all && at.data) {
    const std::vector<int32_t> staged = rows_from_device(at, n, rows);
    store_band(dist, n, 0, static_cast<int>(rows.size()), staged.data(), kInf, threads);
    return;
  }
  solver.each_band([&](int first, int count, const int32_t* band) {
    if (all) return store_band(dist, n, first, count, band, kInf, threads);
    store_chosen(dist, n, rows, first, count, band, kInf, threads);
  });
}

// SciPy's predecessors (-9999 for none) of the rows asked for (all when `rows` is empty).
void store_predecessors(const Solver& solver, int32_t* pred, int n, const std::vector<int>& rows,
                        int threads) {
  const auto scipy_row = [n](const int32_t* from, int32_t* to) {
    for (int j = 0; j < n; ++j) to[j] = from[j] == kNoHop ? kScipyNoPredecessor : from[j];
  };
  solver.each_predecessor_band([&](int first, int count, const int32_t* band) {
    if (rows.empty()) {
      each_row(count, threads, [&](int row) {
        scipy_row(band + static_cast<size_t>(row) * n, pred + static_cast<size_t>(first + row) * n);
      });
      return;
    }
    for (size_t k = 0; k < rows.size(); ++k)
      if (rows[k] >= first && rows[k] < first + count)
        scipy_row(band + static_cast<size_t>(rows[k] - first) * n, pred + k * n);
  });
}

void store_result(const Solver& solver, const ArraySolveRequest& r, int n, void* dist,
                  int32_t* pred) {
  with_element(r.out, [&](auto zero) {
    using Out = decltype(zero);
    if constexpr (std::is_same_v<Out, double> || std::is_same_v<Out, int32_t> ||
                  std::is_same_v<Out, int64_t>)
      store_distances(solver, static_cast<Out*>(dist), n, r.rows, r.threads);
  });
  if (r.predecessors) store_predecessors(solver, pred, n, r.rows, r.threads);
}

void check_request(const ArraySolveRequest& r) {
  if (r.device != "auto" && r.device != "cpu" && r.device != "cuda")
    throw std::invalid_argument(
        fmt::format("device must be 'auto', 'cpu' or 'cuda', not '{}'", r.device));
  if (r.out != Element::kFloat64 && r.out != Element::kInt32 && r.out != Element::kInt64)
    throw std::invalid_argument("dtype must be float64, int32 or int64");
  if (r.device == "cuda" && !has_device())
    throw SolveError(SolveFault::kNoDevice, "device='cuda': no CUDA device");
  if (r.device == "cpu" && r.variant != "auto" && r.variant != "cpu")
    throw std::invalid_argument(fmt::format("device='cpu' and variant '{}' disagree", r.variant));
}

// The integer weights' solve: the Solver, on the input given.
ArraySolveResult solve_integers(SolveInput in, const ArraySolveRequest& r, void* dist,
                                int32_t* pred) {
  SolveRequest req;
  req.graph = std::make_shared<const SolveInput>(std::move(in));
  req.variant = r.device == "cpu" ? "cpu" : r.variant;
  req.predecessors = r.predecessors;
  req.allow_64_bits = r.out != Element::kInt32;  // int32 asked for: past it is an error at once
  req.threads = r.threads;
  req.warm_up = false;  // nothing to overlap it with: the input is in memory already
  req.log = r.log;
  Solver solver(std::move(req));
  solver.run();
  const auto t0 = Clock::now();
  const int n = solver.vertices();
  store_result(solver, r, n, dist, pred);
  ArraySolveResult out;
  out.timing = solver.timing();
  out.timing.add("store result", ms_since(t0));
  out.precision = solver.precision();
  out.solved_with = solver.solved_with();
  return out;
}

// Before the float64 path, whose result is float64's.
void check_float_out(const ArraySolveRequest& r) {
  if (r.out != Element::kFloat64)
    throw std::invalid_argument(
        "dtype int32 and int64 take integer weights in [0, 2^31 - 1] only; these need float64");
}

// The float64 path, in the caller's float64 matrix, which holds the adjacency already.
ArraySolveResult solve_floats(double* d, int n, const ArraySolveRequest& r, int32_t* pred) {
  ArraySolveResult out;
  const auto t0 = Clock::now();
  out.solved_with =
      solve_float64(d, n, {r.device != "cpu", r.predecessors ? pred : nullptr, r.threads, r.log});
  out.timing.add(out.solved_with == "cpu" ? "solve (CPU, float64)" : "solve (float64)",
                 ms_since(t0));
  out.precision = "float64";
  out.negative_cycle = negative_diagonal(d, n);
  return out;
}

void check_rows(const std::vector<int>& rows, int n) {
  for (const int row : rows)
    if (row < 0 || row >= n)
      throw std::invalid_argument(fmt::format("row {} is out of range [0, {})", row, n));
}

// The float64 path's n x n matrices: the caller's own when every row is asked for, else ours,
// whose chosen rows go to the caller's after the solve (deliver).
struct FloatWork {
  std::unique_ptr<double[]> own_d;
  std::unique_ptr<int32_t[]> own_p;
  double* d = nullptr;
  int32_t* p = nullptr;

  FloatWork(const ArraySolveRequest& r, int n, void* dist, int32_t* pred) {
    d = static_cast<double*>(dist);
    p = pred;
    if (r.rows.empty()) return;
    const size_t cells = static_cast<size_t>(n) * n;
    own_d = std::make_unique_for_overwrite<double[]>(cells);
    d = own_d.get();
    if (r.predecessors) {
      own_p = std::make_unique_for_overwrite<int32_t[]>(cells);
      p = own_p.get();
    }
  }
  void deliver(const ArraySolveRequest& r, int n, void* dist, int32_t* pred) const {
    for (size_t k = 0; k < r.rows.size(); ++k) {
      const size_t from = static_cast<size_t>(r.rows[k]) * n;
      std::copy_n(d + from, n, static_cast<double*>(dist) + k * n);
      if (own_p) std::copy_n(p + from, n, pred + k * n);
    }
  }
};

}  // namespace

ArraySolveResult solve_dense(const DenseArray& a, const ArraySolveRequest& r, void* dist,
                             int32_t* pred) {
  check_request(r);
  const int n = a.n;
  check_rows(r.rows, n);
  if (n == 0) return {};
  const auto t0 = Clock::now();
  check_host_matrices(n, 1, "the adjacency matrix");
  auto matrix = std::make_unique_for_overwrite<int32_t[]>(static_cast<size_t>(n) * n);
  Scan scan;
  with_element(a.type, [&](auto zero) {
    scan = dense_to_int32<decltype(zero)>(a, r.unweighted, matrix.get(), r.threads);
  });
  if (scan.most == Weight::kFloat) {
    matrix.reset();
    check_float_out(r);
    const FloatWork work(r, n, dist, pred);
    with_element(a.type, [&](auto zero) {
      dense_to_float64<decltype(zero)>(a, r.unweighted, work.d, r.threads);
    });
    if (!r.directed) symmetric_min(work.d, n, r.threads);
    const double read_ms = ms_since(t0);
    ArraySolveResult out = solve_floats(work.d, n, r, work.p);
    work.deliver(r, n, dist, pred);
    out.timing.steps.insert(out.timing.steps.begin(), {"read arrays", read_ms});
    return out;
  }
  SolveInput in;
  if (scan.most == Weight::kEdgeOnly) {  // weights int32's matrix cannot hold: the Solver's edges
    matrix.reset();
    EdgeList g;
    with_element(a.type, [&](auto zero) { g = dense_to_edges<decltype(zero)>(a, r.unweighted); });
    if (!r.directed) add_reversed(g);
    in = SolveInput(std::move(g));
  } else {
    if (!r.directed) symmetric_min(matrix.get(), n, r.threads);
    in = SolveInput::host_matrix(matrix.get(), n, n, scan.max_weight, scan.edges);
  }
  const double read_ms = ms_since(t0);
  ArraySolveResult out = solve_integers(std::move(in), r, dist, pred);
  out.timing.steps.insert(out.timing.steps.begin(), {"read arrays", read_ms});
  return out;
}

namespace {

template <class I>
I index_at(const void* p, size_t e) {
  return static_cast<const I*>(p)[e];
}

// The most demanding weight of an edge that is not a self loop (those are ignored).
template <class I, class T>
Weight sparse_most(const SparseArray& a) {
  Weight most = Weight::kNone;
  const T* v = static_cast<const T*>(a.values);
  for (size_t e = 0; e < a.count; ++e)
    if (index_at<I>(a.row, e) != index_at<I>(a.col, e))
      most = std::max(most, classify_sparse(v[e]));
  return most;
}

template <class I, class T>
void check_indices(const SparseArray& a) {
  for (size_t e = 0; e < a.count; ++e) {
    const int64_t i = index_at<I>(a.row, e), j = index_at<I>(a.col, e);
    if (i < 0 || i >= a.n || j < 0 || j >= a.n)
      throw std::invalid_argument(
          fmt::format("entry {} of the sparse graph: ({}, {}) is outside its {} x {} shape", e, i,
                      j, a.n, a.n));
  }
}

template <class I, class T>
EdgeList sparse_to_edges(const SparseArray& a, bool unweighted) {
  EdgeList g{a.n, {}};
  g.edges.reserve(a.count);
  const T* v = static_cast<const T*>(a.values);
  for (size_t e = 0; e < a.count; ++e) {
    // Self loops are left out: the Solver ignores them, and sparse_most did not look at them.
    if (index_at<I>(a.row, e) == index_at<I>(a.col, e) || classify_sparse(v[e]) == Weight::kNone)
      continue;
    g.edges.push_back({static_cast<int32_t>(index_at<I>(a.row, e)),
                       static_cast<int32_t>(index_at<I>(a.col, e)),
                       unweighted ? 1 : static_cast<int32_t>(v[e])});
  }
  return g;
}

// The float64 adjacency of the entries (duplicates: the smallest), both ways when undirected.
template <class I, class T>
void sparse_to_float64(const SparseArray& a, bool unweighted, bool directed, double* d,
                       int threads) {
  const int n = a.n;
  each_row(n, threads, [&](int i) {
    double* row = d + static_cast<size_t>(i) * n;
    std::fill(row, row + n, kPlusInf);
    row[i] = 0;
  });
  const T* v = static_cast<const T*>(a.values);
  for (size_t e = 0; e < a.count; ++e) {
    const int64_t i = index_at<I>(a.row, e), j = index_at<I>(a.col, e);
    if (i == j || classify_sparse(v[e]) == Weight::kNone) continue;
    const double w = unweighted ? 1.0 : as_double(v[e]);
    double& ij = d[static_cast<size_t>(i) * n + j];
    ij = std::min(ij, w);
    if (!directed) {
      double& ji = d[static_cast<size_t>(j) * n + i];
      ji = std::min(ji, w);
    }
  }
}

}  // namespace

ArraySolveResult solve_sparse(const SparseArray& a, const ArraySolveRequest& r, void* dist,
                              int32_t* pred) {
  check_request(r);
  check_rows(r.rows, a.n);
  if (a.n == 0) return {};
  const auto t0 = Clock::now();
  ArraySolveResult out;
  bool floats = false;
  EdgeList g;
  std::optional<FloatWork> work;
  const auto read = [&](auto index, auto value) {
    using I = decltype(index);
    using T = decltype(value);
    check_indices<I, T>(a);
    floats = !r.unweighted && sparse_most<I, T>(a) == Weight::kFloat;
    if (floats) {
      check_float_out(r);
      work.emplace(r, a.n, dist, pred);
      sparse_to_float64<I, T>(a, r.unweighted, r.directed, work->d, r.threads);
    } else {
      g = sparse_to_edges<I, T>(a, r.unweighted);
      if (!r.directed) add_reversed(g);
    }
  };
  with_element(a.type, [&](auto value) {
    if (a.index64)
      read(int64_t{}, value);
    else
      read(int32_t{}, value);
  });
  const double read_ms = ms_since(t0);
  if (floats) {
    out = solve_floats(work->d, a.n, r, work->p);
    work->deliver(r, a.n, dist, pred);
  } else {
    out = solve_integers(SolveInput(std::move(g)), r, dist, pred);
  }
  out.timing.steps.insert(out.timing.steps.begin(), {"read arrays", read_ms});
  return out;
}

}  // namespace apsp::harness
