// The solves behind the Python module (harness/solve/array_solve.hpp), on the CPU: SciPy's dense
// and sparse conventions (0, NaN, inf and masked entries; explicit zeros, duplicates, self loops;
// undirected; unweighted), every element type and both memory orders, each result type, the
// predecessors, the float64 path (negative weights, a negative cycle) and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/device_info.hpp"
#include "core/generators.hpp"
#include "core/reference.hpp"
#include "harness/solve/array_solve.hpp"

namespace apsp::harness {
namespace {

constexpr double kInfD = std::numeric_limits<double>::infinity();

ArraySolveRequest cpu() {
  ArraySolveRequest r;
  r.device = "cpu";
  return r;
}

// The reference's distances of g as SciPy gives them: float64, inf where no path.
std::vector<double> expected(const EdgeList& g) {
  const DistMatrix d = solve_reference(g);
  std::vector<double> out(d.size());
  for (size_t k = 0; k < d.size(); ++k) out[k] = d.data()[k] >= kInf ? kInfD : d.data()[k];
  return out;
}

// g as a dense SciPy matrix of T: 0 where no edge (the smallest weight of duplicates; a weight 0
// edge cannot be written densely, so g has none).
template <class T>
std::vector<T> dense_of(const EdgeList& g) {
  const DistMatrix a = DistMatrix::from_edges(g);
  std::vector<T> out(a.size());
  for (size_t k = 0; k < a.size(); ++k) out[k] = a.data()[k] >= kInf ? T(0) : T(a.data()[k]);
  return out;
}

EdgeList graph(int n, uint64_t seed) {
  GraphSpec s;
  s.kind = GraphKind::kComponents;  // unreachable pairs
  s.num_vertices = n;
  s.components = 3;
  s.density = 0.15;
  s.wmin = 1;
  s.wmax = 40;
  s.duplicates = 0.3;
  s.seed = seed;
  return generate(s);
}

template <class T>
std::vector<double> solve_as(const std::vector<T>& a, int n, Element e, bool fortran = false,
                             const ArraySolveRequest& r = cpu()) {
  std::vector<T> data = a;
  if (fortran)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        data[static_cast<size_t>(j) * n + i] = a[static_cast<size_t>(i) * n + j];
  const DenseArray in{data.data(), e, n, fortran ? 1 : n, fortran ? n : 1};
  std::vector<double> out(static_cast<size_t>(n) * n, -1);
  solve_dense(in, r, out.data(), nullptr);
  return out;
}

TEST(ArraySolve, DenseOfEveryElementTypeAndOrderEqualsTheReference) {
  const int n = 37;  // no multiple of any tile
  const EdgeList g = graph(n, 3);
  const std::vector<double> want = expected(g);
  for (bool fortran : {false, true}) {
    EXPECT_EQ(solve_as(dense_of<int64_t>(g), n, Element::kInt64, fortran), want);
    EXPECT_EQ(solve_as(dense_of<int32_t>(g), n, Element::kInt32, fortran), want);
    EXPECT_EQ(solve_as(dense_of<uint8_t>(g), n, Element::kUInt8, fortran), want);
    EXPECT_EQ(solve_as(dense_of<uint64_t>(g), n, Element::kUInt64, fortran), want);
    EXPECT_EQ(solve_as(dense_of<float>(g), n, Element::kFloat32, fortran), want);
    EXPECT_EQ(solve_as(dense_of<double>(g), n, Element::kFloat64, fortran), want);
  }
}

TEST(ArraySolve, NanInfMaskAndTheDiagonalAreNoEdges) {
  // 0 -> 1 (2), 1 -> 2 (3); NaN, +inf, -inf, a masked entry and the diagonal are no edges.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> a = {5,      2, nan,  //
                                 -kInfD, 7, 3,    //
                                 kInfD,  1, -4};
  const std::vector<uint8_t> mask = {0, 0, 0, 0, 0, 0, 0, 1, 0};
  DenseArray in{a.data(), Element::kFloat64, 3, 3, 1, mask.data(), 3, 1};
  std::vector<double> out(9);
  const ArraySolveResult r = solve_dense(in, cpu(), out.data(), nullptr);
  EXPECT_EQ(out, (std::vector<double>{0, 2, 5, kInfD, 0, 3, kInfD, kInfD, 0}));
  EXPECT_EQ(r.precision, "int32");  // integer values in a float array: the exact path
}

TEST(ArraySolve, UndirectedTakesTheSmallerDirectionAndUnweightedCountsEdges) {
  const std::vector<int64_t> a = {0, 9, 0,  //
                                  4, 0, 0,  //
                                  0, 6, 0};
  ArraySolveRequest r = cpu();
  r.directed = false;
  EXPECT_EQ(solve_as(a, 3, Element::kInt64, false, r),
            (std::vector<double>{0, 4, 10, 4, 0, 6, 10, 6, 0}));
  r.unweighted = true;
  EXPECT_EQ(solve_as(a, 3, Element::kInt64, false, r),
            (std::vector<double>{0, 1, 2, 1, 0, 1, 2, 1, 0}));
}

TEST(ArraySolve, SparseEntriesAreEdgesZerosAndDuplicatesIncluded) {
  // Explicit zero 0 -> 1, duplicates 1 -> 2 (7 and 2: the smaller), a self loop, a NaN entry.
  const std::vector<int32_t> row = {0, 1, 1, 2, 2};
  const std::vector<int32_t> col = {1, 2, 2, 2, 0};
  const std::vector<double> w = {0, 7, 2, -5, std::numeric_limits<double>::quiet_NaN()};
  const SparseArray in{3, row.size(), row.data(), col.data(), false, w.data(), Element::kFloat64};
  std::vector<double> out(9);
  solve_sparse(in, cpu(), out.data(), nullptr);
  EXPECT_EQ(out, (std::vector<double>{0, 0, 2, kInfD, 0, 2, kInfD, kInfD, 0}));
  const std::vector<int64_t> bad_row = {0, 3};
  const std::vector<int64_t> bad_col = {1, 0};
  const SparseArray outside{3,    2,        bad_row.data(),   bad_col.data(),
                            true, w.data(), Element::kFloat64};
  EXPECT_THROW(solve_sparse(outside, cpu(), out.data(), nullptr), std::invalid_argument);
}

TEST(ArraySolve, IntegerResultsKeepTheLabsUnreachableValues) {
  const std::vector<int32_t> a = {0, 3, 0, 0};
  const DenseArray in{a.data(), Element::kInt32, 2, 2, 1};
  ArraySolveRequest r = cpu();
  r.out = Element::kInt32;
  std::vector<int32_t> d32(4);
  solve_dense(in, r, d32.data(), nullptr);
  EXPECT_EQ(d32, (std::vector<int32_t>{0, 3, kInf, 0}));
  r.out = Element::kInt64;
  std::vector<int64_t> d64(4);
  solve_dense(in, r, d64.data(), nullptr);
  EXPECT_EQ(d64, (std::vector<int64_t>{0, 3, kInf64, 0}));
  const std::vector<double> frac = {0, 0.5, 0, 0};
  const DenseArray fin{frac.data(), Element::kFloat64, 2, 2, 1};
  EXPECT_THROW(solve_dense(fin, r, d64.data(), nullptr), std::invalid_argument);
}

TEST(ArraySolve, WeightsPastInt32sMatrixTakeTheEdgesAndTheWidePath) {
  // 2^31 - 1 fits an edge, not the int32 matrix; two of them make 2^32 - 2.
  const int64_t big = 2147483647;
  const std::vector<int64_t> a = {0, big, 0, 0, 0, big, 0, 0, 0};
  const DenseArray in{a.data(), Element::kInt64, 3, 3, 1};
  ArraySolveRequest r = cpu();
  r.out = Element::kInt64;
  std::vector<int64_t> d(9);
  const ArraySolveResult res = solve_dense(in, r, d.data(), nullptr);
  EXPECT_EQ(res.precision, "int64");
  EXPECT_EQ(d[2], 2 * big);
  r.out = Element::kInt32;
  std::vector<int32_t> d32(9);
  EXPECT_THROW(solve_dense(in, r, d32.data(), nullptr), std::range_error);
}

TEST(ArraySolve, PredecessorsLeadBackAndNoneIsMinus9999) {
  const int n = 41;
  const EdgeList g = graph(n, 5);
  const std::vector<int64_t> a = dense_of<int64_t>(g);
  const DenseArray in{a.data(), Element::kInt64, n, n, 1};
  ArraySolveRequest r = cpu();
  r.predecessors = true;
  std::vector<double> d(static_cast<size_t>(n) * n);
  std::vector<int32_t> pred(d.size());
  solve_dense(in, r, d.data(), pred.data());
  const DistMatrix adj = DistMatrix::from_edges(g);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int32_t p = pred[static_cast<size_t>(i) * n + j];
      if (i == j || std::isinf(d[static_cast<size_t>(i) * n + j])) {
        EXPECT_EQ(p, kScipyNoPredecessor);
        continue;
      }
      ASSERT_GE(p, 0);
      EXPECT_EQ(d[static_cast<size_t>(i) * n + p] + adj.at(p, j),
                d[static_cast<size_t>(i) * n + j]);
    }
}

