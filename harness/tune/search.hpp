// Search strategies over a declared parameter space. They know nothing of GPUs: the objective
// measures a point (or returns nullopt when the point is rejected or disqualified), so the
// strategies are tested on synthetic cost functions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "variants/variant.hpp"

namespace apsp::harness {

using Objective = std::function<std::optional<double>(const Config&)>;
// Which combinations of the space are points at all (a variant's compiled configs); the
// strategies never visit, count or budget the others. Empty: every combination.
using Exists = std::function<bool(const Config&)>;

struct SearchResult {
  std::string strategy;
  int evaluated = 0;  // objective calls (each point at most once)
  std::vector<std::pair<Config, std::optional<double>>> points;  // in evaluation order
  std::optional<Config> best;
  double best_score = 0;
};

SearchResult grid_search(const std::vector<Param>& space, const Config& base, const Objective& f,
                         const Exists& exists = {});
// `budget` distinct points in a seeded random order.
SearchResult random_search(const std::vector<Param>& space, const Config& base, int budget,
                           uint64_t seed, const Objective& f, const Exists& exists = {});
// Hill climbing from `base`: moves to the best neighbour (one parameter one step along its
// value list) while that improves; when stuck, restarts from a seeded random unvisited point,
// until `budget` points are evaluated or none is left.
SearchResult hill_climb(const std::vector<Param>& space, const Config& base, int budget,
                        uint64_t seed, const Objective& f, const Exists& exists = {});

}  // namespace apsp::harness
