// 16-bit distances: when a graph may be solved in packed unsigned 16-bit pairs (sm90_u16) with
// the same answer, bit for bit, as in int32. Host-only.
//
// The 16-bit "unreachable" is kInf16 = 0x7FFF: a sum of two stored values is at most 0xFFFE, so
// no half of a packed add ever wraps. A shortest path has at most n - 1 edges, each at most the
// largest finite entry w of the input matrix (the smallest weight of each edge; kInf means no
// edge), so when (n - 1) * w < kInf16 every distance is below kInf16, an unreachable pair stays
// exactly kInf16, and the conversion back (x >= kInf16 -> kInf, else x) is exact.
#pragma once

#include <cstdint>
#include <string>

#include "core/dist_matrix.hpp"

namespace apsp {

inline constexpr int32_t kInf16 = 0x7FFF;

// What a results run computed in: "int32", sm90_u16's "u16x2" or a 64-bit variant's "int64"
// (results' precision field; a run's share of the ceiling is against its own precision's ceiling).
inline constexpr const char* kPrecisionInt32 = "int32";
inline constexpr const char* kPrecisionU16x2 = "u16x2";
inline constexpr const char* kPrecisionInt64 = "int64";

// The 64-bit "unreachable", kInf64, is core/dist_matrix.hpp's, beside kInf and DistMatrix64.

// The exactness proof. A solve in a precision whose "unreachable" is U (kInf16, kInf, kInf64)
// stores only values <= U, and min(c, a + b) of two such values never overflows (2U fits), so a
// blocked or plain Floyd-Warshall computes exactly min(true distance, U) for every pair: the map
// x -> min(x, U) carries min and + over (a sum past U becomes U), whatever order the updates take.
// What remains is a true distance >= U, shown as U, "unreachable". Let M be the largest entry
// below U of the result and W the largest edge weight. If M + W < U, no true distance is >= U:
// otherwise take a pair (s, t) at finite true distance >= U and a shortest path from s to t; its
// first vertex v with true distance >= U is not s (d(s, s) = 0), so its predecessor u on the path
// has true distance d(s, u) < U, computed exactly, so d(s, u) <= M; and d(s, v) = d(s, u) +
// w(u, v) <= M + W < U, a contradiction. So every entry below U is exact and every U is
// unreachable. The check needs the result's maximum and nothing a priori but the weights' fit
// (W < U, so that the input itself is exact).

// The "unreachable" of a precision (kPrecisionU16x2: kInf16, kPrecisionInt32: kInf,
// kPrecisionInt64: kInf64). std::invalid_argument for another name.
int64_t unreachable_of(const std::string& precision);
// "" when a solve in `precision` may take a graph whose largest edge weight is max_weight (it is
// below the precision's unreachable); else why not, one line. Its result is then proven, below.
std::string weights_fit(const std::string& precision, int64_t max_weight);
// "" when the proof above holds for a result whose largest entry below `unreachable` is
// max_distance; else the reason, one line, with the numbers.
std::string exactness_fault(int64_t max_distance, int64_t max_weight, int64_t unreachable);

// "" when a graph of n vertices whose largest finite input entry is max_weight is solved exactly
// in 16 bits, known before the solve (what the bench and the tuner ask: they must know whether a
// run will be exact before it runs; apsp proves after the solve instead): (n - 1) * max_weight < kInf16 (and max_weight < kInf16, which only n = 1 needs);
// otherwise the reason, in one line.
std::string u16_admission(int n, int64_t max_weight);

// The largest finite entry (< kInf) of the matrix: what u16_admission takes. 0 for a matrix with
// none (n = 0). Parallel over rows (`threads`, 0: all cores).
int32_t max_finite_entry(const DistMatrix& d, int threads = 0);
// The same below kInf64, for the 64-bit path's proof.
int64_t max_finite_entry(const DistMatrix64& d, int threads = 0);

// A lower bound of a graph's largest finite distance, found before the solve so that a precision
// whose proof cannot hold is not tried (apsp's auto skips 16 bits where bound + largest weight
// reaches kInf16): the distances from one vertex, the one with the most out-edges (the lowest
// such id), by one Dijkstra sweep over buckets of distance, stopped at `enough`. `distance` is
// the largest distance from `source` to a vertex it reaches, or `enough` where one is at least
// that far: never above the graph's largest finite distance. Takes O(V + E + enough) time and
// O(V + E + enough) memory; `enough` is at most 2^24 (std::invalid_argument otherwise).
struct DistanceFloor {
  int64_t distance = 0;
  int source = 0;
};
DistanceFloor largest_distance_floor(const EdgeList& g, int64_t enough);

// The largest weight of an edge that is not a self loop (0 when there is none): at least the
// matrix's max_finite_entry (a duplicated edge keeps its smallest weight there), so a rule it
// passes the matrix passes too. What `apsp` decides from, with no matrix on the host.
int32_t max_edge_weight(const EdgeList& g);

}  // namespace apsp
