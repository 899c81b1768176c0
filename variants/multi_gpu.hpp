// What a variant declares to run on the distributed engine (harness/multigpu/distributed.hpp):
// its row tile, its check, and the launchers of the engine's five products at each of its
// compiled points. The engine knows no variant: it partitions the rows by the declared tile and
// runs its round loop with the declared kernels (Variant::multi_gpu holds the declaration).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <string>

#include "variants/variant.hpp"

namespace apsp {

// A rank's row block as the engine holds it: its row tiles (global row tiles first_tile ..
// first_tile + row_tiles - 1), all `tiles` column tiles, rows `pitch` apart, padded as the
// variant's layout (Variant::pitch) pads them, so no kernel checks bounds. Local row tile i is
// global row tile first_tile + i.
struct RowBlock {
  int* d = nullptr;
  int pitch = 0, n = 0;
  int first_tile = 0, row_tiles = 0;
  int tiles = 0;  // column tiles of the whole matrix, pitch / tile
};

// Which tiles of a row block one phase-3 launch updates: local row tiles [first_row, first_row +
// rows) x column tiles [first_col, first_col + cols), but global row tiles [skip_row, skip_row +
// skip_rows) and column tiles [skip_col, skip_col + skip_cols) (skip_row / skip_col -1: none):
// the lines that are final already or that the look-ahead updates on its own stream.
struct Phase3Tiles {
  int first_row = 0, rows = 0;
  int first_col = 0, cols = 0;
  int skip_row = -1, skip_col = -1;
  int skip_rows = 1, skip_cols = 1;
  bool empty() const { return rows <= 0 || cols <= 0; }
};

// The tiles of one phase-3 launch: one set, or two in one launch, so that the look-ahead's next
// lines wait for the SMs, and end, once and not one after the other: `first` the rows of the next
// step a rank owns (wide), `second` its columns (tall; kernels/distributed.cuh lays each out
// along its long side).
struct Phase3Launch {
  Phase3Tiles first, second{};  // second: none by default
  bool empty() const { return first.empty() && second.empty(); }
};

// The engine's products at one compiled point. Each launcher enqueues one launch on `stream` (on
// the current device, the rank's) and checks it; `panel` is round kt's pivot-row panel (tile rows x
// pitch: the owner's own rows, or the broadcast copy); `column_panel` is the rank's pivot column
// kt transposed (tile rows x pitch, row k its column kt x tile + k, a column a local row), which
// pivot_column writes and phase3 reads at points that read A from it (sm90's panel point).
struct DistributedKernels {
  int tile = 0;
  std::string name;  // the point in the variant's words, for messages: "128/8/8"
  // Once on each device before its first launch there (shared memory above the default).
  std::function<void()> prepare_device;
  // Phase 1 on the owner: the pivot tile (local row tile lt, column tile kt), closed in place.
  std::function<void(const RowBlock&, int lt, int kt, cudaStream_t)> close_pivot;
  // Phase 2 on the owner: the pivot row's tiles (lt, j), j != kt, from the closed pivot.
  std::function<void(const RowBlock&, int lt, int kt, cudaStream_t)> pivot_row;
  // Phase 2 on every rank: its tiles (i, kt) of the pivot column but the pivot, from the panel
  // (and into the column panel, the owner's pivot tile too).
  std::function<void(const RowBlock&, int kt, const int* panel, int* column_panel, cudaStream_t)>
      pivot_column;
  // Phase 3 on every rank: the tiles of `tiles` off the pivot row and column; A from the block
  // (or the column panel), B from the panel.
  std::function<void(const RowBlock&, const Phase3Launch& tiles, int kt, const int* panel,
                     const int* column_panel, cudaStream_t)>
      phase3;
  // Phase 3 of the pair of rounds r and r + 1 in one pass over k = 2 tile, on the tiles of
  // `tiles` (the pivot lines too: only the skipped ones are left out); A from the column panels
  // of both rounds (2 tile rows: column r, then r + 1), B from their row panels (2 tile rows x
  // pitch). Null at points without it (DistributedConfig::pairs is then off).
  std::function<void(const RowBlock&, const Phase3Launch& tiles, int r, const int* panels,
                     const int* column_panels, cudaStream_t)>
      pair_phase3;
};

// One config on the engine: its kernels, whether the next step's panels are made and sent during
// this step's phase 3 (the engine's look-ahead schedule, harness/multigpu/distributed.hpp), and
// whether its steps are pairs of rounds (one phase-3 pass over both rounds' k; only at points
// with pair_phase3).
struct DistributedConfig {
  const DistributedKernels* kernels = nullptr;  // lives as long as the program
  bool lookahead = true;
  bool pairs = false;
  // The fewest row tiles on the busiest rank at which `pairs` runs pairs (runs_pairs,
  // harness/multigpu/distributed.hpp). Below it a step's phase 3 is too short to hide the making
  // of the next pair on its owner's side stream (two closures and two row updates, one after the
  // other, and a broadcast between them), and one round a step is faster: on the H200 pairs lost
  // at 10 and 20 tiles a rank and won from 24 (docs/perf-notes.md). Tests set 1 to run pairs at
  // every size.
  static constexpr int kPairsFromRowTiles = 24;
  int pairs_from_row_tiles = kPairsFromRowTiles;
  int tile() const { return kernels->tile; }
};

// A variant's declaration (Variant::multi_gpu).
struct MultiGpuSupport {
  // The row tile of config c: the engine's partition, and so each rank's memory.
  std::function<int(const Config& c)> tile;
  // "" when the engine has kernels for c; otherwise why not (one line).
  std::function<std::string(const Config& c)> check;
  // c on the engine; only for a config check accepts.
  std::function<DistributedConfig(const Config& c)> engine;
};

}  // namespace apsp
