// closure_probe: how long sm90's building blocks take inside one block, in SM cycles (clock64
// around 20 repetitions), with nothing else on the GPU, for docs/perf-notes.md: the pivot
// closure (phase 1) at tile 64 and 128, a 64^3 product from L2 (phases 2 and 3), and the
// closure's loads, updates and barriers without its step-to-step dependency (its floor for this
// thread layout). Checks each closure against a CPU Floyd-Warshall of the same tile first.
//   ./build/release/closure_probe          (exit 3 without a CUDA device, as every program)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "core/console.hpp"
#include "core/device_info.hpp"
#include "kernels/sm90.cuh"

namespace {

using namespace apsp::kernels;
using namespace apsp::kernels::sm90;

constexpr int kPitch = 1024;
constexpr int kReps = 20;
constexpr int kSmemBytes = 48 * 1024;

// The closure's loop with operands that do not depend on the previous step (wrong values).
__device__ __forceinline__ void independent_steps(int (&acc)[4][4], const int* s) {
  const int lane = threadIdx.x % 32;
#pragma unroll 8
  for (int k = 0; k < 64; ++k) {
    __syncthreads();
    const int4 u = *reinterpret_cast<const int4*>(s + (k * 64 + (lane & 15) * 4) % 4096);
    const int4 v =
        *reinterpret_cast<const int4*>(s + 4096 + (k * 64 + (threadIdx.x / 16) * 4) % 4096);
    const int lhs[4] = {v.x, v.y, v.z, v.w}, rhs[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
      for (int c = 0; c < 4; ++c) acc[r][c] = min_plus(acc[r][c], lhs[r], rhs[c]);
  }
}

enum Work { kClose64, kClose128, kProduct64, kIndependent64 };

template <Work kWork>
__global__ void probe(int* d, long long* cycles, int reps) {
  constexpr int kTile = kWork == kClose128 ? 128 : 64;
  constexpr int kPer = kTile / 16;  // 16 x 16 threads, like phase 1
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  int acc[kPer][kPer];
  load_tile<kTile, kPer>(acc, d, kPitch, 0, 0);
  __syncthreads();
  const long long start = clock64();
  for (int r = 0; r < reps; ++r) {
    if constexpr (kWork == kClose64 || kWork == kClose128) close_pivot<kTile, kPer>(acc, smem);
    if constexpr (kWork == kProduct64)
      accumulate<64, 16, 4>(acc, d, kPitch, 0, 2, d, kPitch, 2, 1, 4, smem);
    if constexpr (kWork == kIndependent64) independent_steps(acc, smem);
  }
  const long long stop = clock64();
  store_tile<kTile, kPer>(acc, d, kPitch, 0, 0);
  if (threadIdx.x == 0) cycles[0] = (stop - start) / reps;
}

bool ok(cudaError_t e) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "closure_probe: %s\n", cudaGetErrorString(e));
  return false;
}

template <Work kWork>
bool run(const char* what, int* d, long long* cycles, const std::vector<int>& input, bool check) {
  if (!ok(cudaFuncSetAttribute(probe<kWork>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               kSmemBytes)) ||
      !ok(cudaMemcpy(d, input.data(), input.size() * sizeof(int), cudaMemcpyHostToDevice)))
    return false;
  probe<kWork><<<1, 256, kSmemBytes>>>(d, cycles, check ? 1 : kReps);
  long long c = 0;
  if (!ok(cudaGetLastError()) || !ok(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost)))
    return false;
  if (check) {  // the tile's closure on the CPU
    constexpr int kTile = kWork == kClose128 ? 128 : 64;
    std::vector<int> want(kTile * kTile), got(kPitch * kPitch);
    for (int i = 0; i < kTile; ++i)
      for (int j = 0; j < kTile; ++j) want[i * kTile + j] = input[i * kPitch + j];
    for (int k = 0; k < kTile; ++k)
      for (int i = 0; i < kTile; ++i)
        for (int j = 0; j < kTile; ++j)
          want[i * kTile + j] =
              std::min(want[i * kTile + j], want[i * kTile + k] + want[k * kTile + j]);
    if (!ok(cudaMemcpy(got.data(), d, got.size() * sizeof(int), cudaMemcpyDeviceToHost)))
      return false;
    int wrong = 0;
    for (int i = 0; i < kTile; ++i)
      for (int j = 0; j < kTile; ++j) wrong += got[i * kPitch + j] != want[i * kTile + j];
    std::printf("%-52s %s\n", what, wrong ? "WRONG" : "equals the CPU closure");
    return wrong == 0;
  }
  std::printf("%-52s %7lld cycles\n", what, c);
  return true;
}

}  // namespace

int probe_main(int argc, char** argv) {
  if (argc > 1) {
    const std::string arg = argv[1];
    if (arg == "--help" || arg == "-h") {
      std::printf(
          "closure_probe: times sm90's pivot closure (tile 64 and 128) and a 64^3 tile product\n"
          "inside one block, in SM cycles, after checking the closure against a CPU\n"
          "Floyd-Warshall. No options.\n%s\n",
          apsp::exit_codes_help("a wrong result or a CUDA error").c_str());
      return 0;
    }
    std::fprintf(stderr, "closure_probe: takes no arguments (got '%s'); see --help\n", arg.c_str());
    return apsp::kExitRefused;
  }
  if (!apsp::device_or_say_none("closure_probe"))
    return apsp::kExitNoDevice;  // ctest reads it as skipped
  // Distances 1-1000 with a zero diagonal and a fifth of the pairs unreachable.
  std::vector<int> input(kPitch * kPitch);
  for (size_t i = 0; i < input.size(); ++i) {
    const unsigned h = static_cast<unsigned>(i) * 2654435761u;
    input[i] = (h >> 7) % 5 == 0 ? kInf : static_cast<int>(h % 1000) + 1;
  }
  for (int i = 0; i < kPitch; ++i) input[static_cast<size_t>(i) * kPitch + i] = 0;
  int* d = nullptr;
  long long* cycles = nullptr;
  if (!ok(cudaMalloc(&d, input.size() * sizeof(int))) ||
      !ok(cudaMalloc(&cycles, sizeof(long long))))
    return apsp::kExitFailed;
  bool good = run<kClose64>("close_pivot<64, 4>", d, cycles, input, true) &&
              run<kClose128>("close_pivot<128, 8>", d, cycles, input, true);
  good =
      good && run<kClose64>("close_pivot<64, 4>, 256 threads", d, cycles, input, false) &&
      run<kClose128>("close_pivot<128, 8>, 256 threads", d, cycles, input, false) &&
      run<kIndependent64>("its 64 steps without the dependency (floor)", d, cycles, input, false) &&
      run<kProduct64>("a 64^3 product from L2, chunk 16, 256 threads", d, cycles, input, false);
  cudaFree(d);
  cudaFree(cycles);
  return good ? apsp::kExitOk : apsp::kExitFailed;
}

int main(int argc, char** argv) {
  return apsp::run_program("closure_probe", probe_main, argc, argv);
}
