// fw32.cu: the course's blocked Floyd-Warshall, 32 x 32 tiles, one thread per element.
// The contract (docs/kernel-contract.md): three extern "C" phase kernels with the signature
// below and the launch geometry as macros. The harness launches, for each pivot tile k:
//   fw_phase1 on 1 block                      the pivot tile (k, k)
//   fw_phase2 on (tiles, 2) blocks            y = 0: pivot-row tile (k, x); y = 1: column tile (x, k)
//   fw_phase3 on (tiles, tiles) blocks        tile (y, x)
// with THREADS_X x THREADS_Y threads. d is the n x n row-major matrix; APSP_INF is unreachable.
#ifndef TILE
#define TILE 32
#endif
#define THREADS_X TILE
#define THREADS_Y TILE

// Entries outside the matrix read as unreachable, so edge tiles need no other care.
__device__ __forceinline__ int load(const int* d, int n, int i, int j) {
  return (i < n && j < n) ? d[(size_t)i * n + j] : APSP_INF;
}
__device__ __forceinline__ void store(int* d, int n, int i, int j, int v) {
  if (i < n && j < n) d[(size_t)i * n + j] = v;
}

extern "C" __global__ void __launch_bounds__(THREADS_X * THREADS_Y) fw_phase1(int* d, int n, int k) {
  __shared__ int t[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y, i = k * TILE + ty, j = k * TILE + tx;
  t[ty][tx] = load(d, n, i, j);
  __syncthreads();
  for (int m = 0; m < TILE; ++m) {
    const int via = t[ty][m] + t[m][tx];
    __syncthreads();  // every thread has read step m's row and column before any writes
    if (via < t[ty][tx]) t[ty][tx] = via;
    __syncthreads();
  }
  store(d, n, i, j, t[ty][tx]);
}

extern "C" __global__ void __launch_bounds__(THREADS_X * THREADS_Y) fw_phase2(int* d, int n, int k) {
  const int x = blockIdx.x;
  if (x == k) return;  // the pivot tile is phase 1's
  __shared__ int pivot[TILE][TILE], own[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool row = blockIdx.y == 0;
  const int i = (row ? k : x) * TILE + ty, j = (row ? x : k) * TILE + tx;
  pivot[ty][tx] = load(d, n, k * TILE + ty, k * TILE + tx);
  own[ty][tx] = load(d, n, i, j);
  __syncthreads();
  // The pivot tile is closed, so one pass over the tile as loaded is enough.
  int best = own[ty][tx];
  for (int m = 0; m < TILE; ++m)
    best = min(best, row ? pivot[ty][m] + own[m][tx] : own[ty][m] + pivot[m][tx]);
  store(d, n, i, j, best);
}

extern "C" __global__ void __launch_bounds__(THREADS_X * THREADS_Y) fw_phase3(int* d, int n, int k) {
  const int x = blockIdx.x, y = blockIdx.y;
  if (x == k || y == k) return;  // phase 2 owns the pivot row and column
  __shared__ int col[TILE][TILE], row[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y, i = y * TILE + ty, j = x * TILE + tx;
  col[ty][tx] = load(d, n, i, k * TILE + tx);
  row[ty][tx] = load(d, n, k * TILE + ty, j);
  __syncthreads();
  int best = load(d, n, i, j);
  for (int m = 0; m < TILE; ++m) best = min(best, col[ty][m] + row[m][tx]);
  store(d, n, i, j, best);
}
