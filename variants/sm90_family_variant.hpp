// The host parts of an sm90-family Variant (05_sm90.cu, 06_sm90_u16.cu) that know no point of
// its space, compiled once (sm90_family_variant.cpp): its parameters and their texts, the Variant
// assembled from them, and the shared memory a schedule asks for to hold a launch to fewer
// blocks an SM. sm90_family.hpp's Family fills them from its value lists and rules.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "variants/variant.hpp"

namespace apsp::sm90_family {

Config make_config(int tile, int chunk, int per_thread, int lookahead);

// The space (tile, chunk, per_thread, lookahead) with these value lists.
std::vector<Param> family_space(const std::vector<int>& tiles, const std::vector<int>& chunks,
                                const std::vector<int>& per_threads,
                                const std::vector<int>& lookaheads);

// A rule of thumb by n, for a device without a policy table: the first tier whose n_max is n or
// more, the declared default past the last.
struct Tier {
  int n_max;
  Config config;
};

// The Variant of a family: its space, constraints and checks as the family declares them;
// run() finds the compiled instance (variants/instances.hpp).
Variant family_variant(const std::string& name, const std::string& summary,
                       std::vector<Param> space, std::vector<Constraint> constraints,
                       const Config& defaults, const std::vector<Tier>& tiers,
                       std::function<std::string(const Config&, int, const DeviceInfo&)> check);

// The shared memory a schedule asks for to hold a launch to fewer blocks an SM (0: none).
int held_blocks_smem(int lookahead, int smem_per_sm);

}  // namespace apsp::sm90_family
