// Floyd-Warshall on many small graphs at once (core/graph_batch.hpp lays the batch out): each
// graph is one whole tile, so there are no phases, only its own k loop.
//   batch_simple:      a block a graph, in place in the output (the reference of the GPU kind);
//   batch_lane_groups: kLanes lanes a graph of up to kLanes vertices, a lane a column, the
//                      matrix in shared memory (molecules: several graphs a warp or one);
//   batch_block:       a block a graph of up to a few hundred vertices, in shared memory.
// Every kernel takes the graphs of one size band (min_n, max_n] and skips the others, so that a
// batch of mixed sizes is one launch a band, and the host needs no list of sizes.
// Weights are >= 0, so row k and column k do not change during step k (d[k][k] = 0): every step
// updates in place, and writing only on improvement keeps concurrent readers of them exact.
#pragma once

#include <cstdint>

#include "kernels/common.cuh"

namespace apsp::kernels {

struct BatchGraphs {
  const int64_t* vertex_ptr;
  const int64_t* edge_ptr;
  const int64_t* src;
  const int64_t* dst;
  const int32_t* weight;  // null: every edge weighs 1
};

// Where graph g's distances go, in T: ragged at offsets[g] (rows n apart; padded_n 0), or padded
// at g * padded_n^2 with rows padded_n apart and pad outside the n x n corner.
template <class T>
struct BatchOut {
  T* dist;
  const int64_t* offsets;
  int padded_n;
  T unreachable;
  T pad;
};

template <class T>
__device__ __forceinline__ T* graph_block(const BatchOut<T>& out, int64_t g, int n, int& pitch) {
  pitch = out.padded_n > 0 ? out.padded_n : n;
  return out.dist + (out.padded_n > 0 ? g * int64_t{pitch} * pitch : out.offsets[g]);
}

// The graph's distance matrix in type T, computed where it is written: inf (the type's "no
// path" while solving: its maximum, or kInf for int32) stands for no path until the last pass
// writes the caller's unreachable value. A block a graph; edges applied by one thread (the
// reference keeps to the plainest order).
template <class T>
__global__ void batch_simple(BatchGraphs b, BatchOut<T> out, T inf, int min_n, int max_n) {
  const int64_t g = blockIdx.x;
  const int64_t first = b.vertex_ptr[g];
  const int n = static_cast<int>(b.vertex_ptr[g + 1] - first);
  if (n <= min_n || n > max_n) return;
  int pitch;
  T* d = graph_block(out, g, n, pitch);
  for (int e = threadIdx.x; e < pitch * pitch; e += blockDim.x) {
    const int i = e / pitch, j = e % pitch;
    d[e] = i < n && j < n ? (i == j ? T(0) : inf) : out.pad;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int64_t e = b.edge_ptr[g]; e < b.edge_ptr[g + 1]; ++e) {
      T& entry = d[(b.src[e] - first) * pitch + (b.dst[e] - first)];
      const int w = b.weight ? b.weight[e] : 1;
      if (w < static_cast<int>(entry)) entry = static_cast<T>(w);
    }
  }
  __syncthreads();
  for (int k = 0; k < n; ++k) {
    for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
      const int i = e / n, j = e % n;
      const int c = static_cast<int>(d[i * pitch + k]) + static_cast<int>(d[k * pitch + j]);
      if (c < static_cast<int>(d[i * pitch + j])) d[i * pitch + j] = static_cast<T>(c);
    }
    __syncthreads();
  }
  if (out.unreachable == inf) return;
  for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
    T& entry = d[(e / n) * pitch + e % n];
    if (entry == inf) entry = out.unreachable;
  }
}

