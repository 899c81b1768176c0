// batched and batched_edge: 32 x 32 tiles, one thread per element of a tile, but each block
// takes several tiles so that the pivot data it loads is shared:
//   phase 2: a block takes kBatch2 tiles of the pivot row (or column) and loads the pivot once;
//   phase 3: a block takes kBatch3 x kBatch3 tiles and loads kBatch3 column tiles and kBatch3
//            row tiles, each reused kBatch3 times from shared memory.
// batched_edge splits phase 3 into an unchecked path for blocks wholly inside the matrix and
// the bounds-checked path for the blocks on its edge.
#pragma once

#include "kernels/common.cuh"

// Phase 1 is blocked32_phase1 (batching has nothing to share there).

namespace apsp::kernels {

inline constexpr int kTileB = 32;  // <- tile edge, elements (= threads per edge)
inline constexpr int kTileBElems = kTileB * kTileB;

// Dynamic shared memory each kernel instance needs: the variants' check() reads these.
constexpr int batched_phase2_smem(int batch2) { return (1 + batch2) * kTileBElems * 4; }
constexpr int batched_phase3_smem(int batch3) { return 2 * batch3 * kTileBElems * 4; }

// blockIdx.y == 0: pivot-row tiles (kt, t); == 1: pivot-column tiles (t, kt), for
// t = blockIdx.x * kBatch2 + b, b < kBatch2, t != kt, t < tiles.
template <int kBatch2>
__global__ void __launch_bounds__(kTileBElems)
    batched_phase2(int* __restrict__ d, int n, int kt, int tiles) {
  extern __shared__ int smem[];
  int* piv = smem;                // [32][32]
  int* own = smem + kTileBElems;  // [kBatch2][32][32]
  const int tx = threadIdx.x, ty = threadIdx.y, base = kt * kTileB;
  const bool is_row = blockIdx.y == 0;
  piv[ty * kTileB + tx] = load<true>(d, n, base + ty, base + tx);
  int c[kBatch2];
#pragma unroll
  for (int b = 0; b < kBatch2; ++b) {
    const int t = blockIdx.x * kBatch2 + b;
    const int i = is_row ? base + ty : t * kTileB + ty;
    const int j = is_row ? t * kTileB + tx : base + tx;
    c[b] = own[b * kTileBElems + ty * kTileB + tx] = load<true>(d, n, i, j);
  }
  __syncthreads();
  for (int k = 0; k < kTileB; ++k) {
    if (is_row) {
      const int p = piv[ty * kTileB + k];  // broadcast, reused by every tile of the batch
#pragma unroll
      for (int b = 0; b < kBatch2; ++b)
        c[b] = min_plus(c[b], p, own[b * kTileBElems + k * kTileB + tx]);
    } else {
      const int p = piv[k * kTileB + tx];
#pragma unroll
      for (int b = 0; b < kBatch2; ++b)
        c[b] = min_plus(c[b], own[b * kTileBElems + ty * kTileB + k], p);
    }
  }
#pragma unroll
  for (int b = 0; b < kBatch2; ++b) {
    const int t = blockIdx.x * kBatch2 + b;
    if (t == kt || t >= tiles) continue;
    const int i = is_row ? base + ty : t * kTileB + ty;
    const int j = is_row ? t * kTileB + tx : base + tx;
    store<true>(d, n, i, j, c[b]);
  }
}

// One block's kBatch3 x kBatch3 tiles starting at tile (it0, jt0). Tiles in the pivot row or
// column are computed like the others (their operands are in shared memory anyway) but not
// stored: phase 2 owns them in this round.
template <int kBatch3, bool kChecked>
__device__ __forceinline__ void batched_phase3_block(int* __restrict__ d, int n, int kt, int it0,
                                                     int jt0, int* smem) {
  int* col = smem;                          // [kBatch3][32][32]: tiles (it0 + a, kt)
  int* row = smem + kBatch3 * kTileBElems;  // [kBatch3][32][32]: tiles (kt, jt0 + b)
  const int tx = threadIdx.x, ty = threadIdx.y, base = kt * kTileB;
#pragma unroll
  for (int a = 0; a < kBatch3; ++a) {
    col[a * kTileBElems + ty * kTileB + tx] =
        load<kChecked>(d, n, (it0 + a) * kTileB + ty, base + tx);
    row[a * kTileBElems + ty * kTileB + tx] =
        load<kChecked>(d, n, base + ty, (jt0 + a) * kTileB + tx);
  }
  __syncthreads();
  for (int a = 0; a < kBatch3; ++a) {
    const int i = (it0 + a) * kTileB + ty;
    int c[kBatch3];
#pragma unroll
    for (int b = 0; b < kBatch3; ++b) c[b] = load<kChecked>(d, n, i, (jt0 + b) * kTileB + tx);
#pragma unroll 8
    for (int k = 0; k < kTileB; ++k) {
      const int lhs = col[a * kTileBElems + ty * kTileB + k];  // broadcast
#pragma unroll
      for (int b = 0; b < kBatch3; ++b)
        c[b] = min_plus(c[b], lhs, row[b * kTileBElems + k * kTileB + tx]);
    }
    if (it0 + a == kt) continue;
#pragma unroll
    for (int b = 0; b < kBatch3; ++b) {
      if (jt0 + b != kt) store<kChecked>(d, n, i, (jt0 + b) * kTileB + tx, c[b]);
    }
  }
}

// kSplitEdges = false: every block bounds-checked (batched). true: blocks whose rows, columns
// and pivot tile all lie inside the matrix take the unchecked path (batched_edge). The choice is
// uniform per block, so the barrier inside is reached by all threads of a block or none.
template <int kBatch3, bool kSplitEdges>
__global__ void __launch_bounds__(kTileBElems) batched_phase3(int* __restrict__ d, int n, int kt) {
  extern __shared__ int smem[];
  const int it0 = blockIdx.y * kBatch3, jt0 = blockIdx.x * kBatch3;
  if constexpr (kSplitEdges) {
    const bool interior =
        (it0 + kBatch3) * kTileB <= n && (jt0 + kBatch3) * kTileB <= n && (kt + 1) * kTileB <= n;
    if (interior) {
      batched_phase3_block<kBatch3, false>(d, n, kt, it0, jt0, smem);
      return;
    }
  }
  batched_phase3_block<kBatch3, true>(d, n, kt, it0, jt0, smem);
}

}  // namespace apsp::kernels
