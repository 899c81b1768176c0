// apsp_lab._core.reduce_edges: a graph given as edges (integer weights) solved by the Solver and
// reduced where its distances are (harness/solve/summary.hpp: each vertex's eccentricity, the
// vertices it reaches and is reached by, and those distances' sums), so that whole-graph answers
// (closeness, eccentricity, the diameter, the average shortest path length) never bring the
// V x V matrix to the host when a GPU solved it. The NetworkX backend (apsp_lab/nx_backend) makes
// the arrays: int32 or int64 indices, int64 weights in [0, 2^31 - 1], checked there first.
//
// apsp_lab._core.settle_orders: the order in which NetworkX's Dijkstra, breadth-first search or
// Bellman-Ford (its queue-based one) first reaches each vertex from a source, which is the order
// of the keys of the dict it returns: the backend's all_pairs_* rows follow it. Read from the
// graph's adjacency in NetworkX's order (CSR: a vertex's neighbours as G._adj lists them, each
// once, with its smallest parallel weight), with the same comparisons in the same float64.
#include "python/src/reductions.hpp"

#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/device_info.hpp"
#include "core/dist_matrix.hpp"
#include "core/parallel.hpp"
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

// A graph's adjacency in NetworkX's order (above): vertex u's neighbours are
// nbr[ptr[u] .. ptr[u + 1]), weighing w[...] (none for the breadth-first search).
struct Adjacency {
  int n = 0;
  const int64_t* ptr = nullptr;
  const int32_t* nbr = nullptr;
  const double* w = nullptr;
};

// NetworkX's _dijkstra_multisource from one source: a heap of (distance, push count, vertex),
// a vertex pushed again only for a strictly shorter distance, settled when first popped.
std::vector<int32_t> dijkstra_order(const Adjacency& g, int source, double cutoff) {
  struct Entry {
    double d;
    int64_t count;
    int32_t v;
  };
  // A min-heap on (distance, push count): the order of NetworkX's heap of tuples.
  const auto later = [](const Entry& a, const Entry& b) {
    return a.d > b.d || (a.d == b.d && a.count > b.count);
  };
  std::vector<Entry> fringe;
  std::vector<double> seen(g.n, std::numeric_limits<double>::infinity());
  std::vector<char> settled(g.n, 0);
  std::vector<int32_t> order;
  int64_t count = 0;
  fringe.push_back({0.0, count++, source});
  seen[source] = 0;
  while (!fringe.empty()) {
    std::pop_heap(fringe.begin(), fringe.end(), later);
    const Entry top = fringe.back();
    fringe.pop_back();
    if (settled[top.v]) continue;
    settled[top.v] = 1;
    order.push_back(top.v);
    for (int64_t k = g.ptr[top.v]; k < g.ptr[top.v + 1]; ++k) {
      const int32_t u = g.nbr[k];
      const double vu = top.d + g.w[k];
      if (vu > cutoff || settled[u] || !(vu < seen[u])) continue;
      seen[u] = vu;  // finite weights: "not seen" is +inf, which any length beats
      fringe.push_back({vu, count++, u});
      std::push_heap(fringe.begin(), fringe.end(), later);
    }
  }
  return order;
}

// NetworkX's _single_shortest_path_length: levels, each read in the order it was found.
std::vector<int32_t> bfs_order(const Adjacency& g, int source, double cutoff) {
  std::vector<char> seen(g.n, 0);
  std::vector<int32_t> order{source};
  seen[source] = 1;
  size_t level_begin = 0, level_end = 1;
  for (double level = 0; level_begin < level_end && cutoff > level; ++level) {
    for (size_t i = level_begin; i < level_end; ++i) {
      const int32_t v = order[i];
      for (int64_t k = g.ptr[v]; k < g.ptr[v + 1]; ++k) {
        if (seen[g.nbr[k]]) continue;
        seen[g.nbr[k]] = 1;
        order.push_back(g.nbr[k]);
      }
      if (order.size() == static_cast<size_t>(g.n)) return order;
    }
    level_begin = level_end;
    level_end = order.size();
  }
  return order;
}

// NetworkX's _inner_bellman_ford (non-negative weights: its negative-cycle checks never fire):
// a FIFO queue, a vertex skipped while one of its predecessors is queued; a vertex enters the
// result's dict the first time it gets a distance.
std::vector<int32_t> bellman_ford_order(const Adjacency& g, int source) {
  std::vector<double> dist(g.n, std::numeric_limits<double>::infinity());
  std::vector<char> reached(g.n, 0), queued(g.n, 0);
  std::vector<std::vector<int32_t>> pred(g.n);
  std::vector<int32_t> order{source};
  std::deque<int32_t> q{source};
  dist[source] = 0;
  reached[source] = queued[source] = 1;
  while (!q.empty()) {
    const int32_t u = q.front();
    q.pop_front();
    queued[u] = 0;
    bool skip = false;
    for (const int32_t p : pred[u]) skip = skip || queued[p];
    if (skip) continue;
    for (int64_t k = g.ptr[u]; k < g.ptr[u + 1]; ++k) {
      const int32_t v = g.nbr[k];
      const double dv = dist[u] + g.w[k];
      if (dv < dist[v]) {
        if (!queued[v]) q.push_back(v);
        queued[v] = 1;
        if (!reached[v]) order.push_back(v);
        reached[v] = 1;
        dist[v] = dv;
        pred[v].assign(1, u);
      } else if (reached[v] && dv == dist[v]) {
        pred[v].push_back(u);
      }
    }
  }
  return order;
}

