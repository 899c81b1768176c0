#include "core/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/generators.hpp"

namespace apsp {

double median(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("median of an empty sample");
  const size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + h, v.end());
  if (v.size() % 2 == 1) return v[h];
  const double upper = v[h];
  return (*std::max_element(v.begin(), v.begin() + h) + upper) / 2;
}

Summary summarize(const std::vector<double>& v) {
  if (v.empty()) throw std::invalid_argument("summary of an empty sample");
  Summary s;
  s.count = static_cast<int>(v.size());
  s.median = median(v);
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / s.count;
  double sq = 0;
  for (double x : v) sq += (x - s.mean) * (x - s.mean);
  s.stddev = s.count > 1 ? std::sqrt(sq / (s.count - 1)) : 0.0;  // sample standard deviation
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0.0;
  return s;
}

std::pair<double, double> bootstrap_ratio_ci95(const std::vector<double>& num,
                                               const std::vector<double>& den, int rounds,
                                               uint64_t seed) {
  if (num.empty() || den.empty()) throw std::invalid_argument("bootstrap of an empty sample");
  SplitMix64 rng(seed);
  std::vector<double> ratios(rounds), a(num.size()), b(den.size());
  for (int r = 0; r < rounds; ++r) {
    for (double& x : a) x = num[rng.below(num.size())];
    for (double& x : b) x = den[rng.below(den.size())];
    ratios[r] = median(a) / median(b);
  }
  std::sort(ratios.begin(), ratios.end());
  auto at = [&](double q) {
    const size_t i = static_cast<size_t>(std::floor(q * (rounds - 1) + 0.5));
    return ratios[std::min(i, ratios.size() - 1)];
  };
  return {at(0.025), at(0.975)};
}

}  // namespace apsp
