// 02 regtile64: the course report's register blocking. 64 x 64 tiles on 32 x 32 threads, each
// thread a 2 x 2 block in registers, the k loop inside the kernel. Changes against blocked32:
// a quarter of the blocks and rounds, and one shared-memory read per update instead of two.
#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"
#include "kernels/regtile64.cuh"
#include "variants/rounds.hpp"
#include "variants/variant.hpp"

namespace apsp {
namespace {

using kernels::kThreads64;
using kernels::kTile64;

// Rounds [first, last): three launches each; at most 16384 blocks on a grid's edge at n = 2^20.
void rounds(int* d, int n, const Config&, int first, int last, cudaStream_t stream,
            PhaseTimer* phases) {
  const int tiles = (n + kTile64 - 1) / kTile64;
  const dim3 block(kThreads64, kThreads64);
  for (int kt = first; kt < last; ++kt) {
    mark_phase(phases, 1);
    kernels::regtile64_phase1<<<1, block, 0, stream>>>(d, n, kt);
    APSP_CUDA_CHECK_LAUNCH();
    mark_phase(phases, 2);
    kernels::regtile64_phase2<<<dim3(tiles, 2), block, 0, stream>>>(d, n, kt);
    APSP_CUDA_CHECK_LAUNCH();
    mark_phase(phases, 3);
    kernels::regtile64_phase3<<<dim3(tiles, tiles), block, 0, stream>>>(d, n, kt);
    APSP_CUDA_CHECK_LAUNCH();
  }
}

Variant make_regtile64() {
  Variant v;
  v.name = "regtile64";
  v.summary = "64x64 tiles on 32x32 threads, a 2x2 block per thread in registers";
  v.check = [](const Config&, int n, const DeviceInfo& dev) {
    return check_launch(n, kThreads64 * kThreads64, 2 * kTile64 * kTile64 * 4, dev);
  };
  v.run = [](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    rounds(d, n, c, 0, (n + kTile64 - 1) / kTile64, stream, phases);
  };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_regtile64)

const RoundSchedule kRegtile64Rounds{"regtile64", kernels::kTile64, rounds};

}  // namespace apsp
