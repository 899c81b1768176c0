// Where the user-kernel tests find their kernel files: the shipped examples, and the planted
// ones that tests/harness/userkernel/planted_kernels.cmake makes from them.
#pragma once

#include <string>

namespace apsp::test {

inline const std::string kExampleKernels = APSP_SOURCE_DIR "/examples/kernels/";
inline const std::string kPlantedKernels = APSP_PLANTED_DIR "/";

}  // namespace apsp::test
