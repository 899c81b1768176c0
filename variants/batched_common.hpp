// The launcher batched and batched_edge share; they differ only in how phase 3 treats the
// blocks on the matrix's edge (kSplitEdges).
#pragma once

// No fmt here: nvcc 13 cannot compile fmt 9's constexpr formatting paths.
#include <algorithm>

#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"
#include "kernels/batched.cuh"
#include "kernels/blocked32.cuh"
#include "variants/dispatch.hpp"
#include "variants/rounds.hpp"
#include "variants/variant.hpp"

namespace apsp::batched {

// Every value is compiled in. The largest, 8, needs 36 KB (phase 2) and 64 KB (phase 3) of
// shared memory, inside sm_90's 227 KB opt-in; 6 x 6 is the course report's choice.
using Batch2Values = IntList<1, 2, 3, 4, 5, 6, 7, 8>;
using Batch3Values = IntList<1, 2, 3, 4, 5, 6, 7, 8>;
inline constexpr int kDefaultBatch = 6;

inline std::vector<Param> space() {
  return {Param{"batch2", to_vector(Batch2Values{}), "pivot-row/column tiles per phase-2 block",
                "batch"},
          Param{"batch3", to_vector(Batch3Values{}),
                "phase-3 block edge in tiles (batch3 x batch3 tiles per block)", "batch"}};
}

inline std::string check(const Config& c, int n, const DeviceInfo& dev) {
  const int b2 = c.at("batch2"), b3 = c.at("batch3");
  const int smem = std::max(kernels::batched_phase2_smem(b2), kernels::batched_phase3_smem(b3));
  return check_launch(n, kernels::kTileBElems, smem, dev);
}

// Rounds [first, last) (variants/rounds.hpp); run() is all of them. The grids' edges are at
// most tiles = 32768 blocks at n = 2^20.
template <bool kSplitEdges>
void rounds(int* d, int n, const Config& c, int first, int last, cudaStream_t stream,
            PhaseTimer* phases) {
  using namespace kernels;
  const int tiles = (n + kTileB - 1) / kTileB;
  const dim3 block(kTileB, kTileB);
  dispatch(Batch2Values{}, c.at("batch2"), "batch2", [&](auto b2) {
    dispatch(Batch3Values{}, c.at("batch3"), "batch3", [&](auto b3) {
      constexpr int kB2 = decltype(b2)::value, kB3 = decltype(b3)::value;
      auto* p2 = batched_phase2<kB2>;
      auto* p3 = batched_phase3<kB3, kSplitEdges>;
      constexpr int smem2 = batched_phase2_smem(kB2), smem3 = batched_phase3_smem(kB3);
      // Above 48 KB a block must opt in to its dynamic shared memory.
      APSP_CUDA_CHECK(cudaFuncSetAttribute(p2, cudaFuncAttributeMaxDynamicSharedMemorySize, smem2));
      APSP_CUDA_CHECK(cudaFuncSetAttribute(p3, cudaFuncAttributeMaxDynamicSharedMemorySize, smem3));
      const dim3 grid2((tiles + kB2 - 1) / kB2, 2);
      const int g3 = (tiles + kB3 - 1) / kB3;
      for (int kt = first; kt < last; ++kt) {
        mark_phase(phases, 1);
        blocked32_phase1<kTileB><<<1, block, 0, stream>>>(d, n, kt);
        APSP_CUDA_CHECK_LAUNCH();
        mark_phase(phases, 2);
        p2<<<grid2, block, smem2, stream>>>(d, n, kt, tiles);
        APSP_CUDA_CHECK_LAUNCH();
        mark_phase(phases, 3);
        p3<<<dim3(g3, g3), block, smem3, stream>>>(d, n, kt);
        APSP_CUDA_CHECK_LAUNCH();
      }
    });
  });
}

template <bool kSplitEdges>
void run(int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
  rounds<kSplitEdges>(d, n, c, 0, (n + kernels::kTileB - 1) / kernels::kTileB, stream, phases);
}

inline Variant make(bool split_edges) {
  Variant v;
  v.space = space();
  v.defaults = {{"batch2", kDefaultBatch}, {"batch3", kDefaultBatch}};
  v.check = check;
  v.run = split_edges ? run<true> : run<false>;
  return v;
}

}  // namespace apsp::batched
