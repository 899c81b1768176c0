// Sample statistics for timings: order statistics, spread, and a bootstrap interval for the
// ratio of two medians (the speedup), seeded so a report is reproducible.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace apsp {

struct Summary {
  double median = 0, min = 0, max = 0, mean = 0, stddev = 0, cv = 0;
  int count = 0;
};

double median(std::vector<double> v);
// Throws std::invalid_argument on an empty sample.
Summary summarize(const std::vector<double>& v);

// 95% percentile-bootstrap interval of median(num) / median(den): both samples resampled with
// replacement `rounds` times. With one value in each sample the interval is the point itself.
std::pair<double, double> bootstrap_ratio_ci95(const std::vector<double>& num,
                                               const std::vector<double>& den, int rounds = 2000,
                                               uint64_t seed = 1);

}  // namespace apsp
