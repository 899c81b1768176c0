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

enum class GraphKind { kRandom, kChain, kGrid, kComponents, kStar };

std::string_view to_string(GraphKind kind);
std::optional<GraphKind> parse_graph_kind(std::string_view name);
// "random|chain|grid|components|star"
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
};

// Throws std::invalid_argument for a spec that makes no sense (V <= 0, wmin > wmax, negative
// weights, or (V-1)*wmax reaching kInf).
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

}  // namespace apsp
