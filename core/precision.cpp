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

int32_t max_edge_weight(const EdgeList& g) {
  int32_t m = 0;
  for (const Edge& e : g.edges)
    if (e.src != e.dst) m = std::max(m, e.w);
  return m;
}

}  // namespace apsp
