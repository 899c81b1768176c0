// The adjacency matrix built on the device from the edges (apsp: no V x V matrix on the host),
// in a variant's layout (harness/measure/matrix_layout.hpp): the same values as fill_adjacency on the
// host (core/dist_matrix.hpp), bit for bit.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels::adjacency {

// Rows [first_row, first_row + rows) of the matrix in its layout, rows `pitch` apart from d (row
// first_row at d): kInf in the n x n corner, 0 on its diagonal, `padding` outside it. The whole
// matrix is first_row 0, rows pitch; a rank's block (harness/multigpu/row_partition.hpp) is its
// rows. A grid-stride loop over the rows x pitch entries.
static __global__ void fill(int* __restrict__ d, int n, int pitch, int first_row, int rows,
                            int padding) {
  const long long count = static_cast<long long>(rows) * pitch;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = first_row + static_cast<int>(e / pitch), j = static_cast<int>(e % pitch);
    d[e] = i < n && j < n ? (i == j ? 0 : kInf) : padding;
  }
}

// The smallest weight of each edge u -> v with u in [first_row, first_row + rows) (duplicates:
// the minimum wins), into those rows as fill lays them out; self loops never beat d[u][u] = 0.
// `edges` are (src, dst, w) triples: every rank reads the whole list and keeps its sources.
static __global__ void scatter(int* __restrict__ d, int pitch, int first_row, int rows,
                               const int3* __restrict__ edges, long long count) {
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int3 edge = edges[e];
    const int i = edge.x - first_row;
    if (edge.x != edge.y && i >= 0 && i < rows) atomicMin(d + at(i, edge.y, pitch), edge.z);
  }
}

// A caller's n x n int32 matrix (rows `stride` apart, device memory) under SciPy's dense
// conventions into d (rows n apart): off the diagonal an entry 0 is no edge, and so is one at or
// above kInf (the unreachable value); the diagonal is 0; `unweighted`: every edge 1. The largest
// weight goes to *max_weight, the lowest flat index of a negative entry to *first_negative.
// A grid-stride loop over the n^2 entries.
static __global__ void from_dense(const int* __restrict__ in, long long stride, int n,
                                  int* __restrict__ d, int unweighted, int* max_weight,
                                  unsigned long long* first_negative) {
  const long long count = static_cast<long long>(n) * n;
  int most = 0;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / n), j = static_cast<int>(e % n);
    const int x = in[i * stride + j];
    int v = kInf;
    if (i == j) {
      v = 0;
    } else if (x != 0 && x < kInf && (x > 0 || unweighted)) {  // unweighted: any edge weighs 1
      v = unweighted ? 1 : x;
    } else if (x < 0) {
      atomicMin(first_negative, static_cast<unsigned long long>(e));
    }
    d[e] = v;
    if (v < kInf) most = max(most, v);
  }
  if (most > 0) atomicMax(max_weight, most);
}

// d[i][j] = d[j][i] = the smaller of the two (an undirected graph), in place: a block takes the
// tile pair (bx, by) and (by, bx) with bx <= by through shared memory, so reads and writes are
// coalesced and no pair is taken twice. Blocks of kSymRows x kSymTile threads.
inline constexpr int kSymTile = 32, kSymRows = 8;
template <class T>
__device__ __forceinline__ void symmetric_min_tiles(T* d, int n) {
  if (blockIdx.x > blockIdx.y) return;
  __shared__ T a[kSymTile][kSymTile + 1], b[kSymTile][kSymTile + 1];
  const int x0 = blockIdx.x * kSymTile, y0 = blockIdx.y * kSymTile;
  for (int r = threadIdx.y; r < kSymTile; r += kSymRows) {
    const int i = y0 + r, j = x0 + threadIdx.x;  // tile (by, bx) and its mirror (bx, by)
    if (i < n && j < n) a[r][threadIdx.x] = d[at(i, j, n)];
    if (x0 + r < n && y0 + threadIdx.x < n) b[r][threadIdx.x] = d[at(x0 + r, y0 + threadIdx.x, n)];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < kSymTile; r += kSymRows) {
    const int i = y0 + r, j = x0 + threadIdx.x;
    if (i < n && j < n) d[at(i, j, n)] = min(a[r][threadIdx.x], b[threadIdx.x][r]);
    if (x0 + r < n && y0 + threadIdx.x < n)
      d[at(x0 + r, y0 + threadIdx.x, n)] = min(b[r][threadIdx.x], a[threadIdx.x][r]);
  }
}
static __global__ void symmetric_min(int* d, int n) { symmetric_min_tiles(d, n); }

}  // namespace apsp::kernels::adjacency
