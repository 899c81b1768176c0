// CPU solvers. floyd_warshall_blocked is the reference every GPU variant is checked against;
// the plain triple loop and Dijkstra exist to test it. Each comes in int32 (DistMatrix,
// unreachable kInf) and in 64 bits (DistMatrix64, unreachable kInf64: the exact path for graphs
// whose distances reach kInf), one code for both.
#pragma once

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
