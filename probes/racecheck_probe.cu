// racecheck_probe: the hand-offs of sm90's mbarrier ring (kernels/sm90.cuh, ring_mbarrier) on one
// 256-thread block, to run under compute-sanitizer racecheck and see which of them the tool can
// follow (docs/perf-notes.md). Every case is ordered by the PTX memory model and checks
// its values; racecheck reports hazards for the two that release a buffer with __syncwarp and one
// arrival a warp, which is why scripts/device-check.sh runs racecheck on an APSP_RACECHECK_BUILD.
//   landed              each thread cp.async's 16 bytes, arrives on an mbarrier when they land
//                       (.noinc), waits, reads its neighbour's (read after write)
//   warp-release        each thread reads its neighbour's 16 bytes, __syncwarp, lane 0 arrives;
//                       after the wait each thread overwrites its own by cp.async (write after
//                       read, as ring_mbarrier ships)
//   warp-release-store  the same, the overwrite a plain store
//   thread-release      every thread arrives (as in APSP_RACECHECK_BUILD), a plain store
//   compute-sanitizer --tool racecheck ./build/release/racecheck_probe [case]   (all cases by default)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/console.hpp"
#include "core/device_info.hpp"
#include "kernels/sm90.cuh"

namespace {

using namespace apsp::kernels::sm90;

constexpr int kThreads = 256;
enum Case { kLanded, kWarpRelease, kWarpReleaseStore, kThreadRelease, kCases };
constexpr const char* kNames[kCases] = {"landed", "warp-release", "warp-release-store",
                                        "thread-release"};

// out[t] = first[(t + 1) % 256], read from shared memory; then (every case but landed) shared[t]
// = second[t], copied out to out[256 + t] after a barrier.
template <int kCase>
__global__ void __launch_bounds__(kThreads)
    hand_off(const int4* __restrict__ first, const int4* __restrict__ second,
             int4* __restrict__ out) {
  __shared__ int4 buf[kThreads];
  __shared__ unsigned long long bar;
  const int t = threadIdx.x;
  const bool per_warp = kCase == kWarpRelease || kCase == kWarpReleaseStore;
  if (t == 0) {
    mbarrier_init(&bar, per_warp ? kThreads / 32 : kThreads);
    mbarrier_init_fence();
  }
  if constexpr (kCase == kLanded) {
    __syncthreads();
    cp_async16(reinterpret_cast<int*>(&buf[t]), reinterpret_cast<const int*>(&first[t]));
    cp_async_arrive(&bar);
    mbarrier_wait(&bar, 0);
    out[t] = buf[(t + 1) % kThreads];
  } else {
    buf[t] = first[t];
    __syncthreads();
    out[t] = buf[(t + 1) % kThreads];
    if constexpr (per_warp) {
      __syncwarp();
      if (t % 32 == 0) mbarrier_arrive(&bar);
    } else {
      mbarrier_arrive(&bar);
    }
    mbarrier_wait(&bar, 0);
    if constexpr (kCase == kWarpRelease) {
      cp_async16(reinterpret_cast<int*>(&buf[t]), reinterpret_cast<const int*>(&second[t]));
      asm volatile("cp.async.wait_all;" ::: "memory");
    } else {
      buf[t] = second[t];
    }
  }
  if constexpr (kCase != kLanded) {
    __syncthreads();
    out[kThreads + t] = buf[t];
  }
}

bool ok(cudaError_t e) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "racecheck_probe: %s\n", cudaGetErrorString(e));
  return false;
}

// Runs a case on a cleared `out` and compares what it writes: the read, and the overwrite but in
// landed (which has none).
template <int kCase>
bool run(const int4* first, const int4* second, int4* out, const std::vector<int>& want) {
  if (!ok(cudaMemset(out, 0, want.size() * sizeof(int)))) return false;
  hand_off<kCase><<<1, kThreads>>>(first, second, out);
  if (!ok(cudaGetLastError()) || !ok(cudaDeviceSynchronize())) return false;
  std::vector<int> got(want.size());
  if (!ok(cudaMemcpy(got.data(), out, got.size() * sizeof(int), cudaMemcpyDeviceToHost)))
    return false;
  const size_t compared = kCase == kLanded ? want.size() / 2 : want.size();
  const bool right = std::equal(got.begin(), got.begin() + compared, want.begin());
  std::printf("%-20s %s\n", kNames[kCase], right ? "values right" : "WRONG values");
  return right;
}

}  // namespace

int probe_main(int argc, char** argv) {
  int only = -1;
  const auto argument = apsp::probe_argument(
      argc, argv, "racecheck_probe", "a case",
      "racecheck_probe: the hand-offs of sm90's mbarrier ring on one block, each checked for its\n"
      "values, to run under compute-sanitizer --tool racecheck.\n"
      "Usage: racecheck_probe [case]   case: landed, warp-release, warp-release-store,\n"
      "                                thread-release (default: all)",
      "a wrong value or a CUDA error");
  if (argument.exit_code) return *argument.exit_code;
  if (argc == 2) {
    const std::string& arg = argument.value;
    for (int c = 0; c < kCases; ++c)
      if (arg == kNames[c]) only = c;
    if (only < 0) {
      std::fprintf(stderr, "racecheck_probe: unknown case '%s'; see --help\n", arg.c_str());
      return apsp::kExitRefused;
    }
  }
  if (!apsp::device_or_say_none("racecheck_probe"))
    return apsp::kExitNoDevice;  // ctest reads it as skipped
  std::vector<int> first(4 * kThreads), second(4 * kThreads), want(8 * kThreads);
  for (int i = 0; i < 4 * kThreads; ++i) first[i] = i, second[i] = -i - 1;
  for (int t = 0; t < kThreads; ++t) {
    std::memcpy(&want[4 * t], &first[4 * ((t + 1) % kThreads)], 16);
    std::memcpy(&want[4 * (kThreads + t)], &second[4 * t], 16);
  }
  int4 *d_first = nullptr, *d_second = nullptr, *d_out = nullptr;
  if (!ok(cudaMalloc(&d_first, 16 * kThreads)) || !ok(cudaMalloc(&d_second, 16 * kThreads)) ||
      !ok(cudaMalloc(&d_out, 32 * kThreads)))
    return apsp::kExitFailed;
  if (!ok(cudaMemcpy(d_first, first.data(), 16 * kThreads, cudaMemcpyHostToDevice)) ||
      !ok(cudaMemcpy(d_second, second.data(), 16 * kThreads, cudaMemcpyHostToDevice)))
    return apsp::kExitFailed;
  bool good = true;
  if (only < 0 || only == kLanded) good = run<kLanded>(d_first, d_second, d_out, want) && good;
  if (only < 0 || only == kWarpRelease)
    good = run<kWarpRelease>(d_first, d_second, d_out, want) && good;
  if (only < 0 || only == kWarpReleaseStore)
    good = run<kWarpReleaseStore>(d_first, d_second, d_out, want) && good;
  if (only < 0 || only == kThreadRelease)
    good = run<kThreadRelease>(d_first, d_second, d_out, want) && good;
  cudaFree(d_first), cudaFree(d_second), cudaFree(d_out);
  return good ? apsp::kExitOk : apsp::kExitFailed;
}

int main(int argc, char** argv) {
  return apsp::run_program("racecheck_probe", probe_main, argc, argv);
}
