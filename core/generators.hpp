// Seeded graph generators. The same spec gives the same graph on every platform: the random
// numbers come from splitmix64 and our own bounded draw, never from <random>'s distributions,
// whose output the standard leaves to each library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/dist_matrix.hpp"

namespace apsp {

enum class GraphKind { kRandom, kChain, kGrid, kComponents, kStar, kRoad, kSocial };

std::string_view to_string(GraphKind kind);
std::optional<GraphKind> parse_graph_kind(std::string_view name);
// "random|chain|grid|components|star|road|social"
std::string graph_kind_names();

struct GraphSpec {
  GraphKind kind = GraphKind::kRandom;
  int32_t num_vertices = 1000;
  double density = 0.1;    // random, components: probability of each ordered pair (i != j)
  int64_t num_edges = -1;  // random: if >= 0, exactly this many edges drawn with replacement
  int32_t wmin = 1;        // weights are drawn uniformly from [wmin, wmax]
  int32_t wmax = 1000;
  uint64_t seed = 1;
  int32_t components = 4;   // components: vertex i belongs to component i % components
  double duplicates = 0.0;  // fraction of edges repeated with another weight (tests "min wins")
  int64_t long_edges = 0;   // road: extra edges between random vertex pairs, each both ways
  int32_t attach = 3;       // social: edges from each new vertex to the ones before it
};

// Throws std::invalid_argument for a spec that makes no sense (V <= 0, wmin > wmax, negative
// weights, a road whose long edges could weigh kInf). A path of V - 1 edges of weight wmax may
// reach kInf: whether the distances fit is the solver's to prove, and a road's stay far below.
EdgeList generate(const GraphSpec& spec);

// The edges `spec` gives (random with --E: exactly; by density: the expected count), and the
// bytes gen_graph holds at its peak: the edge list and its text, side by side.
uint64_t expected_edges(const GraphSpec& spec);
// "a random graph of V = 100000 at density 1", "a random graph of V = 5 with E = 1099511627776".
std::string describe(const GraphSpec& spec);
uint64_t generation_bytes(const GraphSpec& spec);

// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and the same sequence everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound), bound > 0 (Lemire's multiply-shift with rejection).
  uint64_t below(uint64_t bound);
  // True with probability p.
  bool chance(double p);

 private:
  uint64_t state_;
};

// The road-like grid (kind road): vertex v sits at a jittered point of a grid of
// road_columns(V) columns, and each edge weighs at least the Euclidean distance of its ends,
// scaled so that a grid edge weighs at most wmax. road_lower_bound(spec, a, b) is that scaled
// distance, rounded up: no path from a to b weighs less.
int64_t road_columns(int64_t num_vertices);
int64_t road_lower_bound(const GraphSpec& spec, int32_t a, int32_t b);
// The kinds that are not uniform draws over a pattern: road (grid edges both ways at their
// metric weight, then long edges at 1 to 1.5 times theirs) and social (Barabasi-Albert
// preferential attachment from a star of attach + 1 vertices, as NetworkX's
// barabasi_albert_graph; each edge both ways, weights uniform in [wmin, wmax]).
EdgeList generate_road(const GraphSpec& spec, SplitMix64& rng);
EdgeList generate_social(const GraphSpec& spec, SplitMix64& rng);
// The heaviest edge a road spec can give: a long edge across the whole grid.
int64_t road_max_weight(const GraphSpec& spec);

}  // namespace apsp
