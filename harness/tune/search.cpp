#include "harness/tune/search.hpp"

#include <algorithm>
#include <map>

#include "core/generators.hpp"

namespace apsp::harness {

namespace {

// Evaluates each point once and tracks the best.
class Tracker {
 public:
  Tracker(std::string strategy, const Objective& f) : f_(f) { r_.strategy = std::move(strategy); }
  bool seen(const Config& c) const { return cache_.count(c) > 0; }
  std::optional<double> eval(const Config& c) {
    if (auto it = cache_.find(c); it != cache_.end()) return it->second;
    const std::optional<double> s = f_(c);
    cache_[c] = s;
    ++r_.evaluated;
    r_.points.emplace_back(c, s);
    if (s && (!r_.best || *s < r_.best_score)) {
      r_.best = c;
      r_.best_score = *s;
    }
    return s;
  }
  int evaluated() const { return r_.evaluated; }
  SearchResult result() { return r_; }

 private:
  const Objective& f_;
  std::map<Config, std::optional<double>> cache_;
  SearchResult r_;
};

bool exists_in(const Exists& exists, const Config& c) { return !exists || exists(c); }

// The points of the space: its combinations that exist.
std::vector<Config> points_of(const std::vector<Param>& space, const Config& base,
                              const Exists& exists) {
  std::vector<Config> all = enumerate_space(space, base);
  std::erase_if(all, [&](const Config& c) { return !exists_in(exists, c); });
  return all;
}

void shuffle(std::vector<Config>& v, uint64_t seed) {
  SplitMix64 rng(seed);
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

}  // namespace

SearchResult grid_search(const std::vector<Param>& space, const Config& base, const Objective& f,
                         const Exists& exists) {
  Tracker t("grid", f);
  for (const Config& c : points_of(space, base, exists)) t.eval(c);
  return t.result();
}

SearchResult random_search(const std::vector<Param>& space, const Config& base, int budget,
                           uint64_t seed, const Objective& f, const Exists& exists) {
  Tracker t("random", f);
  std::vector<Config> all = points_of(space, base, exists);
  shuffle(all, seed);
  for (const Config& c : all) {
    if (t.evaluated() >= budget) break;
    t.eval(c);
  }
  return t.result();
}

SearchResult hill_climb(const std::vector<Param>& space, const Config& base, int budget,
                        uint64_t seed, const Objective& f, const Exists& exists) {
  Tracker t("local", f);
  std::vector<Config> restarts = points_of(space, base, exists);
  shuffle(restarts, seed);
  SplitMix64 rng(seed ^ 0x5eed);
  Config current = base;
  std::optional<double> score = t.eval(current);
  while (t.evaluated() < budget) {
    std::vector<Config> neighbours;
    for (const Param& p : space) {
      const auto at = std::find(p.values.begin(), p.values.end(), current.at(p.name));
      const long i = at - p.values.begin();
      for (long j : {i - 1, i + 1}) {
        if (j < 0 || j >= static_cast<long>(p.values.size())) continue;
        Config c = current;
        c[p.name] = p.values[j];
        if (exists_in(exists, c)) neighbours.push_back(std::move(c));
      }
    }
    for (size_t i = neighbours.size(); i > 1; --i)
      std::swap(neighbours[i - 1], neighbours[rng.below(i)]);
    std::optional<Config> next;
    std::optional<double> next_score;
    for (const Config& c : neighbours) {
      if (t.evaluated() >= budget && !t.seen(c)) break;
      const std::optional<double> s = t.eval(c);
      if (s && (!score || *s < *score) && (!next_score || *s < *next_score)) {
        next = c;
        next_score = s;
      }
    }
    if (next) {
      current = *next;
      score = next_score;
      continue;
    }
    // A local optimum: restart from an unvisited point, if any is left.
    auto fresh =
        std::find_if(restarts.begin(), restarts.end(), [&](const Config& c) { return !t.seen(c); });
    if (fresh == restarts.end() || t.evaluated() >= budget) break;
    current = *fresh;
    score = t.eval(current);
  }
  return t.result();
}

}  // namespace apsp::harness
