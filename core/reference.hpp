// CPU solvers. floyd_warshall_blocked is the reference every GPU variant is checked against;
// the plain triple loop and Dijkstra exist to test it. Each comes in int32 (DistMatrix,
// unreachable kInf) and in 64 bits (DistMatrix64, unreachable kInf64: the exact path for graphs
// whose distances reach kInf), one code for both.
#pragma once

#include <cstdint>
#include <functional>

#include "core/dist_matrix.hpp"

namespace apsp {

// Called after each round (k-block) of a blocked solve: rounds done, rounds in all. Rounds take
// equal work, so the share done is a fair clock (apsp's progress line and estimate).
using RoundCallback = std::function<void(int done, int rounds)>;

// Blocked Floyd-Warshall in place, phases 2 and 3 spread over `threads` threads (0: all cores).
void floyd_warshall_blocked(DistMatrix& d, int threads = 0, const RoundCallback& after_round = {});
void floyd_warshall_blocked(DistMatrix64& d, int threads = 0,
                            const RoundCallback& after_round = {});

// SciPy's predecessor value for "none" (scipy.sparse.csgraph: the diagonal, unreachable pairs).
inline constexpr int32_t kScipyNoPredecessor = -9999;

// Floyd-Warshall on doubles in scipy.sparse.csgraph.floyd_warshall's order: k, then i, then j,
// d[i][j] replaced only by a strictly smaller d[i][k] + d[k][j], and with it pred[i][j] by
// pred[k][j]. d: n x n, +inf where there is no edge, any finite weight, 0 on the diagonal. The
// rows of a step run on `threads` threads (0: all cores) and still give SciPy's bits: while
// d[k][k] = 0, step k changes neither row k nor column k, so its rows are independent. A step
// whose d[k][k] is already below 0 (a negative cycle) runs its rows in order instead. pred
// (n x n, may be null) is initialised as SciPy's: i where d[i][j] is finite and i != j, else
// kScipyNoPredecessor.
void floyd_warshall_scipy_order(double* d, int n, int32_t* pred, int threads = 0);

// The textbook triple loop, in place.
void floyd_warshall_plain(DistMatrix& d);
void floyd_warshall_plain(DistMatrix64& d);

// Dijkstra from every source with a binary heap on the graph's edges; in int32 a distance that
// reaches kInf is kInf.
DistMatrix dijkstra_all_pairs(const EdgeList& graph);
DistMatrix64 dijkstra_all_pairs64(const EdgeList& graph);

// The distance matrix of a graph, by the reference.
DistMatrix solve_reference(const EdgeList& graph, int threads = 0);
DistMatrix64 solve_reference64(const EdgeList& graph, int threads = 0);

}  // namespace apsp
