// The generators shaped like graphs people have: a road-like grid with metric weights (and
// optional long edges, like the DIMACS SPGRID family) and a power-law social graph (Barabasi-
// Albert preferential attachment). Integer arithmetic only, so that every platform gives the
// same weights: a road's metric is computed on integer points with an exact rounded-up root.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/generators.hpp"

namespace apsp {

namespace {

// Grid points are kSpacing units apart and each moves up to kJitter units along each axis, so
// that two vertices never meet (kJitter < kSpacing / 2) and roads are not all of one length.
constexpr int64_t kSpacing = 1024;
constexpr int64_t kJitter = kSpacing / 4;
// The longest a grid edge can be, rounded up: a grid edge of that length weighs wmax.
constexpr int64_t kUnit = 1620;
constexpr int64_t kLongestGridSquared =
    (kSpacing + 2 * kJitter) * (kSpacing + 2 * kJitter) + (2 * kJitter) * (2 * kJitter);
static_assert(kUnit * kUnit >= kLongestGridSquared &&
              (kUnit - 1) * (kUnit - 1) < kLongestGridSquared);

struct Point {
  int64_t x, y;
};

int64_t rows_of(int64_t V, int64_t cols) { return (V + cols - 1) / cols; }

// Where vertex v sits: from a stream of its own, so that any vertex's point is known alone.
Point road_point(const GraphSpec& s, int64_t v, int64_t cols) {
  SplitMix64 r(s.seed ^ (static_cast<uint64_t>(v) * 0xD1B54A32D192ED03ull));
  const int64_t jx = static_cast<int64_t>(r.below(2 * kJitter + 1)) - kJitter;
  const int64_t jy = static_cast<int64_t>(r.below(2 * kJitter + 1)) - kJitter;
  return {(v % cols) * kSpacing + jx, (v / cols) * kSpacing + jy};
}

// The least w with w * kUnit >= wmax * sqrt(d2): the scaled length rounded up, exactly (the
// double root is only the first guess; squares of up to 2^111 fit in 128 bits).
int64_t scaled_length(int64_t d2, int64_t wmax) {
  using U = unsigned __int128;
  const U target = static_cast<U>(wmax) * static_cast<U>(wmax) * static_cast<U>(d2);
  const auto reaches = [&](int64_t w) {
    const U side = static_cast<U>(w) * kUnit;
    return side * side >= target;
  };
  int64_t w = static_cast<int64_t>(
      std::ceil(std::sqrt(static_cast<double>(d2)) * static_cast<double>(wmax) / kUnit));
  while (w > 0 && reaches(w - 1)) --w;
  while (!reaches(w)) ++w;
  return w;
}

int64_t squared_distance(Point a, Point b) {
  return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y);
}

}  // namespace

int64_t road_columns(int64_t num_vertices) {
  int64_t cols = static_cast<int64_t>(std::sqrt(static_cast<double>(num_vertices)));
  while (cols * cols < num_vertices) ++cols;
  while (cols > 1 && (cols - 1) * (cols - 1) >= num_vertices) --cols;
  return std::max<int64_t>(cols, 1);
}

int64_t road_lower_bound(const GraphSpec& s, int32_t a, int32_t b) {
  const int64_t cols = road_columns(s.num_vertices);
  return scaled_length(squared_distance(road_point(s, a, cols), road_point(s, b, cols)), s.wmax);
}

int64_t road_max_weight(const GraphSpec& s) {
  if (s.long_edges == 0 || s.num_vertices < 2) return s.wmax;
  const int64_t cols = road_columns(s.num_vertices);
  const int64_t width = (cols - 1) * kSpacing + 2 * kJitter;
  const int64_t height = (rows_of(s.num_vertices, cols) - 1) * kSpacing + 2 * kJitter;
  const int64_t across = scaled_length(width * width + height * height, s.wmax);
  return std::max<int64_t>(s.wmax, across + across / 2);
}

EdgeList generate_road(const GraphSpec& s, SplitMix64& rng) {
  const int64_t V = s.num_vertices, cols = road_columns(V);
  EdgeList g;
  g.num_vertices = s.num_vertices;
  g.edges.reserve(static_cast<size_t>(expected_edges(s)));
  const auto both_ways = [&](int64_t a, int64_t b, int64_t w) {
    const int32_t weight = static_cast<int32_t>(std::max<int64_t>(s.wmin, w));
    g.edges.push_back(Edge{static_cast<int32_t>(a), static_cast<int32_t>(b), weight});
    g.edges.push_back(Edge{static_cast<int32_t>(b), static_cast<int32_t>(a), weight});
  };
  for (int64_t i = 0; i < V; ++i) {
    const Point p = road_point(s, i, cols);
    if ((i + 1) % cols != 0 && i + 1 < V)
      both_ways(i, i + 1, scaled_length(squared_distance(p, road_point(s, i + 1, cols)), s.wmax));
    if (i + cols < V)
      both_ways(i, i + cols,
                scaled_length(squared_distance(p, road_point(s, i + cols, cols)), s.wmax));
  }
  // Long edges weigh 1 to 1.5 times their metric length: shortcuts that never undercut the
  // metric, so road_lower_bound stays a lower bound of every distance.
  for (int64_t e = 0; V >= 2 && e < s.long_edges; ++e) {
    const int64_t a = static_cast<int64_t>(rng.below(V));
    int64_t b = static_cast<int64_t>(rng.below(V - 1));
    b += b >= a;
    const int64_t bound = road_lower_bound(s, static_cast<int32_t>(a), static_cast<int32_t>(b));
    both_ways(a, b, bound + static_cast<int64_t>(rng.below(bound / 2 + 1)));
  }
  return g;
}

EdgeList generate_social(const GraphSpec& s, SplitMix64& rng) {
  const int64_t V = s.num_vertices, m = s.attach;
  const uint64_t wspan = static_cast<uint64_t>(s.wmax - s.wmin) + 1;
  EdgeList g;
  g.num_vertices = s.num_vertices;
  g.edges.reserve(static_cast<size_t>(expected_edges(s)));
  std::vector<int32_t> ends;  // each vertex once per edge it has: a uniform draw is by degree
  ends.reserve(static_cast<size_t>(2 * m * std::max<int64_t>(V, 1)));
  const auto both_ways = [&](int64_t a, int64_t b) {
    const int32_t w = static_cast<int32_t>(s.wmin + static_cast<int64_t>(rng.below(wspan)));
    g.edges.push_back(Edge{static_cast<int32_t>(a), static_cast<int32_t>(b), w});
    g.edges.push_back(Edge{static_cast<int32_t>(b), static_cast<int32_t>(a), w});
    ends.push_back(static_cast<int32_t>(a));
    ends.push_back(static_cast<int32_t>(b));
  };
  for (int64_t leaf = 1; leaf < std::min(V, m + 1); ++leaf) both_ways(0, leaf);
  std::vector<int32_t> targets;
  for (int64_t v = m + 1; v < V; ++v) {
    targets.clear();
    while (static_cast<int64_t>(targets.size()) < m) {
      const int32_t t = ends[rng.below(ends.size())];
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
    }
    for (int32_t t : targets) both_ways(v, t);
  }
  return g;
}

}  // namespace apsp
