// 03 batched: the course report's batched phases. 32 x 32 tiles as blocked32, but a phase-2
// block takes batch2 tiles of the pivot row or column and a phase-3 block batch3 x batch3
// tiles, so the pivot data a block loads is shared by its whole batch (default 6 x 6, the
// report's choice). Every access stays bounds-checked; 04 batched_edge removes that.
#include "variants/batched_common.hpp"

namespace apsp {
namespace {

Variant make_batched() {
  Variant v = batched::make(/*split_edges=*/false);
  v.name = "batched";
  v.summary = "32x32 tiles; phase-2 blocks take batch2 tiles, phase-3 blocks batch3 x batch3";
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_batched)

const RoundSchedule kBatchedRounds{"batched", kernels::kTileB, batched::rounds<false>};

}  // namespace apsp
