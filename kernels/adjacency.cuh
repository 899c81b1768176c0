// The adjacency matrix built on the device from the edges (apsp: no V x V matrix on the host),
// in a variant's layout (harness/measure/matrix_layout.hpp): the same values as fill_adjacency on the
// host (core/dist_matrix.hpp), bit for bit.
#pragma once

#include "kernels/common.cuh"

namespace apsp::kernels::adjacency {

// kInf in the n x n corner, 0 on its diagonal, `padding` outside it; rows `pitch` apart. A
// grid-stride loop over all pitch^2 entries.
static __global__ void fill(int* __restrict__ d, int n, int pitch, int padding) {
  const long long count = static_cast<long long>(pitch) * pitch;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int i = static_cast<int>(e / pitch), j = static_cast<int>(e % pitch);
    d[e] = i < n && j < n ? (i == j ? 0 : kInf) : padding;
  }
}

// The smallest weight of each edge u -> v (duplicates: the minimum wins); self loops never beat
// d[u][u] = 0. `edges` are (src, dst, w) triples.
static __global__ void scatter(int* __restrict__ d, int pitch, const int3* __restrict__ edges,
                               long long count) {
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int3 edge = edges[e];
    if (edge.x != edge.y) atomicMin(d + at(edge.x, edge.y, pitch), edge.z);
  }
}

}  // namespace apsp::kernels::adjacency
