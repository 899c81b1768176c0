// 05 sm90 over several GPUs: the distributed engine's products (kernels/distributed.cuh) at sm90's
// compiled points, and how an sm90 config maps onto them: its tile, chunk and per_thread, its
// look-ahead on or off. 05_sm90.cu declares them as its Variant::multi_gpu.
#include <cuda_runtime_api.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "kernels/distributed.cuh"
#include "variants/sm90_multigpu.hpp"

namespace apsp {

namespace {

namespace s = kernels::sm90;
namespace d = kernels::distributed;

// A launch's tiles as the kernels take them: an empty set as rows = cols = 0, and a lone second
// set as the first.
d::TilePart tile_part(const Phase3Tiles& t) {
  if (t.empty()) return {0, 0, 0, 0, -1, 1, -1, 1};
  return {t.first_row, t.rows,      t.first_col, t.cols,
          t.skip_row,  t.skip_rows, t.skip_col,  t.skip_cols};
}
d::TileParts tile_parts(const Phase3Launch& t) {
  if (t.first.empty()) return {{tile_part(t.second), tile_part({})}};
  return {{tile_part(t.first), tile_part(t.second)}};
}

// One compiled (tile, chunk, per_thread): its kernels' launch sizes and launchers.
template <int kTile, int kChunk, int kPer>
struct Point {
  static_assert(s::product_fits<kTile, kChunk, kPer>(),
                "sm90's rule: at most 256 threads, whole 16-byte loads");
  static constexpr int kThreads1 = s::kPhase1Edge * s::kPhase1Edge, kSmem1 = s::pivot_smem<kTile>();
  static constexpr int kThreads2 = d::Phase2<kTile>::kThreads, kSmem2 = d::Phase2<kTile>::kSmem;
  static constexpr int kThreads3 = s::product_threads<kTile, kPer>(),
                       kSmem3 = d::phase3_smem<kTile, kChunk, kPer>();
  static constexpr bool kFromPanel = d::phase3_from_panel<kTile, kChunk, kPer>();
  // Pairs of rounds where sm90 runs them from the panel at tile 128 (its lookahead 3).
  static constexpr bool kPairs = kFromPanel && kTile == 128;
  static constexpr int kSmemPairs = d::pair_phase3_smem<kTile, kPer>();

