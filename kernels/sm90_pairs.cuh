// sm90's look-ahead over pairs of rounds (lookahead = 3, the configs whose ordinary tiles run the
// ring: chunk 16 at tile 128 with 8 x 8 a thread, int32 and sm90_u16's packed 16-bit pairs, the
// element format F; and int32 at tile 64). The ordinary tiles take two rounds in one pass: k runs
// over two tiles (256, or 128) per load and store of C, where lookahead 1 loads and stores C every
// round. Tile indices below are in tiles; "128" is kTile.
// probes/product_probe.cu measured the pass at 92.3% / 93.1% of the ceiling at n = 9984 / 29952
// on the H200, against 88.2% / 90.0% for the one-round pass (docs/perf-notes.md).
//
// Why two rounds may share a pass: after round s = r + 1 a tile (i, j) off rows and columns r
// and s holds min(d, A_r (x) B_r, A_s (x) B_s), with A_r / B_r column / row r after round r and
// A_s / B_s column / row s after round s. min is associative, so one product over k in
// [r * 128, (r + 2) * 128) gives exactly that once rows and columns r and s are final. Those
// lines may carry later rounds' updates too: every entry is always the length of some path,
// values only fall, and min and + are monotone, so an operand lower than the one the plain
// order would read still gives an entry between the true distance and the plain order's value,
// and the final matrix is the same. The schedule below reads only operands that have had at
// least the rounds the plain order gives them (never too early); some it reads later than
// needed, which is harmless by that argument.
//
// A step of pair (r, s): the main stream updates every tile off rows and columns r .. r + 3 with
// rounds r and s (lookahead2_ordinary, A from the pair's panel); the side stream prepares the
// next pair (u, v) = (r + 2, r + 3) meanwhile, reading only lines r, s, u and v and writing only
// lines u and v:
//   L  rows and columns u and v, off rows and columns r and s: rounds r and s in one pass, as
//      the ordinary tiles (lookahead2_lines, at their blocks an SM: pass_blocks_per_sm);
//   then five steps, each a product of k = 128 a tile or a closure (lookahead2_pivot, one
//   block; lookahead2_line, a launch for a row and one for a column; both two blocks an SM):
//   A  pivot (u, u) closed;
//   B  row and column u (all tiles but the pivot): phase 2 of round u;
//   C  pivot (v, v): round u, closed; then row and column v but (u, v), (v, u): round u;
//   D  row and column v: phase 2 of round v; they are final. The pivot (v, v) too, which
//      changes nothing (it is closed: P = min(P, P (x) P)), so that D copies it into the panel;
//   E  row and column u but (u, v), (v, u), and (u, u): round v; they are final.
// The first pair has no L (nothing before it). The tiles of the group's columns are written into
// the next panel (rows 0 .. 127: column u, 128 .. 255: column v, transposed) by D and E, once
// final (with E deferred, below: by B, column u after round u, and D). A last round without a
// partner (an odd number of tiles) gets L, A and B, and then a plain phase 3 after the last pair.
//
// A first form ran rounds r and s on the lines inside A, B and C, at one block an SM (k = 384
// for line v): per pair twice the side work of lookahead 1 at that rate, and it lost at n = 5000
// and 10000 (docs/perf-notes.md). C's pivot and lines are separate launches so that
// the lines, like every line product, run at two blocks an SM. A side kernel that needs over 128
// registers needs a whole SM: none is free until every ordinary block on it ends (int32: two;
// 16-bit pairs: three, pass_blocks_per_sm).
//
// The short chain (tile 64): there a step's launch and wait cost about what its work does, and
// the eleven launches above left the pass waiting (n = 2500: 2.10 ms against tile 64's look-ahead
// 1 at 1.50, H200). So L closes the pivot (u, u) in its block (A), and B-E are one launch each,
// row and column together, C's pivot in C's launch (lookahead2_cross), each launched early
// (programmatic dependent launch): 1.44 ms (docs/perf-notes.md).
//
// Deferring E (lookahead 4 and 5, the short chain only). Nothing before the next pair's B needs
// E: the pass of pair (u, v) needs column and row u after round u only (B's), and the next
// pair's L reads lines u and v the same way (rounds u and v on its lines). So B writes column u
// into the panel (after round u; without deferral E writes it after round v, which is as
// good), and E of pair (u, v) runs on a third stream beside that pair's pass and the next pair's
// L, and before the next pair's B, which reads E's tiles (u, u + 2), (u + 2, u), ... Then C and
// D, not E, end a pair's side chain (H200, n = 2000: 0.84 to 0.80 ms;
// docs/perf-notes.md). E writes lines u of d; nothing else running then reads them but the pass and L, which read
// row u as B: so with E deferred those read B from a copy of rows u and v, the row panel (rows
// 0 .. 63: row u, 64 .. 127: row v, as in d), which B and D fill as they store each row tile
// (product_tile's copy). Column u they read from the panel; E writes no panel.
#pragma once

