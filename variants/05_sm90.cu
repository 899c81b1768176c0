// 05 sm90: our Hopper-tuned variant. Changes against the course variants: the matrix is
// padded to a multiple of the tile so no kernel checks bounds; tiles of 64 or 128 elements;
// phases 2 and 3 share one GEMM-like min-plus routine with an 8 x 8 register tile per thread,
// 16-byte shared-memory loads and a double-buffered k loop (kernels/sm90.cuh).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "core/cuda_check.hpp"
#include "kernels/sm90.cuh"
#include "variants/all.hpp"
#include "variants/dispatch.hpp"

namespace apsp {

namespace {

using TileValues = IntList<64, 128>;    // <- tile edge: round size and output tile per block
using ChunkValues = IntList<8, 16, 32>;  // <- k elements staged in shared memory per step
constexpr int kDefaultTile = 64;   // best at n = 1000 and 10000 on the H200 (docs/perf-notes.md)
constexpr int kDefaultChunk = 8;  // tile 128 with chunk 16 or 32 spills at 128 registers

int round_up(int n, int m) { return (n + m - 1) / m * m; }

template <int kTile, int kChunk>
int smem_bytes() {
  namespace k = kernels::sm90;
  return std::max({k::product_smem<kTile, kChunk>(), k::product_smem<kTile, k::phase2_chunk<kTile>()>(),
                   k::phase1_smem<kTile>()});
}

template <int kTile, int kChunk>
void solve(int* d, int n, cudaStream_t stream, PhaseTimer* phases) {
  namespace k = kernels::sm90;
  const int pitch = round_up(n, kTile);
  const int tiles = pitch / kTile;
  int* m = d;
  if (pitch != n) {
    // Stream-ordered allocation: the pool keeps the memory between solves (threshold below).
    APSP_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&m),
                                    static_cast<size_t>(pitch) * pitch * sizeof(int), stream));
    k::pad<<<dim3((pitch + 255) / 256, pitch), 256, 0, stream>>>(d, n, m, pitch);
    APSP_CUDA_CHECK_LAUNCH();
  }
  constexpr int kP1 = k::phase1_smem<kTile>(), kProd = k::product_smem<kTile, kChunk>();
  constexpr int kP2 = k::product_smem<kTile, k::phase2_chunk<kTile>()>();
  constexpr int kThreads = k::product_threads<kTile>();
  constexpr int kThreads2 = k::product_threads<kTile, k::kPerThread2>();
  APSP_CUDA_CHECK(cudaFuncSetAttribute(k::phase1<kTile>, cudaFuncAttributeMaxDynamicSharedMemorySize, kP1));
  APSP_CUDA_CHECK(cudaFuncSetAttribute(k::phase2<kTile>, cudaFuncAttributeMaxDynamicSharedMemorySize, kP2));
  APSP_CUDA_CHECK(cudaFuncSetAttribute(k::phase3<kTile, kChunk>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, kProd));
  for (int kt = 0; kt < tiles; ++kt) {
    mark_phase(phases, 1);
    k::phase1<kTile><<<1, k::kPhase1Threads, kP1, stream>>>(m, pitch, kt);
    APSP_CUDA_CHECK_LAUNCH();
    mark_phase(phases, 2);
    k::phase2<kTile><<<dim3(tiles, 2), kThreads2, kP2, stream>>>(m, pitch, kt);
    APSP_CUDA_CHECK_LAUNCH();
    mark_phase(phases, 3);
    k::phase3<kTile, kChunk><<<dim3(tiles, tiles), kThreads, kProd, stream>>>(m, pitch, kt);
    APSP_CUDA_CHECK_LAUNCH();
  }
  mark_phase(phases, 0);
  if (m != d) {
    k::unpad<<<dim3((n + 255) / 256, n), 256, 0, stream>>>(m, pitch, d, n);
    APSP_CUDA_CHECK_LAUNCH();
    APSP_CUDA_CHECK(cudaFreeAsync(m, stream));
  }
}

// Keep freed pool memory cached, so a padded solve does not pay for a fresh allocation.
void keep_pool_memory() {
  static const bool done = [] {
    int dev = 0;
    cudaMemPool_t pool;
    APSP_CUDA_CHECK(cudaGetDevice(&dev));
    APSP_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, dev));
    uint64_t keep = UINT64_MAX;
    APSP_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
    return true;
  }();
  (void)done;
}

}  // namespace

Variant make_sm90() {
  Variant v;
  v.name = "sm90";
  v.summary = "padded 64/128 tiles, GEMM-like phases 2-3: 8x8 per thread, double-buffered k chunks";
  v.space = {Param{"tile", to_vector(TileValues{}), "tile edge (round size, output tile per block)"},
             Param{"chunk", to_vector(ChunkValues{}), "k elements per shared-memory stage"}};
  v.defaults = {{"tile", kDefaultTile}, {"chunk", kDefaultChunk}};
  v.check = [](const Config& c, int n, const DeviceInfo& dev) {
    std::string why;
    dispatch(TileValues{}, c.at("tile"), "tile", [&](auto t) {
      dispatch(ChunkValues{}, c.at("chunk"), "chunk", [&](auto ch) {
        constexpr int kT = decltype(t)::value, kC = decltype(ch)::value;
        why = check_launch(n, kernels::sm90::product_threads<kT, kernels::sm90::kPerThread2>(),
                           smem_bytes<kT, kC>(), dev);
      });
    });
    return why;
  };
  v.run = [](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
    keep_pool_memory();
    dispatch(TileValues{}, c.at("tile"), "tile", [&](auto t) {
      dispatch(ChunkValues{}, c.at("chunk"), "chunk", [&](auto ch) {
        solve<decltype(t)::value, decltype(ch)::value>(d, n, stream, phases);
      });
    });
  };
  return v;
}

}  // namespace apsp
