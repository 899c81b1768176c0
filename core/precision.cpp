#include "core/precision.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/parallel.hpp"

namespace apsp {

std::string u16_admission(int n, int64_t max_weight) {
  const int64_t hops = std::max(n - 1, 0), longest = hops * max_weight;
  if (longest < kInf16 && max_weight < kInf16) return "";
  if (longest < kInf16)
    return fmt::format("16-bit distances need every finite entry below {}; here the largest is {}",
                       kInf16, max_weight);
  return fmt::format(
      "16-bit distances are exact only while (V - 1) * the largest weight < {}; here {} * {} = {}",
      kInf16, hops, max_weight, longest);
}

int64_t unreachable_of(const std::string& precision) {
  if (precision == kPrecisionU16x2) return kInf16;
  if (precision == kPrecisionInt32) return kInf;
  if (precision == kPrecisionInt64) return kInf64;
  throw std::invalid_argument(fmt::format("unknown precision '{}'", precision));
}

std::string weights_fit(const std::string& precision, int64_t max_weight) {
  const int64_t unreachable = unreachable_of(precision);
  if (max_weight < unreachable) return "";
  return fmt::format("{} solves weights below {}; the largest weight here is {}", precision,
                     unreachable, max_weight);
}

std::string exactness_fault(int64_t max_distance, int64_t max_weight, int64_t unreachable) {
  // Both below unreachable <= 2^62 - 1: the sum does not overflow.
  if (max_distance + max_weight < unreachable) return "";
  return fmt::format(
      "largest distance {} + largest weight {} = {} is not below the unreachable value {}",
      max_distance, max_weight, max_distance + max_weight, unreachable);
}

namespace {

template <class Matrix>
typename Matrix::Element max_finite_of(const Matrix& d, int threads) {
  using T = typename Matrix::Element;
  const int n = d.n();
  if (n == 0) return 0;
  std::vector<T> row_max(n, 0);
  parallel_for(n, threads, [&](int i) {
    T m = 0;
    for (const T* p = d.row(i); p != d.row(i) + n; ++p)
      if (*p < Matrix::kUnreachable) m = std::max(m, *p);
    row_max[i] = m;
  });
  return *std::max_element(row_max.begin(), row_max.end());
}

}  // namespace

int32_t max_finite_entry(const DistMatrix& d, int threads) { return max_finite_of(d, threads); }

int64_t max_finite_entry(const DistMatrix64& d, int threads) { return max_finite_of(d, threads); }

namespace {

// The out-edges of g by source (self loops left out), as offsets and (target, weight) lists.
struct OutLists {
  std::vector<int64_t> start;
  std::vector<int32_t> target, weight;
};
OutLists out_lists(const EdgeList& g) {
  OutLists o;
  o.start.assign(static_cast<size_t>(g.num_vertices) + 1, 0);
  for (const Edge& e : g.edges)
    if (e.src != e.dst) ++o.start[e.src + 1];
  for (int v = 0; v < g.num_vertices; ++v) o.start[v + 1] += o.start[v];
  o.target.resize(o.start.back());
  o.weight.resize(o.start.back());
  std::vector<int64_t> at(o.start.begin(), o.start.end() - 1);
  for (const Edge& e : g.edges) {
    if (e.src == e.dst) continue;
    o.target[at[e.src]] = e.dst;
    o.weight[at[e.src]++] = e.w;
  }
  return o;
}

}  // namespace

DistanceFloor largest_distance_floor(const EdgeList& g, int64_t enough) {
  if (enough < 0 || enough > (int64_t{1} << 24))
    throw std::invalid_argument(fmt::format("largest_distance_floor: enough = {}", enough));
  DistanceFloor out;
  if (g.num_vertices == 0 || enough == 0) return out;
  const OutLists o = out_lists(g);
  for (int v = 1; v < g.num_vertices; ++v)
    if (o.start[v + 1] - o.start[v] > o.start[out.source + 1] - o.start[out.source]) out.source = v;
  // Dial's buckets: bucket b holds the vertices reached at distance b, each settled when its
  // bucket comes (a vertex may be queued more than once; its later entries are stale).
  std::vector<int64_t> dist(static_cast<size_t>(g.num_vertices), kInf64);
  std::vector<std::vector<int32_t>> buckets(static_cast<size_t>(enough));
  dist[out.source] = 0;
  buckets[0].push_back(out.source);
  for (int64_t b = 0; b < enough; ++b) {
    for (size_t q = 0; q < buckets[b].size(); ++q) {
      const int32_t u = buckets[b][q];
      if (dist[u] != b) continue;
      out.distance = b;
      for (int64_t e = o.start[u]; e < o.start[u + 1]; ++e) {
        const int64_t d = b + o.weight[e];
        const int32_t v = o.target[e];
        if (d >= dist[v]) continue;
        dist[v] = d;
        if (d < enough) buckets[d].push_back(v);
      }
    }
    std::vector<int32_t>().swap(buckets[b]);
  }
  // A vertex reached, and left at `enough` or more, has no shorter way: it is that far.
  if (std::any_of(dist.begin(), dist.end(), [&](int64_t d) { return d >= enough && d < kInf64; }))
    out.distance = enough;
  return out;
}

int32_t max_edge_weight(const EdgeList& g) {
  int32_t m = 0;
  for (const Edge& e : g.edges)
    if (e.src != e.dst) m = std::max(m, e.w);
  return m;
}

}  // namespace apsp
