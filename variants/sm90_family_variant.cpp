#include "variants/sm90_family_variant.hpp"

#include <algorithm>

#include "variants/instances.hpp"
#include "variants/sm90_schedules.hpp"

namespace apsp::sm90_family {

namespace {

std::string lookahead_text(const std::vector<int>& values) {
  std::string text =
      "0: three launches a round; 1: phase 3 beside a side stream preparing the next round; 2: "
      "two "
      "launches a round, the next pivot inside phase 3 on an SM of its own; 3 (chunk 16 only): "
      "as 1 "
      "over pairs of rounds, phase 3 taking both in one pass";
  if (std::find(values.begin(), values.end(), 5) != values.end())
    text +=
        "; 5 (tile 64, chunk 16): as 3, one step of the side stream's chain (E) on a third "
        "stream";
  if (std::find(values.begin(), values.end(), 4) != values.end())
    text += "; 4 (tile 64, chunk 16, 4 x 4): as 5, phase 3 held to three blocks an SM";
  return text;
}

}  // namespace

Config make_config(int tile, int chunk, int per_thread, int lookahead) {
  return {{"tile", tile}, {"chunk", chunk}, {"per_thread", per_thread}, {"lookahead", lookahead}};
}

std::vector<Param> family_space(const std::vector<int>& tiles, const std::vector<int>& chunks,
                                const std::vector<int>& per_threads,
                                const std::vector<int>& lookaheads) {
  return {Param{"tile", tiles, "tile edge (round size, output tile per block)", "tile"},
          Param{"chunk", chunks, "k elements per shared-memory stage", "tile"},
          Param{"per_thread", per_threads, "outputs per thread along an edge", "tile"},
          Param{"lookahead", lookaheads, lookahead_text(lookaheads), "tile"}};
}

Variant family_variant(const std::string& name, const std::string& summary,
                       std::vector<Param> space, std::vector<Constraint> constraints,
                       const Config& defaults, const std::vector<Tier>& tiers,
                       std::function<std::string(const Config&, int, const DeviceInfo&)> check) {
  Variant v;
  v.name = name;
  v.summary = summary;
  v.space = std::move(space);
  v.defaults = defaults;
  v.constraints = std::move(constraints);
  v.heuristic = [=](int n, const DeviceInfo&) {
    for (const Tier& tier : tiers) {
      if (n <= tier.n_max) return tier.config;
    }
    return defaults;
  };
  v.check = std::move(check);
  v.run = [name](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    run_instance(name, d, n, c, stream, phases);
  };
  return v;
}

int held_blocks_smem(int lookahead, int smem_per_sm) {
  if (lookahead == 2) return at_most_blocks_per_sm_smem(1, smem_per_sm);
  return lookahead == 4 ? at_most_blocks_per_sm_smem(3, smem_per_sm) : 0;
}

}  // namespace apsp::sm90_family