// Loads graph g into s (n x n, rows `pitch` apart, int32, kInf: no edge): the rows from `row`
// on in steps of `rows`, the columns from `col` in steps of `cols`; then, once every thread of
// the group has filled its part (sync), the edges by the group's `rank` of `size`, with shared
// atomicMin so that a duplicate edge keeps its smallest weight.
template <class Sync>
__device__ __forceinline__ void load_graph(const BatchGraphs& b, int64_t g, int* s, int n, int rank,
                                           int size, Sync sync) {
  for (int e = rank; e < n * n; e += size) s[e] = e / n == e % n ? 0 : kInf;
  sync();
  const int64_t first = b.vertex_ptr[g];
  for (int64_t e = b.edge_ptr[g] + rank; e < b.edge_ptr[g + 1]; e += size) {
    atomicMin(&s[(b.src[e] - first) * n + (b.dst[e] - first)], b.weight ? b.weight[e] : 1);
  }
  sync();
}

// Writes s (n x n, int32) to graph g's block in T: kInf becomes the unreachable value, the
// padding (padded output) the pad value.
template <class T>
__device__ __forceinline__ void store_graph(const BatchOut<T>& out, int64_t g, const int* s, int n,
                                            int rank, int size) {
  int pitch;
  T* d = graph_block(out, g, n, pitch);
  for (int e = rank; e < pitch * pitch; e += size) {
    const int i = e / pitch, j = e % pitch;
    T v = out.pad;
    if (i < n && j < n) v = s[i * n + j] >= kInf ? out.unreachable : static_cast<T>(s[i * n + j]);
    d[e] = v;
  }
}

// kLanes lanes a graph (kLanes divides 32): lane j of a group owns column j, so a step reads
// d[i][k] as a broadcast and d[i][j] from consecutive banks. Graphs of (min_n, kLanes] vertices.
template <class T, int kLanes>
__global__ void batch_lane_groups(BatchGraphs b, BatchOut<T> out, int64_t graphs, int min_n) {
  extern __shared__ int lane_group_smem[];
  constexpr int kGroupsPerWarp = 32 / kLanes;
  const int lane = threadIdx.x % kLanes;
  const int group = threadIdx.x / kLanes;
  const int64_t g = int64_t{blockIdx.x} * (blockDim.x / kLanes) + group;
  if (g >= graphs) return;
  const int n = static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]);
  if (n <= min_n || n > kLanes) return;  // the whole group leaves together
  const unsigned mask =
      kLanes == 32 ? 0xffffffffu : ((1u << kLanes) - 1) << (kLanes * ((threadIdx.x % 32) / kLanes));
  static_assert(kGroupsPerWarp * kLanes == 32, "a group of lanes divides a warp");
  int* s = lane_group_smem + group * kLanes * kLanes;
  load_graph(b, g, s, n, lane, kLanes, [mask] { __syncwarp(mask); });
  for (int k = 0; k < n; ++k) {
    if (lane < n) {  // every lane of the group reaches the __syncwarp below
      const int dkj = s[k * n + lane];
      for (int i = 0; i < n; ++i) {
        const int c = s[i * n + k] + dkj;
        if (c < s[i * n + lane]) s[i * n + lane] = c;
      }
    }
    __syncwarp(mask);
  }
  store_graph(out, g, s, n, lane, kLanes);
}

// A block a graph of (min_n, max_n] vertices, its matrix in shared memory (n^2 ints): thread t
// updates the entries t, t + blockDim.x, ... of each step.
template <class T>
__global__ void batch_block(BatchGraphs b, BatchOut<T> out, int min_n, int max_n) {
  extern __shared__ int block_smem[];
  const int64_t g = blockIdx.x;
  const int n = static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]);
  if (n <= min_n || n > max_n) return;
  load_graph(b, g, block_smem, n, threadIdx.x, blockDim.x, [] { __syncthreads(); });
  for (int k = 0; k < n; ++k) {
    for (int i = threadIdx.x / 32; i < n; i += blockDim.x / 32) {
      const int dik = block_smem[i * n + k];
      for (int j = threadIdx.x % 32; j < n; j += 32) {
        const int c = dik + block_smem[k * n + j];
        if (c < block_smem[i * n + j]) block_smem[i * n + j] = c;
      }
    }
    __syncthreads();
  }
  store_graph(out, g, block_smem, n, threadIdx.x, blockDim.x);
}

}  // namespace apsp::kernels
