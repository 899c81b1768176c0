// The factory of each variant file; registry.cpp lists them in the order users read them.
#pragma once

#include "variants/variant.hpp"

namespace apsp {

Variant make_naive();
Variant make_blocked32();
Variant make_regtile64();
Variant make_batched();
Variant make_batched_edge();
Variant make_sm90();
Variant make_planted_wrong();  // tests only: see planted_wrong.cpp

// Shared by the variant files: "" or the reason a launch of `threads` threads and
// `smem_bytes` of shared memory cannot run on `dev`, or n is not a valid size.
std::string check_launch(int n, int threads, int smem_bytes, const DeviceInfo& dev);

}  // namespace apsp
