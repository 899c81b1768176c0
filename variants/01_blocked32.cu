// 01 blocked32: the course reports' basic blocked Floyd-Warshall. 32 x 32 tiles, three kernels
// per round (pivot; pivot row and column; the rest), the tiles each phase reads cached in
// shared memory. Changes against naive: n/32 rounds of 3 launches instead of n launches, and
// each element is read from shared memory instead of global memory in the inner loop.
#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"
#include "kernels/blocked32.cuh"
#include "variants/rounds.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

using kernels::kTile32;

// Rounds [first, last): three launches each. Every grid is at most tiles = 32768 blocks on an
// edge at n = 2^20 (the y limit, 65535, is reached at n = 2097120).
void rounds(int* d, int n, const Config&, int first, int last, cudaStream_t stream,
            PhaseTimer* phases) {
  const int tiles = (n + kTile32 - 1) / kTile32;
  const dim3 block(kTile32, kTile32);
  for (int kt = first; kt < last; ++kt) {
    mark_phase(phases, 1);
    kernels::blocked32_phase1<kTile32><<<1, block, 0, stream>>>(d, n, kt);
    APSP_CUDA_CHECK_LAUNCH();
    mark_phase(phases, 2);
    kernels::blocked32_phase2<kTile32><<<dim3(tiles, 2), block, 0, stream>>>(d, n, kt);
    APSP_CUDA_CHECK_LAUNCH();
    mark_phase(phases, 3);
    kernels::blocked32_phase3<kTile32><<<dim3(tiles, tiles), block, 0, stream>>>(d, n, kt);
    APSP_CUDA_CHECK_LAUNCH();
  }
}

Variant make_blocked32() {
  Variant v;
  v.name = "blocked32";
  v.summary = "32x32 tiles, three kernels per round, tiles cached in shared memory";
  v.check = [](const Config&, int n, const DeviceInfo& dev) {
    return check_launch(n, kTile32 * kTile32, 2 * kTile32 * kTile32 * 4, dev);
  };
  v.run = [](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    rounds(d, n, c, 0, (n + kTile32 - 1) / kTile32, stream, phases);
  };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_blocked32)

const RoundSchedule kBlocked32Rounds{"blocked32", kernels::kTile32, rounds};

}  // namespace apsp
