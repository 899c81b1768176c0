// harness/solve/solved.hpp: the steps that read a result where it is.
#include "harness/solve/solved.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/device_buffer.hpp"
#include "core/precision.hpp"
#include "harness/solve/paths.hpp"
#include "harness/solve/solve_steps.hpp"

namespace apsp::harness {

int vertices_of(const SolvedDistances& d) {
  return std::visit(Overloaded{[](const OnGpu& g) { return g.solve->n(); },
                               [](const OnRanks& r) { return r.solve->n(); },
                               [](const OnHost& h) { return h.d.n(); },
                               [](const OnHost64& h) { return h.d.n(); }},
                    d);
}

std::string certify(SolvedDistances& d, const InEdges& g, int threads) {
  return std::visit(Overloaded{[&](OnGpu& on) { return on.solve->certify(g); },
                               [&](OnRanks& on) { return on.solve->certify(g); },
                               [&](OnHost& on) { return certify_host(on.d.view(), g, threads); },
                               [&](OnHost64& on) { return certify_host(on.d.view(), g, threads); }},
                    d);
}

int64_t max_finite(SolvedDistances& d, int threads) {
  return std::visit(Overloaded{[](OnGpu& on) { return on.solve->max_finite(); },
                               [](OnRanks& on) { return on.solve->max_finite(); },
                               [&](OnHost& on) { return int64_t{max_finite_entry(on.d, threads)}; },
                               [&](OnHost64& on) { return max_finite_entry(on.d, threads); }},
                    d);
}

int64_t distance_at(SolvedDistances& d, int i, int j) {
  return std::visit(Overloaded{[&](OnGpu& on) { return int64_t{on.solve->at(i, j)}; },
                               [&](OnRanks& on) {
                                 if (on.gathered) return int64_t{on.gathered->at(i, j)};
                                 return int64_t{on.solve->band(i, 1)[j]};
                               },
                               [&](OnHost& on) { return int64_t{on.d.at(i, j)}; },
                               [&](OnHost64& on) { return on.d.at(i, j); }},
                    d);
}

RowSource RowSource::of(MatrixView m) {
  return {m.n, std::max(m.n, 1), [m](int first, int) { return m.row(first); }};
}

namespace {
template <class S>
RowSource bands_of(S& s) {
  return {s.n(), s.band_rows(), [&s](int first, int count) { return s.band(first, count); }};
}
}  // namespace

RowSource rows_of(SolvedDistances& d) {
  return std::visit(Overloaded{[](OnGpu& on) { return bands_of(*on.solve); },
                               [](OnRanks& on) {
                                 return on.gathered ? RowSource::of(on.gathered->view())
                                                    : bands_of(*on.solve);
                               },
                               [](OnHost& on) { return RowSource::of(on.d.view()); },
                               [](OnHost64&) -> RowSource {
                                 throw std::logic_error(
                                     "the 64-bit path solved these distances: their rows are "
                                     "int64");
                               }},
                    d);
}

void next_hops_of(SolvedDistances& d, NextHops& hops, int threads, SolveTiming& t) {
  std::visit(
      Overloaded{[&](OnGpu& on) {
                   const CudaStream stream;
                   next_hops_on_device(on.solve->compact(), stream.get(), hops, t);
                 },
                 [&](OnRanks& on) { next_hops_on_host(on.gathered->view(), hops, threads, t); },
                 [&](OnHost& on) { next_hops_on_host(on.d.view(), hops, threads, t); },
                 [&](OnHost64& on) { next_hops_on_host(on.d.view(), hops, threads, t); }},
      d);
}

void predecessors_of(SolvedDistances& d, const EdgeList& g, int32_t* pred, int threads) {
  std::visit(
      Overloaded{
          [&](OnGpu& on) { predecessors_device(on.solve->compact(), g, pred); },
          [&](OnRanks& on) { predecessors_host(on.gathered->view(), g, pred, threads); },
          [&](OnHost& on) { predecessors_host(on.d.view(), g, pred, threads); },
          [](OnHost64&) { throw std::logic_error("the 64-bit path gives no predecessors"); }},
      d);
}

}  // namespace apsp::harness
