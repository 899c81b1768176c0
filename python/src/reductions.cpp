// apsp_lab._core.reduce_edges: a graph given as edges (integer weights) solved by the Solver and
// reduced where its distances are (harness/solve/summary.hpp: each vertex's eccentricity, the
// vertices it reaches and is reached by, and those distances' sums), so that whole-graph answers
// (closeness, eccentricity, the diameter, the average shortest path length) never bring the
// V x V matrix to the host when a GPU solved it. The NetworkX backend (apsp_lab/nx_backend) makes
// the arrays: int32 or int64 indices, int64 weights in [0, 2^31 - 1], checked there first.
#include "python/src/reductions.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/dist_matrix.hpp"
#include "harness/solve/solver.hpp"
#include "harness/solve/summary.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace apsp::python {
namespace {

using Vector = nb::ndarray<nb::ro, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

template <class I>
EdgeList edges_of(int n, const Vector& row, const Vector& col, const Vector& weight,
                  bool directed) {
  const size_t m = row.shape(0);
  const I* src = static_cast<const I*>(row.data());
  const I* dst = static_cast<const I*>(col.data());
  const int64_t* w = static_cast<const int64_t*>(weight.data());
  EdgeList g{n, {}};
  g.edges.reserve(directed ? m : 2 * m);
  for (size_t e = 0; e < m; ++e) {
    if (src[e] < 0 || src[e] >= n || dst[e] < 0 || dst[e] >= n)
      throw std::invalid_argument("an edge's endpoint is outside [0, n)");
    if (w[e] < 0 || w[e] > INT32_MAX)
      throw std::invalid_argument("edge weights must be integers in [0, 2^31 - 1]");
    if (src[e] == dst[e]) continue;  // never shorter than d[i][i] = 0
    const auto u = static_cast<int32_t>(src[e]), v = static_cast<int32_t>(dst[e]);
    g.edges.push_back({u, v, static_cast<int32_t>(w[e])});
    if (!directed) g.edges.push_back({v, u, static_cast<int32_t>(w[e])});
  }
  return g;
}

// The reductions of the Solver's result, where it is: on its GPU, or in host memory (int32, or
// the 64-bit path's int64).
harness::VertexReductions reductions_of(const harness::Solver& solver, int threads) {
  const int n = solver.vertices();
  if (const auto on = solver.on_device(); on.data)
    return harness::reduce_on_device(on.data, on.pitch, n);
  harness::VertexReductions r;
  if (solver.wide()) {
    solver.each_band64([&](int first, int count, const int64_t* rows) {
      if (first != 0 || count != n) throw std::logic_error("the 64-bit result comes in bands");
      r = harness::reduce_on_host(MatrixView64{n, rows}, threads);
    });
  } else {
    solver.each_band([&](int first, int count, const int32_t* rows) {
      if (first != 0 || count != n) throw std::logic_error("the host result comes in bands");
      r = harness::reduce_on_host(MatrixView{n, rows}, threads);
    });
  }
  return r;
}

// A 1-D NumPy array holding a copy of v.
template <class T>
nb::object numpy_of(const std::vector<T>& v) {
  auto* copy = new std::vector<T>(v);
  nb::capsule owner(copy, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  const size_t shape[1] = {copy->size()};
  return nb::ndarray<nb::numpy, T, nb::ndim<1>>(copy->data(), 1, shape, owner).cast();
}

nb::dict reduce_edges(int n, Vector row, Vector col, Vector weight, bool directed,
                      const std::string& device, const std::string& variant, int threads) {
  const size_t m = row.shape(0);
  if (col.shape(0) != m || weight.shape(0) != m)
    throw std::invalid_argument("rows, columns and weights of different lengths");
  if (row.dtype() != col.dtype() ||
      (row.dtype() != nb::dtype<int32_t>() && row.dtype() != nb::dtype<int64_t>()))
    throw std::invalid_argument("indices must be int32 or int64 arrays of one type");
  if (weight.dtype() != nb::dtype<int64_t>())
    throw std::invalid_argument("weights must be an int64 array");
  if (device != "auto" && device != "cpu" && device != "cuda")
    throw std::invalid_argument("device must be 'auto', 'cpu' or 'cuda', not '" + device + "'");
  if (device == "cuda" && !has_device())
    throw harness::SolveError(harness::SolveFault::kNoDevice, "device='cuda': no CUDA device");
  harness::SolveRequest req;
  req.graph = std::make_shared<const harness::SolveInput>(
      row.dtype() == nb::dtype<int32_t>() ? edges_of<int32_t>(n, row, col, weight, directed)
                                          : edges_of<int64_t>(n, row, col, weight, directed));
  req.variant = device == "cpu" ? "cpu" : variant;
  req.threads = threads;
  req.warm_up = false;  // the input is in memory already: nothing to overlap it with
  harness::VertexReductions r;
  std::string precision, solved_with;
  {
    nb::gil_scoped_release unlocked;
    harness::Solver solver(std::move(req));
    solver.run();
    r = reductions_of(solver, threads);
    precision = solver.precision();
    solved_with = solver.solved_with();
  }
  nb::dict out;
  out["eccentricity"] = numpy_of(r.eccentricity);
  out["reaches"] = numpy_of(r.reaches);
  out["out_sum"] = numpy_of(r.out_sum);
  out["reached_by"] = numpy_of(r.reached_by);
  out["in_sum"] = numpy_of(r.in_sum);
  out["precision"] = precision;
  out["solved_with"] = solved_with;
  return out;
}

}  // namespace

void bind_reductions(nb::module_& m) {
  m.def("reduce_edges", &reduce_edges, "n"_a, "row"_a, "col"_a, "weight"_a, "directed"_a,
        "device"_a, "variant"_a, "threads"_a,
        "Each vertex's eccentricity, reaches, out_sum, reached_by and in_sum (NumPy arrays), "
        "reduced where the distances are.");
}

}  // namespace apsp::python
