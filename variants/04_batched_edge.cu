// 04 batched_edge: the course report's boundary-specialised phase 3. batched, with phase 3
// split: blocks wholly inside the matrix run without bounds checks, only the blocks on its
// edge (and the rounds whose pivot tile is partial) run the checked path.
#include "variants/batched_common.hpp"

namespace apsp {
namespace {

Variant make_batched_edge() {
  Variant v = batched::make(/*split_edges=*/true);
  v.name = "batched_edge";
  v.summary = "batched, phase 3 split into an unchecked interior path and a checked edge path";
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_batched_edge)

const RoundSchedule kBatchedEdgeRounds{"batched_edge", kernels::kTileB, batched::rounds<true>};

}  // namespace apsp
