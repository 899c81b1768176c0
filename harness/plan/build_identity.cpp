#include "harness/plan/build_identity.hpp"

#include "core/device_info.hpp"

namespace apsp::harness {

extern const char* const kKernelHash;  // build_identity_hash.cpp, generated

BuildId current_build() { return {build_info().git, kKernelHash}; }

}  // namespace apsp::harness
