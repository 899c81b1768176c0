// A deliberately wrong variant for the tests that check apsp_bench catches wrong results: it
// solves correctly with blocked32, then overwrites d[n-1][0] with 0. Registered only when the
// environment variable APSP_PLANT_WRONG_VARIANT is set, so users never see it.
#include <cuda_runtime_api.h>

#include "core/cuda_check.hpp"
#include "variants/all.hpp"

namespace apsp {

Variant make_planted_wrong() {
  Variant v = make_blocked32();
  v.name = "planted_wrong";
  v.summary = "TEST ONLY: blocked32 with d[n-1][0] overwritten by 0";
  v.run = [inner = v.run](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    inner(d, n, c, stream, phases);
    if (n >= 2) APSP_CUDA_CHECK(cudaMemsetAsync(d + static_cast<size_t>(n - 1) * n, 0, sizeof(int), stream));
  };
  return v;
}

}  // namespace apsp