TEST(ArraySolve, NegativeWeightsTakeTheFloatPathInScipysOrder) {
  // 0 -> 1 (1), 1 -> 2 (-2): d[0][2] = -1, no cycle.
  const std::vector<int64_t> a = {0, 1, 0, 0, 0, -2, 0, 0, 0};
  const DenseArray in{a.data(), Element::kInt64, 3, 3, 1};
  ArraySolveRequest r = cpu();
  r.predecessors = true;
  std::vector<double> d(9);
  std::vector<int32_t> pred(9);
  const ArraySolveResult res = solve_dense(in, r, d.data(), pred.data());
  EXPECT_EQ(res.precision, "float64");
  EXPECT_TRUE(res.negative_cycle.empty());
  EXPECT_EQ(d, (std::vector<double>{0, 1, -1, kInfD, 0, -2, kInfD, kInfD, 0}));
  EXPECT_EQ(pred, (std::vector<int32_t>{-9999, 0, 1, -9999, -9999, 1, -9999, -9999, -9999}));
  // Undirected, a negative edge is a negative cycle.
  r.directed = false;
  const ArraySolveResult cycle = solve_dense(in, r, d.data(), pred.data());
  EXPECT_FALSE(cycle.negative_cycle.empty());
}

TEST(ArraySolve, ScipyOrderIsTheSameOnAnyNumberOfThreads) {
  const int n = 60;
  SplitMix64 rng(9);
  std::vector<double> a(static_cast<size_t>(n) * n, kInfD);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i == j)
        a[static_cast<size_t>(i) * n + j] = 0;
      else if (rng.chance(0.2))
        a[static_cast<size_t>(i) * n + j] = 0.1 * (1 + rng.below(97)) / 7.0;
  std::vector<double> one = a, many = a;
  std::vector<int32_t> p1(a.size()), pm(a.size());
  floyd_warshall_scipy_order(one.data(), n, p1.data(), 1);
  floyd_warshall_scipy_order(many.data(), n, pm.data(), 5);
  EXPECT_EQ(one, many);
  EXPECT_EQ(p1, pm);
}

