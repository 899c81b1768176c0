// sm90's part of the distributed engine (variants/05_sm90_multigpu.cu): what 05_sm90.cu declares
// as its Variant::multi_gpu.
#pragma once

#include <memory>

#include "variants/multi_gpu.hpp"

namespace apsp {

std::shared_ptr<const MultiGpuSupport> sm90_multi_gpu();

}  // namespace apsp
