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

// "" when a graph of n vertices whose largest finite input entry is max_weight is solved exactly
// in 16 bits: (n - 1) * max_weight < kInf16 (and max_weight < kInf16, which only n = 1 needs);
// otherwise the reason, in one line.
std::string u16_admission(int n, int64_t max_weight);

// The largest finite entry (< kInf) of the matrix: what u16_admission takes. 0 for a matrix with
// none (n = 0). Parallel over rows (`threads`, 0: all cores).
int32_t max_finite_entry(const DistMatrix& d, int threads = 0);

// The largest weight of an edge that is not a self loop (0 when there is none): at least the
// matrix's max_finite_entry (a duplicated edge keeps its smallest weight there), so a rule it
// passes the matrix passes too. What `apsp` decides from, with no matrix on the host.
int32_t max_edge_weight(const EdgeList& g);

}  // namespace apsp
