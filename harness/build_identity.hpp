// The build's identity, keyed into tuning databases: the commit, and a hash of everything that
// decides a kernel's speed (kernels/, variants/, the CUDA flags and architectures), computed at
// build time by build_identity.cmake. Two builds with the same hash run the same code.
#pragma once

#include "core/tuning_db.hpp"

namespace apsp::harness {

BuildId current_build();

}  // namespace apsp::harness
