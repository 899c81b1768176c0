// The distributed blocked Floyd-Warshall's kernels (launched by variants/05_sm90_multigpu.cu, in the
// round loop of harness/multigpu/distributed.cpp). Each
// rank holds a row block: its row tiles (first_tile .. first_tile + count - 1 of the matrix), all
// pitch columns, in sm90's padded layout (padding kPadding, so nothing checks bounds), plus the
// pivot-row panel of the round (tile rows x pitch, broadcast by the round's owner; the owner reads
// its own rows in place). A tile (i, j) of a block is its local row tile i, global column tile j;
// its global row tile is first_tile + i. Every product is sm90's (kernels/sm90.cuh update_tile),
// its operands in the block or the panel. sm90's panel point (tile 128, chunk 16, 8 x 8 a thread:
// one_round_from_panel) runs phase 3 as sm90's ordinary tiles run: A from the column panel (pivot
// column kt of the block transposed, k-major, a column a local row; pivot_column writes it), both
// operands copied by the ring (update_from_panel); there pairs of rounds (pair_phase3) take two
// rounds in one pass, from two column panels and two row panels side by side, as sm90's pairs
// (kernels/sm90_pairs.cuh) do.
#pragma once

#include "kernels/sm90.cuh"

namespace apsp::kernels::distributed {

// Phase 1 on the owner: the pivot tile, local row tile lt, column tile kt, closed in place
// (sm90's close_pivot on 16 x 16 threads, as sm90's phase1).
template <int kTile>
__global__ void __launch_bounds__(sm90::kPhase1Edge * sm90::kPhase1Edge)
    close_pivot_tile(int* __restrict__ block, int pitch, int lt, int kt) {
  constexpr int kPer = kTile / sm90::kPhase1Edge;
  extern __shared__ int4 smem4[];
  int acc[kPer][kPer];
  sm90::load_tile<kTile, kPer>(acc, block, pitch, lt, kt);
  sm90::close_pivot<kTile, kPer>(acc, reinterpret_cast<int*>(smem4));
  sm90::store_tile<kTile, kPer>(acc, block, pitch, lt, kt);
}

// Phase 2's shape (both parts): sm90's phase2 (4 x 4 per thread, kTile^2 / 16 threads) at tile
// 64; at tile 128 its 1024 threads (64 registers each) spill 8 bytes here (nvcc 13.0: the two
// operand buffers take more registers than sm90's one matrix), so 8 x 8 per thread on 256 threads
// in chunks of 8, as phase 3.
template <int kTile>
struct Phase2 {
  static constexpr int kPer = kTile == 128 ? sm90::kPerThread : sm90::kPerThread2;
  static constexpr int kChunk = kTile == 128 ? 8 : sm90::phase2_chunk<kTile>();
  static constexpr int kThreads = sm90::product_threads<kTile, kPer>();
  static constexpr int kSmem = sm90::product_smem<kTile, kChunk>();
};

// Phase 2, the pivot row, on the owner: tiles (lt, j), j != kt, one block each (tiles blocks):
// A the closed pivot (lt, kt), B the tile itself (as sm90's phase2).
template <int kTile>
__global__ void __launch_bounds__(Phase2<kTile>::kThreads)
                                      pivot_row(int* __restrict__ block, int pitch, int n, int lt,
                                                int kt) {
  const int j = blockIdx.x;
  if (j == kt) return;
  extern __shared__ int4 smem4[];
  sm90::update_tile<kTile, Phase2<kTile>::kChunk, Phase2<kTile>::kPer, false>(
      block, pitch, n, lt, j, kt, block, pitch, lt, kt, block, pitch, lt, j,
      reinterpret_cast<int*>(smem4));
}

// Phase 2, the pivot column, on every rank: its tiles (i, kt) but the pivot, one block each
// (count blocks): A the tile itself, B the closed pivot, column tile kt of the panel. kToPanel:
// each new tile also goes into the column panel, transposed (sm90's tile_to_panel), and so does
// the owner's pivot, which a pair's pass reads as A of its row tile.
template <int kTile, bool kToPanel>
__global__ void __launch_bounds__(Phase2<kTile>::kThreads)
                                      pivot_column(int* __restrict__ block, int pitch, int n,
                                                   int first_tile, int kt,
                                                   const int* __restrict__ panel,
                                                   int* __restrict__ column_panel) {
  const int i = blockIdx.x;
  if (first_tile + i == kt) {
    if constexpr (kToPanel)
      sm90::tile_to_panel<kTile, Phase2<kTile>::kPer>(block, pitch, i, kt, column_panel);
    return;
  }
  extern __shared__ int4 smem4[];
  sm90::update_tile<kTile, Phase2<kTile>::kChunk, Phase2<kTile>::kPer, false>(
      block, pitch, n, i, kt, first_tile + i, block, pitch, i, kt, panel, pitch, 0, kt,
      reinterpret_cast<int*>(smem4));
  if constexpr (kToPanel)
    sm90::tile_to_panel<kTile, Phase2<kTile>::kPer>(block, pitch, i, kt, column_panel);
}

// Whether phase 3 at (kTile, kChunk, kPer) reads A from the column panel (sm90's one-round ring).
template <int kTile, int kChunk, int kPer>
constexpr bool phase3_from_panel() {
  return sm90::one_round_from_panel<kTile, kChunk, kPer>();
}

// Phase 3's shared memory: the ring's stages, or accumulate's.
template <int kTile, int kChunk, int kPer>
constexpr int phase3_smem() {
  if constexpr (phase3_from_panel<kTile, kChunk, kPer>())
    return sm90::ring_smem<kTile, kPer, Int32Elements, false>();
  else
    return sm90::product_smem<kTile, kChunk>();
}

// The tiles of one phase-3 launch, in up to two parts (the look-ahead's next lines, the rows a
// rank owns and its columns, are one launch): part p covers local row tiles [first_row,
// first_row + rows) x column tiles [first_col, first_col + cols), but global row tiles [skip_row,
// skip_row + skip_rows) and column tiles [skip_col, skip_col + skip_cols) (skip_row / skip_col
// -1: none). Grid z is the part. Part 0 runs a row of tiles a grid row (x its column), part 1 a
// column a grid row (x its row), so that the wide rows and the tall columns of the lines both lie
// along x; the blocks of a plane outside its part (the plane is as wide as the wider part) return
// at once. Every index is a select of blockIdx and the parameters, which the compiler recomputes
// where it needs them rather than keep them live (a division here spilled phase 3 at 128
// registers).
struct TilePart {
  int first_row, rows, first_col, cols, skip_row, skip_rows, skip_col, skip_cols;
};
struct TileParts {
  TilePart part[2];
  bool two() const { return part[1].rows > 0 && part[1].cols > 0; }
  dim3 grid() const {
    const TilePart &a = part[0], &b = part[1];
    if (!two()) return dim3(a.cols, a.rows, 1);
    return dim3(a.cols > b.rows ? a.cols : b.rows, a.rows > b.cols ? a.rows : b.cols, 2);
  }
};

// This block's tile of `t`: local row tile i, column tile j, global row tile row_tile; false where
// it is outside its part or in the part's skipped lines.
__device__ __forceinline__ bool tile_of_block(const TileParts& t, int first_tile, int& i, int& j,
                                              int& row_tile) {
  const bool tall = blockIdx.z == 1;
  const TilePart p = tall ? t.part[1] : t.part[0];  // by value: selects, not a param address
  const int down = tall ? blockIdx.x : blockIdx.y, along = tall ? blockIdx.y : blockIdx.x;
  if (down >= p.rows || along >= p.cols) return false;
  i = p.first_row + down, j = p.first_col + along, row_tile = first_tile + i;
  return static_cast<unsigned>(row_tile - p.skip_row) >= static_cast<unsigned>(p.skip_rows) &&
         static_cast<unsigned>(j - p.skip_col) >= static_cast<unsigned>(p.skip_cols);
}

// Phase 3 on every rank: the tiles (i, j) of `tiles` off the pivot row and column (the skipped
// lines: the look-ahead's, updated on the side stream, and those final already). A = (i, kt) of
// the block (or, phase3_from_panel, of the column panel), B = column tile j of the panel. Two
// blocks per SM, as sm90's phase3.
template <int kTile, int kChunk, int kPer>
__global__ void __launch_bounds__(sm90::product_threads<kTile, kPer>(), 2) phase3(int* __restrict__ block, int pitch, int n,
                                                     int first_tile, TileParts tiles, int kt,
                                                     const int* __restrict__ panel,
                                                     const int* __restrict__ column_panel) {
  int i, j, row_tile;
  if (!tile_of_block(tiles, first_tile, i, j, row_tile) || j == kt || row_tile == kt) return;
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  if constexpr (phase3_from_panel<kTile, kChunk, kPer>()) {
    constexpr int kRing = sm90::ring_chunk<kTile, kPer>();
    sm90::update_from_panel<kTile, kPer, Int32Elements, false>(
        block, pitch, n, i, j, row_tile, kt, sm90::live_chunks<kTile, kRing>(n, kt), column_panel,
        smem, panel);
  } else {
    sm90::update_tile<kTile, kChunk, kPer, true>(block, pitch, n, i, j, row_tile, block, pitch, i,
                                                 kt, panel, pitch, 0, j, smem);
  }
}

// The pair pass's ring: sm90's pairs' (three stages on mbarriers at tile 128), whatever the
// per-thread block.
template <int kTile>
constexpr bool pair_ring_mbarriers() {
  return sm90::ring_mbarriers<kTile, Int32Elements, true>();
}

template <int kTile, int kPer>
constexpr int pair_phase3_smem() {
  return sm90::ring_smem<kTile, kPer, Int32Elements, true>();
}

// Phase 3 of the pair of rounds r and r + 1 on every rank, in one pass over both rounds' k (as
// sm90's lookahead2_ordinary): the tiles of `tiles`, off the skipped lines only. The pivot
// lines of round r are in it: row and column r get round r + 1 there. Why two rounds may share a
// pass, and why operands that had later updates give the same result: kernels/sm90_pairs.cuh.
// A = local row tile i of the column panels (rows 0 .. kTile - 1: column r transposed, then
// column r + 1), B = column tile j of the row panels (rows r, then r + 1); both copies, so no
// block reads what another writes.
template <int kTile, int kPer>
__global__ void __launch_bounds__(sm90::product_threads<kTile, kPer>(), 2) pair_phase3(int* __restrict__ block, int pitch, int n,
                                                          int first_tile, TileParts tiles, int r,
                                                          const int* __restrict__ panels,
                                                          const int* __restrict__ column_panels) {
  int i, j, row_tile;
  if (!tile_of_block(tiles, first_tile, i, j, row_tile)) return;
  extern __shared__ int4 smem4[];
  constexpr int kRing = sm90::ring_chunk<kTile, kPer>();
  const int chunks = (min(2 * kTile, n - r * kTile) + kRing - 1) / kRing;
  sm90::update_from_panel<kTile, kPer, Int32Elements, pair_ring_mbarriers<kTile>()>(
      block, pitch, n, i, j, row_tile, r, chunks, column_panels, reinterpret_cast<int*>(smem4),
      panels);
}

}  // namespace apsp::kernels::distributed
