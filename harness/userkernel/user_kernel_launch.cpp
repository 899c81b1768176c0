// The rounds of a user kernel, as the contract fixes them (docs/kernel-contract.md): for each
// pivot tile k, fw_phase1 on one block, fw_phase2 on (ceil(tiles / BATCH2), 2) blocks (y = 0:
// the pivot row, 1: the pivot column), fw_phase3 on ceil(tiles / BATCH3) blocks in x (tile
// columns) and in y (tile rows); THREADS_X x THREADS_Y threads and SHMEMp dynamic bytes each.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <map>

#include "core/cuda_check.hpp"
#include "core/phase_timer.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

namespace {

// A compiled kernel loaded into this process's context: once per compile.
struct Loaded {
  cudaLibrary_t library = nullptr;
  std::array<cudaKernel_t, 3> kernels{};
};

Loaded load(const CompiledKernel& k) {
  Loaded l;
  APSP_CUDA_CHECK(
      cudaLibraryLoadData(&l.library, k.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  int device = 0;
  APSP_CUDA_CHECK(cudaGetDevice(&device));
  for (size_t p = 0; p < kPhaseKernels.size(); ++p) {
    APSP_CUDA_CHECK(cudaLibraryGetKernel(&l.kernels[p], l.library, kPhaseKernels[p]));
    cudaFuncAttributes attr{};
    APSP_CUDA_CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(l.kernels[p])));
    if (attr.maxThreadsPerBlock < k.geometry.threads()) {
      throw std::runtime_error(fmt::format(
          "{} can run at most {} threads per block ({} registers per thread), the "
          "contract's THREADS_X x THREADS_Y is {}",
          kPhaseKernels[p], attr.maxThreadsPerBlock, attr.numRegs, k.geometry.threads()));
    }
    // Above 48 KB a kernel must opt in to its dynamic shared memory.
    APSP_CUDA_CHECK(cudaKernelSetAttributeForDevice(l.kernels[p],
                                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    k.geometry.dynamic_smem[p], device));
  }
  return l;
}

}  // namespace

void launch_user_kernel(const CompiledKernel& k, int* d, int n, cudaStream_t stream,
                        PhaseTimer* phases) {
  // compiles live as long as their UserKernel
  static std::map<const CompiledKernel*, Loaded> loaded;
  auto it = loaded.find(&k);
  if (it == loaded.end()) it = loaded.emplace(&k, load(k)).first;
  const Loaded& l = it->second;
  const KernelGeometry& g = k.geometry;
  const int tiles = (n + g.tile - 1) / g.tile;
  const dim3 block(g.threads_x, g.threads_y);
  const dim3 grids[3] = {
      dim3(1), dim3((tiles + g.batch2 - 1) / g.batch2, 2),
      dim3((tiles + g.batch3 - 1) / g.batch3, (tiles + g.batch3 - 1) / g.batch3)};
  for (int kt = 0; kt < tiles; ++kt) {
    void* args[] = {&d, &n, &kt};
    for (int p = 0; p < 3; ++p) {
      mark_phase(phases, p + 1);
      APSP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(l.kernels[p]), grids[p], block,
                                       args, g.dynamic_smem[p], stream));
    }
  }
}

}  // namespace apsp::harness
