// The shortest-path certificate (harness/verify/certificate.hpp) of a result held as row blocks
// over ranks, each rank checking its own rows on its device: no gather of the matrix.
//   1. each rank's first pass over the edges whose sources are its rows, which keeps their
//      essential edges (rank_in_edges);
//   2. the lowest first-pass fault over all ranks; if there is none, the essential edges of every
//      rank joined (join_in_edges; across processes through Transport::allgather) into G', the
//      essential subgraph one GPU would have found;
//   3. each rank's row checks of its rows over G'; the lowest fault over all ranks;
//   4. that fault described by its row's owner, as one GPU describes it.
// The same fault and the same line as the one-GPU certificate, because a fault key orders the
// entries globally and each rule reads only the entry's row and the edges.
#pragma once

#include <string>

#include "harness/multigpu/distributed.hpp"
#include "harness/verify/certificate.hpp"

namespace apsp::harness {

// "" when the blocks of `solver` (after a solve) hold g's distance matrix; else the lowest fault.
// Under a launcher every process calls it and gets the same line.
std::string certify_ranks(const DistributedSolver& solver, const InEdges& g);

// Device memory one rank's certificate takes at most beside its block (its in-edges, G', and a
// batch's flags), for a graph of n vertices and `edges` edges.
uint64_t rank_certificate_bytes(int n, uint64_t edges);

}  // namespace apsp::harness
