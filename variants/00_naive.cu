// 00 naive: one launch per k, one thread per (i, j), no reuse at all. Every speedup the bench
// reports is against this variant, the starting point of the course reports.
#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/dist_matrix.hpp"
#include "kernels/naive.cuh"
#include "variants/rounds.hpp"
#include "variants/variant.hpp"

namespace apsp {

static_assert(kernels::kInf == kInf, "device and host must agree on 'unreachable'");

namespace {

constexpr int kBlockX = 32;       // <- a warp spans 32 consecutive j: coalesced row accesses
constexpr int kBlockY = 8;        // <- 256 threads per block
constexpr int kMaxGridY = 65535;  // the CUDA limit: past kMaxGridY * kBlockY rows, more launches

// Steps k in [first, last): one launch each (and one more per 524280 rows past the first).
void steps(int* d, int n, const Config&, int first, int last, cudaStream_t stream, PhaseTimer*) {
  const dim3 block(kBlockX, kBlockY);
  constexpr int kRowsPerLaunch = kMaxGridY * kBlockY;
  for (int k = first; k < last; ++k) {
    for (int row = 0; row < n; row += kRowsPerLaunch) {
      const int rows = std::min(n - row, kRowsPerLaunch);
      const dim3 grid((n + kBlockX - 1) / kBlockX, (rows + kBlockY - 1) / kBlockY);
      kernels::naive_step<<<grid, block, 0, stream>>>(d, n, k, row);
      APSP_CUDA_CHECK_LAUNCH();
    }
  }
}

Variant make_naive() {
  Variant v;
  v.name = "naive";
  v.summary = "one launch per k, one thread per (i, j); the baseline of every speedup";
  v.check = [](const Config&, int n, const DeviceInfo& dev) {
    return check_launch(n, kBlockX * kBlockY, 0, dev);
  };
  v.run = [](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    steps(d, n, c, 0, n, stream, phases);
  };
  return v;
}

}  // namespace

APSP_REGISTER_VARIANT(make_naive)

const RoundSchedule kNaiveRounds{"naive", 1, steps};

}  // namespace apsp