  // Dynamic shared memory above the default 48 KB needs the attribute, on each device.
  static void prepare_device() {
    constexpr auto kMax = cudaFuncAttributeMaxDynamicSharedMemorySize;
    APSP_CUDA_CHECK(cudaFuncSetAttribute(d::close_pivot_tile<kTile>, kMax, kSmem1));
    APSP_CUDA_CHECK(cudaFuncSetAttribute(d::pivot_row<kTile>, kMax, kSmem2));
    APSP_CUDA_CHECK(cudaFuncSetAttribute(d::pivot_column<kTile, kFromPanel>, kMax, kSmem2));
    APSP_CUDA_CHECK(cudaFuncSetAttribute(d::phase3<kTile, kChunk, kPer>, kMax, kSmem3));
    if constexpr (kPairs)
      APSP_CUDA_CHECK(cudaFuncSetAttribute(d::pair_phase3<kTile, kPer>, kMax, kSmemPairs));
  }
  static void close_pivot(const RowBlock& b, int lt, int kt, cudaStream_t stream) {
    d::close_pivot_tile<kTile><<<1, kThreads1, kSmem1, stream>>>(b.d, b.pitch, lt, kt);
    APSP_CUDA_CHECK_LAUNCH();
  }
  static void pivot_row(const RowBlock& b, int lt, int kt, cudaStream_t stream) {
    d::pivot_row<kTile><<<b.tiles, kThreads2, kSmem2, stream>>>(b.d, b.pitch, b.n, lt, kt);
    APSP_CUDA_CHECK_LAUNCH();
  }
  static void pivot_column(const RowBlock& b, int kt, const int* panel, int* column_panel,
                           cudaStream_t stream) {
    d::pivot_column<kTile, kFromPanel><<<b.row_tiles, kThreads2, kSmem2, stream>>>(
        b.d, b.pitch, b.n, b.first_tile, kt, panel, column_panel);
    APSP_CUDA_CHECK_LAUNCH();
  }
  static void phase3(const RowBlock& b, const Phase3Launch& t, int kt, const int* panel,
                     const int* column_panel, cudaStream_t stream) {
    if (t.empty()) return;
    const d::TileParts parts = tile_parts(t);
    d::phase3<kTile, kChunk, kPer><<<parts.grid(), kThreads3, kSmem3, stream>>>(
        b.d, b.pitch, b.n, b.first_tile, parts, kt, panel, column_panel);
    APSP_CUDA_CHECK_LAUNCH();
  }
  static void pair_phase3(const RowBlock& b, const Phase3Launch& t, int r, const int* panels,
                          const int* column_panels, cudaStream_t stream) {
    if (t.empty()) return;
    const d::TileParts parts = tile_parts(t);
    d::pair_phase3<kTile, kPer><<<parts.grid(), kThreads3, kSmemPairs, stream>>>(
        b.d, b.pitch, b.n, b.first_tile, parts, r, panels, column_panels);
    APSP_CUDA_CHECK_LAUNCH();
  }
  static DistributedKernels kernels() {
    return {kTile,
            std::to_string(kTile) + "/" + std::to_string(kChunk) + "/" + std::to_string(kPer),
            prepare_device,
            close_pivot,
            pivot_row,
            pivot_column,
            phase3,
            kPairs ? std::function<void(const RowBlock&, const Phase3Launch&, int, const int*,
                                        const int*, cudaStream_t)>(pair_phase3)
                   : nullptr};
  }
};

// sm90's compiled (tile, chunk, per_thread) points (05_sm90.cu: ProductFits, NoSpills; the phase
// 3 kernel here is sm90's lookahead-0 phase3, which compiles at 64/32/8 too). Named tile/chunk/
// per_thread. 128/16/8 is sm90's panel point: phase 3 from the column panel by the ring, its other
// products at chunk 8 (product_chunk), as sm90's panel configs run theirs.
const std::vector<DistributedKernels>& points() {
  static const std::vector<DistributedKernels> all = {
      Point<64, 8, 8>::kernels(),  Point<64, 16, 4>::kernels(), Point<64, 16, 8>::kernels(),
      Point<64, 32, 4>::kernels(), Point<64, 32, 8>::kernels(), Point<128, 8, 8>::kernels(),
      Point<128, 16, 8>::kernels()};
  return all;
}

// An sm90 config's point: its tile, chunk and per_thread (sm90's defaults, 128/16/8, for those it
// lacks).
struct Asked {
  int tile = 128, chunk = 16, per_thread = 8;
  explicit Asked(const Config& c) {
    auto get = [&](const char* name, int& value) {
      if (auto it = c.find(name); it != c.end()) value = it->second;
    };
    get("tile", tile);
    get("chunk", chunk);
    get("per_thread", per_thread);
  }
  std::string name() const {
    return std::to_string(tile) + "/" + std::to_string(chunk) + "/" + std::to_string(per_thread);
  }
  const DistributedKernels* point() const {
    for (const DistributedKernels& k : points())
      if (k.name == name()) return &k;
    return nullptr;
  }
};

std::string check(const Config& c) {
  const Asked a(c);
  if (a.point()) return "";
  std::string have;
  for (const DistributedKernels& k : points()) have += (have.empty() ? "" : ", ") + k.name;
  return "the distributed engine has no kernels for tile " + std::to_string(a.tile) + ", chunk " +
         std::to_string(a.chunk) + ", per_thread " + std::to_string(a.per_thread) +
         " (tile/chunk/per_thread: " + have + ")";
}

// lookahead 0 turns the engine's look-ahead off; 1 to 5 leave it on (the engine has one
// look-ahead schedule); 3 to 5, sm90's pairs of rounds, run the engine's steps as pairs where
// the point has their pass (the panel point).
DistributedConfig engine(const Config& c) {
  DistributedConfig e;
  e.kernels = Asked(c).point();
  if (!e.kernels) throw std::invalid_argument(check(c));
  int lookahead = 1;
  if (auto it = c.find("lookahead"); it != c.end()) lookahead = it->second;
  e.lookahead = lookahead != 0;
  e.pairs = lookahead >= 3 && e.kernels->pair_phase3 != nullptr;
  return e;
}

}  // namespace

std::shared_ptr<const MultiGpuSupport> sm90_multi_gpu() {
  static const auto support = std::make_shared<const MultiGpuSupport>(
      MultiGpuSupport{[](const Config& c) { return Asked(c).tile; }, check, engine});
  return support;
}

}  // namespace apsp