#include "kernels/sm90.cuh"

namespace apsp::kernels::sm90 {

// Pairs of rounds at tile 64 prepare a pair in five launches, not eleven (lookahead2_cross);
// there E may be deferred, the pass and L then reading B from the row panel (above).
template <int kTile>
constexpr bool short_chain() {
  return kTile == 64;
}

// A thread's outputs along an edge in the side chain's products and closures and in L: 4 x 4 at
// tile 64 whatever the pass's per_thread (at 8 x 8 a tile is 64 threads, and a chain step, one
// tile's product on its own, waits on their latency; the panel holds the tiles in the matrix's
// layout, not a thread's), else the pass's.
template <int kTile, int kPer>
constexpr int chain_per() {
  return short_chain<kTile>() ? 4 : kPer;
}

// x in [0, tiles - skipped) onto the tile indices outside [first, first + skipped).
__device__ __forceinline__ int skip_range(int x, int first, int skipped) {
  return x < first ? x : x + skipped;
}

// Copies tile (ci, cj), just stored by this block, into the next pair's panel if its column is
// one of the pair's (g, g + 1): rows 0 .. 127 of the panel hold column g, 128 .. 255 column g + 1.
template <int kTile, int kPer, class F>
__device__ __forceinline__ void pair_tile_to_panel(const int* __restrict__ d, int pitch, int ci,
                                                   int cj, int* __restrict__ panel, int g) {
  if (panel != nullptr && cj >= g && cj < g + 2)
    tile_to_panel<kTile, kPer, F>(
        d, pitch, ci, cj, panel + static_cast<size_t>(cj - g) * kTile * panel_pitch<F>(pitch));
}

// Where tile row ci of d goes in the row panel (null: none), if it is one of the pair's (g,
// g + 1): the row panel's rows are d's rows g * kTile .. (g + 2) * kTile - 1, `pitch` words apart.
// product_tile stores a tile there as it stores it in d.
template <int kTile>
__device__ __forceinline__ int* row_panel_tiles(int* __restrict__ row_panel, int pitch, int ci,
                                                int g) {
  return row_panel != nullptr && ci >= g && ci < g + 2
             ? row_panel + static_cast<size_t>(ci - g) * kTile * pitch
             : nullptr;
}

// A and C's pivot: tile (q, q), the round-kt update first (kt < 0: none), then closed. Packed
// formats: the update is stored and read back as one int an element for the closure
// (update_and_close_next_pivot does the same).
template <int kTile, int kChunk, int kPer, class F>
__device__ __forceinline__ void update_and_close(int* __restrict__ d, int pitch, int n, int q,
                                                 int kt, int* smem) {
  int acc[kPer][kPer];
  if constexpr (F::kPerWord == 1) {
    load_tile<kTile, kPer>(acc, d, pitch, q, q);
    if (kt >= 0)
      accumulate<kTile, kChunk, kPer>(acc, d, pitch, q, kt, d, pitch, kt, q,
                                      live_chunks<kTile, kChunk>(n, kt), smem);
  } else {
    if (kt >= 0) {
      product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, q, q, kt, smem);
      __syncthreads();  // every thread's stores, before the block reads the tile back
    }
    load_elements<kTile, kPer, F>(acc, d, pitch, q, q);
  }
  close_pivot<kTile, kPer>(acc, smem);
  store_elements<kTile, kPer, F>(acc, d, pitch, q, q);
}

