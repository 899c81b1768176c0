#include "core/generators.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace apsp {

std::string_view to_string(GraphKind kind) {
  switch (kind) {
    case GraphKind::kRandom:
      return "random";
    case GraphKind::kChain:
      return "chain";
    case GraphKind::kGrid:
      return "grid";
    case GraphKind::kComponents:
      return "components";
    case GraphKind::kStar:
      return "star";
    case GraphKind::kRoad:
      return "road";
    case GraphKind::kSocial:
      return "social";
  }
  return "?";
}

std::optional<GraphKind> parse_graph_kind(std::string_view name) {
  for (GraphKind k :
       {GraphKind::kRandom, GraphKind::kChain, GraphKind::kGrid, GraphKind::kComponents,
        GraphKind::kStar, GraphKind::kRoad, GraphKind::kSocial}) {
    if (to_string(k) == name) return k;
  }
  return std::nullopt;
}

std::string graph_kind_names() { return "random|chain|grid|components|star|road|social"; }

uint64_t SplitMix64::below(uint64_t bound) {
  unsigned __int128 m = static_cast<unsigned __int128>(next()) * bound;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < bound) {
    const uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next()) * bound;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

bool SplitMix64::chance(double p) {
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  // p * 2^64 is exact IEEE arithmetic, so the threshold is the same on every platform.
  return next() < static_cast<uint64_t>(std::ldexp(p, 64));
}

namespace {

// Throws std::invalid_argument (one line) for a spec no generator accepts. No bound on
// (V-1)*wmax: a path that long need not be a shortest one, and the solver proves after the
// solve that nothing reached kInf.
void check_spec(const GraphSpec& s) {
  const int64_t V = s.num_vertices;
  if (V <= 0) throw std::invalid_argument(fmt::format("V must be positive, got {}", V));
  if (s.wmin < 0 || s.wmin > s.wmax) {
    throw std::invalid_argument(
        fmt::format("need 0 <= wmin <= wmax, got [{}, {}]", s.wmin, s.wmax));
  }
  if (!(s.density >= 0.0 && s.density <= 1.0)) {
    throw std::invalid_argument(fmt::format("density must be in [0, 1], got {}", s.density));
  }
  if (s.kind == GraphKind::kComponents && s.components <= 0) {
    throw std::invalid_argument("components must be positive");
  }
  if (s.kind == GraphKind::kSocial && s.attach <= 0) {
    throw std::invalid_argument(fmt::format("attach must be positive, got {}", s.attach));
  }
  if (s.long_edges < 0) {
    throw std::invalid_argument(fmt::format("long edges must be >= 0, got {}", s.long_edges));
  }
  if (s.kind == GraphKind::kRoad && s.duplicates > 0.0) {  // a copy drawn below its metric
    throw std::invalid_argument("a road's edges cannot be duplicated at other weights");
  }
  if (s.kind == GraphKind::kRoad && road_max_weight(s) >= kInf) {
    throw std::invalid_argument(fmt::format(
        "a long edge across this road grid could weigh {}, reaching the unreachable value {}",
        road_max_weight(s), kInf));
  }
}

// The edges of s's kind, each added through add(a, b), in the order every platform shares.
template <class Add>
void add_edges(const GraphSpec& s, SplitMix64& rng, Add&& add, std::vector<Edge>& edges) {
  const int64_t V = s.num_vertices;
  switch (s.kind) {
    case GraphKind::kRandom:
      if (s.num_edges >= 0) {
        edges.reserve(static_cast<size_t>(s.num_edges));
        for (int64_t e = 0; e < s.num_edges; ++e) {
          const int64_t a = static_cast<int64_t>(rng.below(V));
          add(a, static_cast<int64_t>(rng.below(V)));
        }
      } else {
        edges.reserve(static_cast<size_t>(s.density * V * (V - 1)) + 16);
        for (int64_t i = 0; i < V; ++i)
          for (int64_t j = 0; j < V; ++j)
            if (i != j && rng.chance(s.density)) add(i, j);
      }
      break;
    case GraphKind::kChain:
      for (int64_t i = 0; i + 1 < V; ++i) add(i, i + 1);
      break;
    case GraphKind::kGrid: {
      const int64_t cols = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(V))));
      for (int64_t i = 0; i < V; ++i) {
        if ((i + 1) % cols != 0 && i + 1 < V) {
          add(i, i + 1);
          add(i + 1, i);
        }
        if (i + cols < V) {
          add(i, i + cols);
          add(i + cols, i);
        }
      }
      break;
    }
    case GraphKind::kComponents:
      for (int64_t i = 0; i < V; ++i)
        for (int64_t j = 0; j < V; ++j)
          if (i != j && i % s.components == j % s.components && rng.chance(s.density)) add(i, j);
      break;
    case GraphKind::kStar:
      for (int64_t i = 1; i < V; ++i) {
        add(0, i);
        add(i, 0);
      }
      break;
    case GraphKind::kRoad:  // their own generators (generate)
    case GraphKind::kSocial:
      break;
  }
}

}  // namespace