using IndexVector = nb::ndarray<nb::ro, int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using VertexVector = nb::ndarray<nb::ro, int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using WeightVector = nb::ndarray<nb::ro, double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

std::vector<int32_t> order_from(const std::string& method, const Adjacency& g, int source,
                                double cutoff) {
  if (method == "dijkstra") return dijkstra_order(g, source, cutoff);
  if (method == "bfs") return bfs_order(g, source, cutoff);
  return bellman_ford_order(g, source);
}

// The searches index their per-vertex arrays by nbr[k] for k in [ptr[u], ptr[u + 1]) on worker
// threads with the GIL released, so a malformed CSR from Python is refused here, before any of
// them could read or write past an array.
void check_adjacency(IndexVector ptr, VertexVector nbr) {
  if (ptr.shape(0) < 2 || ptr.shape(0) - 1 > static_cast<size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("ptr must hold n + 1 offsets with 1 <= n < 2^31");
  const int64_t n = static_cast<int64_t>(ptr.shape(0)) - 1;
  const int64_t* offsets = ptr.data();
  if (offsets[0] != 0) throw std::invalid_argument("ptr[0] must be 0");
  for (int64_t u = 0; u < n; ++u)
    if (offsets[u + 1] < offsets[u]) throw std::invalid_argument("ptr must be non-decreasing");
  if (offsets[n] != static_cast<int64_t>(nbr.shape(0)))
    throw std::invalid_argument("ptr[n] must be the number of neighbours");
  const int32_t* neighbours = nbr.data();
  for (size_t k = 0; k < nbr.shape(0); ++k)
    if (neighbours[k] < 0 || neighbours[k] >= n)
      throw std::invalid_argument("every neighbour must be in [0, n)");
}

// The orders of sources first .. first + count - 1, over the CPU's threads: (count x n int32,
// row r's first lengths[r] entries its order, -1 after; lengths).
nb::tuple settle_orders(const std::string& method, IndexVector ptr, VertexVector nbr,
                        std::optional<WeightVector> weight, int first, int count, double cutoff,
                        int threads) {
  check_adjacency(ptr, nbr);
  const int n = static_cast<int>(ptr.shape(0)) - 1;
  if (first < 0 || count < 0 || first > n - count)
    throw std::invalid_argument("sources outside [0, n)");
  if (method != "dijkstra" && method != "bfs" && method != "bellman_ford")
    throw std::invalid_argument("method must be dijkstra, bfs or bellman_ford");
  if (method != "bfs" && (!weight || weight->shape(0) != nbr.shape(0)))
    throw std::invalid_argument("one weight per neighbour is needed");
  const Adjacency g{n, ptr.data(), nbr.data(), weight ? weight->data() : nullptr};
  std::vector<int32_t> orders(static_cast<size_t>(count) * n, -1), lengths(count);
  {
    nb::gil_scoped_release unlocked;
    parallel_for(count, threads, [&](int r) {
      const std::vector<int32_t> order = order_from(method, g, first + r, cutoff);
      std::copy(order.begin(), order.end(), orders.begin() + static_cast<size_t>(r) * n);
      lengths[r] = static_cast<int32_t>(order.size());
    });
  }
  auto* owned = new std::vector<int32_t>(std::move(orders));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<int32_t>*>(p); });
  const size_t shape[2] = {static_cast<size_t>(count), static_cast<size_t>(n)};
  nb::object matrix =
      nb::ndarray<nb::numpy, int32_t, nb::ndim<2>>(owned->data(), 2, shape, owner).cast();
  return nb::make_tuple(matrix, numpy_of(lengths));
}

}  // namespace

void bind_reductions(nb::module_& m) {
  m.def("reduce_edges", &reduce_edges, "n"_a, "row"_a, "col"_a, "weight"_a, "directed"_a,
        "device"_a, "variant"_a, "threads"_a,
        "Each vertex's eccentricity, reaches, out_sum, reached_by and in_sum (NumPy arrays), "
        "reduced where the distances are.");
  m.def("settle_orders", &settle_orders, "method"_a, "ptr"_a, "nbr"_a, "weight"_a.none(), "first"_a,
        "count"_a, "cutoff"_a, "threads"_a,
        "The vertices in the order NetworkX's dijkstra, bfs or bellman_ford first reaches them "
        "from each source of first .. first + count - 1: (orders, lengths).");
}

}  // namespace apsp::python