// A and C's pivot as a launch of one block (tile 128; the short chain runs them inside L and C).
// Two blocks an SM fit (126 registers at tile 128), so the int32 pivot needs only half an SM's
// registers, free as soon as one ordinary block ends; with its panel copy in the kernel it took
// 140, a whole SM. D copies (v, v) into the panel instead. The 16-bit pivot (124 registers)
// needs two of the three ordinary blocks on an SM to end (one frees 80 registers a thread); A/B
// at n = 10000 and 30000 still gained (docs/perf-notes.md), nearer n = 7072 that was not
// measured.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), 2) lookahead2_pivot(int* __restrict__ d, int pitch,
                                                               int n, int q, int kt) {
  extern __shared__ int4 smem4[];
  update_and_close<kTile, kChunk, kPer, F>(d, pitch, n, q, kt, reinterpret_cast<int*>(smem4));
}

// B, C's lines, D and E: one product a tile, the round-kt update (phase 2 where kt = q), at two
// blocks an SM: row q (kColumn false) or column q, outside tiles [skip, skip + skipped), a block
// a tile; with one block more (x = tiles - skipped), the tile (q, q) too. Each tile goes into the
// panel (null: none) if its column is the pair's. The row and the column are two launches: with
// the orientation chosen at run time (one grid, by block index), ptxas spilled 16-108 bytes at
// 128 registers.
template <int kTile, int kChunk, int kPer, bool kColumn, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), 2) lookahead2_line(int* __restrict__ d, int pitch, int n,
                                                         int tiles, int q, int skip, int skipped,
                                                         int kt, int* __restrict__ panel, int g) {
  extern __shared__ int4 smem4[];
  const int x = blockIdx.x, t = x == tiles - skipped ? q : skip_range(x, skip, skipped);
  const int ci = kColumn ? t : q, cj = kColumn ? q : t;
  product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, ci, cj, kt,
                                              reinterpret_cast<int*>(smem4));
  pair_tile_to_panel<kTile, kPer, F>(d, pitch, ci, cj, panel,
                                     g);  // reads back this block's stores (tile_to_panel)
}

// Rounds r and r + 1 on tile (ci, cj) in one pass: A from the pair's panel (256 rows), B rows
// r * 128 .. of d (E deferred: the pair's row panel, non-null only then), in
// accumulate_from_panel's ring (ring_mbarriers: int32 at tile 128 three stages on mbarriers, else
// two and a block barrier a chunk).
template <int kTile, int kPer, class F>
__device__ __forceinline__ void pair_pass(int* __restrict__ d, int pitch, int n, int ci, int cj,
                                          int r, const int* __restrict__ panel,
                                          const int* __restrict__ row_panel, int* smem) {
  constexpr int kChunk = ring_chunk<kTile, kPer>();
  const int chunks = (min(2 * kTile, n - r * kTile) + kChunk - 1) / kChunk;
  update_from_panel<kTile, kPer, F, ring_mbarriers<kTile, F, true>()>(
      d, pitch, n, ci, cj, ci, r, chunks, panel, smem, short_chain<kTile>() ? row_panel : nullptr);
}

// The main stream's part of pair (r, r + 1): every tile off rows and columns r .. r + 3. The
// grid is others x others, others = tiles - min(4, tiles - r): where fewer than 4 tiles are left
// from r, the others are exactly [0, r), which skip_range over 4 maps as well. (One-dimensional
// grids, the tile found by division, made ptxas spill 24-36 bytes at 128 registers; two
// dimensions take 125 and none.)
// Blocks an SM for the pass and L. int32 fits two. 16-bit pairs fit three since their ring
// stopped recomputing addresses (80 registers with two blocks asked, 25 KB of shared memory a
// block). That ring and the third block together made sm90_u16 4% faster at n = 10000 and 30000
// on the H100; they were not measured apart (docs/perf-notes.md).
template <class F>
constexpr int pass_blocks_per_sm() {
  return F::kPerWord == 1 ? 2 : 3;
}