// Each path's result and predecessors, whole (rows empty) and of the rows asked for.
template <class Out>
void expect_rows_of_the_whole(const DenseArray& in, ArraySolveRequest r,
                              const std::vector<int>& rows) {
  const int n = in.n;
  r.predecessors = true;
  std::vector<Out> whole(static_cast<size_t>(n) * n), chosen(rows.size() * n);
  std::vector<int32_t> whole_pred(whole.size()), chosen_pred(chosen.size());
  const ArraySolveResult all = solve_dense(in, r, whole.data(), whole_pred.data());
  r.rows = rows;
  const ArraySolveResult some = solve_dense(in, r, chosen.data(), chosen_pred.data());
  EXPECT_EQ(all.precision, some.precision);
  for (size_t k = 0; k < rows.size(); ++k)
    for (int j = 0; j < n; ++j) {
      const size_t from = static_cast<size_t>(rows[k]) * n + j, to = k * n + j;
      EXPECT_EQ(chosen[to], whole[from]) << "row " << rows[k] << " column " << j;
      EXPECT_EQ(chosen_pred[to], whole_pred[from]) << "row " << rows[k] << " column " << j;
    }
}

TEST(ArraySolve, RowsAreThoseRowsOfTheWholeResult) {
  const int n = 37;
  const std::vector<int> rows = {n - 1, 0, 0, 7};
  const std::vector<int64_t> ints = dense_of<int64_t>(graph(n, 9));
  expect_rows_of_the_whole<double>({ints.data(), Element::kInt64, n, n, 1}, cpu(), rows);
  ArraySolveRequest wide = cpu();
  wide.out = Element::kInt64;
  expect_rows_of_the_whole<int64_t>({ints.data(), Element::kInt64, n, n, 1}, wide, rows);
  std::vector<double> floats(ints.begin(), ints.end());
  floats[1] = -0.5;  // the float64 path, in matrices of its own
  expect_rows_of_the_whole<double>({floats.data(), Element::kFloat64, n, n, 1}, cpu(), rows);
  ArraySolveRequest out_of_range = cpu();
  out_of_range.rows = {n};
  std::vector<double> d(n);
  EXPECT_THROW(
      solve_dense({ints.data(), Element::kInt64, n, n, 1}, out_of_range, d.data(), nullptr),
      std::invalid_argument);
}

TEST(ArraySolve, Refusals) {
  const std::vector<int32_t> a = {0, 1, 1, 0};
  const DenseArray in{a.data(), Element::kInt32, 2, 2, 1};
  std::vector<double> d(4);
  ArraySolveRequest r = cpu();
  r.device = "tpu";
  EXPECT_THROW(solve_dense(in, r, d.data(), nullptr), std::invalid_argument);
  r = cpu();
  r.variant = "sm90";
  EXPECT_THROW(solve_dense(in, r, d.data(), nullptr), std::invalid_argument);
  if (!has_device()) {
    r = cpu();
    r.device = "cuda";
    try {
      solve_dense(in, r, d.data(), nullptr);
      FAIL() << "solved on no device";
    } catch (const SolveError& e) {
      EXPECT_EQ(e.fault, SolveFault::kNoDevice);
    }
  }
}

TEST(ArraySolve, EmptyAndOneVertex) {
  std::vector<double> d(1, -1);
  const DenseArray none{d.data(), Element::kFloat64, 0, 0, 1};
  EXPECT_NO_THROW(solve_dense(none, cpu(), d.data(), nullptr));
  const std::vector<int32_t> one = {5};
  const DenseArray single{one.data(), Element::kInt32, 1, 1, 1};
  solve_dense(single, cpu(), d.data(), nullptr);
  EXPECT_EQ(d[0], 0);
}

}  // namespace
}  // namespace apsp::harness
