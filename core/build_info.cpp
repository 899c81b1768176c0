// build_info() is kept apart from the device query (device_info.cpp, in apsp_cuda) so that
// host-only programs can record the build they came from without linking the CUDA runtime.
#include "core/device_info.hpp"

namespace apsp {

BuildInfo build_info() { return BuildInfo{APSP_GIT, APSP_NVCC_VERSION, APSP_CUDA_ARCHS}; }

}  // namespace apsp