template <int kTile, int kPer, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), pass_blocks_per_sm<F>())
                                          lookahead2_ordinary(int* __restrict__ d, int pitch, int n,
                                                              int r, const int* __restrict__ panel,
                                                              const int* __restrict__ row_panel) {
  extern __shared__ int4 smem4[];
  pair_pass<kTile, kPer, F>(d, pitch, n, skip_range(blockIdx.y, r, 4), skip_range(blockIdx.x, r, 4),
                            r, panel, row_panel, reinterpret_cast<int*>(smem4));
}

// The side stream's first launch: rounds r and r + 1 on the lines of the next pair, rows and
// columns u .. u + lines - 1 (u = r + 2), off rows and columns r and r + 1 (final already), in
// the same pass as the ordinary tiles and at their blocks an SM. Grid (tiles - 2, 2 * lines):
// blockIdx.y = 2 * line + (0: its row, 1: its column); a column's tiles in the lines' rows are
// their rows' (those blocks return).
template <int kTile, int kPer, class F = Int32Elements, bool kCloseFirst = false>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), pass_blocks_per_sm<F>())
                                               lookahead2_lines(int* __restrict__ d, int pitch,
                                                                int n, int r, int lines,
                                                                const int* __restrict__ panel,
                                                                const int* __restrict__ row_panel) {
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  const int u = r + 2, line = u + static_cast<int>(blockIdx.y >> 1), t = skip_two(blockIdx.x, r);
  const bool column = blockIdx.y & 1;
  if (column && t >= u && t < u + lines) return;
  pair_pass<kTile, kPer, F>(d, pitch, n, column ? t : line, column ? line : t, r, panel, row_panel,
                            smem);
  if constexpr (kCloseFirst) {
    if (line == u && t == u) {  // A in the same launch: the pivot (u, u), final now, closed
      __syncthreads();          // every thread's stores, before the block reads the tile back
      update_and_close<kTile, kRingChunk, kPer, F>(d, pitch, n, u, -1, smem);
    }
  }
}

// The short chain (tile 64, where a launch's wait costs as much as its work): B, C, D and E each
// one launch, row q and column q together. Grid (others + diag, others > 0 ? 2 : 1), others =
// tiles - skipped: blockIdx.y 0 the row's tiles, 1 the column's, outside [skip, skip + skipped),
// each its round-kt update (phase 2 where kt = q) and into the panel if its column is the pair's
// (and into the row panel, where one is given, if its row is); with diag, block (others, 0) takes
// the tile (q, q): updated and copied as the others (D, E), or, with close_diag (C), updated and
// then closed, as lookahead2_pivot.
template <int kTile, int kChunk, int kPer, class F = Int32Elements>
__global__ void __launch_bounds__(product_threads<kTile, kPer>(), 2) lookahead2_cross(int* __restrict__ d, int pitch,
                                                               int n, int tiles, int q, int skip,
                                                               int skipped, int kt, bool close_diag,
                                                               int* __restrict__ panel,
                                                               int* __restrict__ row_panel, int g) {
  wait_for_previous();  // launched early (the host's launch_early): its launch hides behind the previous step
  allow_next();
  extern __shared__ int4 smem4[];
  int* smem = reinterpret_cast<int*>(smem4);
  const int x = blockIdx.x, others = tiles - skipped;
  const bool column = blockIdx.y == 1;
  if (x == others) {
    if (column) return;
    if (close_diag) {
      update_and_close<kTile, kChunk, kPer, F>(d, pitch, n, q, kt, smem);
    } else {
      product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, q, q, kt, smem,
                                                  row_panel_tiles<kTile>(row_panel, pitch, q, g));
      pair_tile_to_panel<kTile, kPer, F>(d, pitch, q, q, panel, g);
    }
    return;
  }
  const int t = skip_range(x, skip, skipped), ci = column ? t : q, cj = column ? q : t;
  product_tile<kTile, kChunk, kPer, false, F>(d, pitch, n, ci, cj, kt, smem,
                                              row_panel_tiles<kTile>(row_panel, pitch, ci, g));
  pair_tile_to_panel<kTile, kPer, F>(d, pitch, ci, cj, panel,
                                     g);  // reads back this block's stores (tile_to_panel)
}

}  // namespace apsp::kernels::sm90
