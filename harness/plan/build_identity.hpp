// The build's identity, keyed into tuning databases: the commit, and a hash of everything that
// decides a kernel's speed (kernels/, variants/, the CUDA flags and architectures), computed at
// build time by build_identity.cmake. Two builds with the same hash run the same code.
#pragma once

#include "core/tuning_db.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

BuildId current_build();

// The identity of the code a variant runs, as tuning databases key it: the build's for the
// built-in variants, the source's hash for a run-time compiled user kernel.
inline BuildId build_of(const Variant& v, const BuildId& build) {
  return v.kernel_hash.empty() ? build : BuildId{build.commit, v.kernel_hash};
}

}  // namespace apsp::harness
