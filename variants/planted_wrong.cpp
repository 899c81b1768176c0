// A deliberately wrong variant for the tests that check the harness catches wrong results: it
// solves correctly with blocked32, then overwrites d[n-1][0] with 0. Test-only: listed when the
// environment variable APSP_TEST_VARIANTS is set, so users never see it.
#include <cuda_runtime_api.h>

#include "core/cuda_check.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

Variant make_planted_wrong() {
  Variant v;
  v.name = "planted_wrong";
  v.summary = "TEST ONLY: blocked32 with d[n-1][0] overwritten by 0";
  v.test_only = true;
  // blocked32 is looked up at run time: a factory must not read the registry it is building.
  v.check = [](const Config& c, int n, const DeviceInfo& dev) {
    return find_variant("blocked32")->check(c, n, dev);
  };
  v.run = [](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    find_variant("blocked32")->run(d, n, c, stream, phases);
    if (n >= 2)
      APSP_CUDA_CHECK(cudaMemsetAsync(d + static_cast<size_t>(n - 1) * n, 0, sizeof(int), stream));
  };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_planted_wrong)

}  // namespace apsp