EdgeList generate(const GraphSpec& s) {
  check_spec(s);
  SplitMix64 rng(s.seed);
  const uint64_t wspan = static_cast<uint64_t>(s.wmax - s.wmin) + 1;
  auto weight = [&] {
    return static_cast<int32_t>(s.wmin + static_cast<int64_t>(rng.below(wspan)));
  };
  EdgeList g;
  g.num_vertices = static_cast<int32_t>(s.num_vertices);
  auto add = [&](int64_t a, int64_t b) {
    g.edges.push_back(Edge{static_cast<int32_t>(a), static_cast<int32_t>(b), weight()});
  };
  if (s.kind == GraphKind::kRoad) {
    g = generate_road(s, rng);
  } else if (s.kind == GraphKind::kSocial) {
    g = generate_social(s, rng);
  } else {
    add_edges(s, rng, add, g.edges);
  }
  if (s.duplicates > 0.0) {
    const size_t original = g.edges.size();
    for (size_t e = 0; e < original; ++e) {
      if (rng.chance(s.duplicates))
        g.edges.push_back(Edge{g.edges[e].src, g.edges[e].dst, weight()});
    }
  }
  return g;
}

uint64_t expected_edges(const GraphSpec& s) {
  const double V = s.num_vertices;
  double edges = 0;
  switch (s.kind) {
    case GraphKind::kRandom:
      edges = s.num_edges >= 0 ? static_cast<double>(s.num_edges) : s.density * V * (V - 1);
      break;
    case GraphKind::kChain:
      edges = V - 1;
      break;
    case GraphKind::kGrid:
      edges = 4 * V;
      break;
    case GraphKind::kComponents:
      edges = s.density * V * (V / std::max(1, s.components) - 1);
      break;
    case GraphKind::kStar:
      edges = 2 * (V - 1);
      break;
    case GraphKind::kRoad: {
      const double cols = static_cast<double>(road_columns(s.num_vertices));
      const double rows = std::ceil(V / cols);
      edges =
          2 * (V - rows) + 2 * std::max(0.0, V - cols) + 2.0 * static_cast<double>(s.long_edges);
      break;
    }
    case GraphKind::kSocial: {
      const double m = std::max(1, s.attach);
      edges = 2 * (std::min(V, m + 1) - 1) + 2 * m * std::max(0.0, V - m - 1);
      break;
    }
  }
  edges *= 1 + s.duplicates;
  return edges >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(std::max(0.0, edges));
}

std::string describe(const GraphSpec& s) {
  std::string size;
  if (s.kind == GraphKind::kRandom && s.num_edges >= 0)
    size = fmt::format(" with E = {}", s.num_edges);
  else if (s.kind == GraphKind::kRandom || s.kind == GraphKind::kComponents)
    size = fmt::format(" at density {}", s.density);
  else if (s.kind == GraphKind::kRoad && s.long_edges > 0)
    size = fmt::format(" with {} long edges", s.long_edges);
  else if (s.kind == GraphKind::kSocial)
    size = fmt::format(" with {} edges per new vertex", s.attach);
  return fmt::format("a {} graph of V = {}{}", to_string(s.kind), s.num_vertices, size);
}

uint64_t generation_bytes(const GraphSpec& s) {
  const auto digits = [](int64_t x) { return static_cast<uint64_t>(fmt::formatted_size("{}", x)); };
  // An edge: its 12 bytes in the list, and "src dst w\n" in the text (at most this wide).
  const int64_t heaviest = s.kind == GraphKind::kRoad ? road_max_weight(s) : s.wmax;
  const uint64_t per_edge =
      sizeof(Edge) + 2 * digits(std::max(0, s.num_vertices - 1)) + digits(heaviest) + 3;
  const uint64_t edges = expected_edges(s);
  return edges > UINT64_MAX / per_edge ? UINT64_MAX : edges * per_edge;
}

}  // namespace apsp
