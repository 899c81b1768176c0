// fw_batched.cu: 32 x 32 tiles, but each phase-2 block takes BATCH2 tiles of the pivot row (or
// column) and each phase-3 block BATCH3 x BATCH3 tiles, so that the pivot data a block loads is
// reused: the tuner searches BATCH2 and BATCH3 (README, "Benchmark your own kernel").
// The harness launches fw_phase2 on (ceil(tiles / BATCH2), 2) blocks and fw_phase3 on
// ceil(tiles / BATCH3) blocks in x and in y, with SHMEM2 / SHMEM3 bytes of dynamic shared memory.
// __launch_bounds__ holds every kernel to 64 registers a thread, so that a block of 1024 threads
// can launch at any batch size (large batches then spill; the tuner measures what that costs).
#define TILE 32
#define THREADS_X 32
#define THREADS_Y 32
#ifndef BATCH2
#define BATCH2 4
#endif
#ifndef BATCH3
#define BATCH3 4
#endif
#define SHMEM2 ((1 + BATCH2) * TILE * TILE * 4)
#define SHMEM3 (2 * BATCH3 * TILE * TILE * 4)

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
    __syncthreads();
    if (via < t[ty][tx]) t[ty][tx] = via;
    __syncthreads();
  }
  store(d, n, i, j, t[ty][tx]);
}

extern "C" __global__ void __launch_bounds__(THREADS_X * THREADS_Y) fw_phase2(int* d, int n, int k) {
  extern __shared__ int smem[];
  int* pivot = smem;              // [TILE][TILE]
  int* own = smem + TILE * TILE;  // [BATCH2][TILE][TILE]
  const int tx = threadIdx.x, ty = threadIdx.y, base = k * TILE;
  const bool row = blockIdx.y == 0;
  pivot[ty * TILE + tx] = load(d, n, base + ty, base + tx);
  int best[BATCH2];
#pragma unroll
  for (int b = 0; b < BATCH2; ++b) {
    const int t = blockIdx.x * BATCH2 + b;
    const int i = row ? base + ty : t * TILE + ty, j = row ? t * TILE + tx : base + tx;
    best[b] = own[b * TILE * TILE + ty * TILE + tx] = load(d, n, i, j);
  }
  __syncthreads();
  for (int m = 0; m < TILE; ++m) {
#pragma unroll
    for (int b = 0; b < BATCH2; ++b) {
      const int* o = own + b * TILE * TILE;
      best[b] = min(best[b], row ? pivot[ty * TILE + m] + o[m * TILE + tx] : o[ty * TILE + m] + pivot[m * TILE + tx]);
    }
  }
#pragma unroll
  for (int b = 0; b < BATCH2; ++b) {
    const int t = blockIdx.x * BATCH2 + b;
    if (t == k) continue;  // the pivot tile is phase 1's
    store(d, n, row ? base + ty : t * TILE + ty, row ? t * TILE + tx : base + tx, best[b]);
  }
}

extern "C" __global__ void __launch_bounds__(THREADS_X * THREADS_Y) fw_phase3(int* d, int n, int k) {
  extern __shared__ int smem[];
  int* col = smem;                         // [BATCH3][TILE][TILE]: tiles (y0 + a, k)
  int* row = smem + BATCH3 * TILE * TILE;  // [BATCH3][TILE][TILE]: tiles (k, x0 + b)
  const int tx = threadIdx.x, ty = threadIdx.y, base = k * TILE;
  const int y0 = blockIdx.y * BATCH3, x0 = blockIdx.x * BATCH3;
#pragma unroll
  for (int a = 0; a < BATCH3; ++a) {
    col[a * TILE * TILE + ty * TILE + tx] = load(d, n, (y0 + a) * TILE + ty, base + tx);
    row[a * TILE * TILE + ty * TILE + tx] = load(d, n, base + ty, (x0 + a) * TILE + tx);
  }
  __syncthreads();
  int best[BATCH3][BATCH3];
#pragma unroll
  for (int a = 0; a < BATCH3; ++a)
#pragma unroll
    for (int b = 0; b < BATCH3; ++b) best[a][b] = load(d, n, (y0 + a) * TILE + ty, (x0 + b) * TILE + tx);
  for (int m = 0; m < TILE; ++m) {
#pragma unroll
    for (int a = 0; a < BATCH3; ++a) {
      const int via = col[a * TILE * TILE + ty * TILE + m];
#pragma unroll
      for (int b = 0; b < BATCH3; ++b) best[a][b] = min(best[a][b], via + row[b * TILE * TILE + m * TILE + tx]);
    }
  }
#pragma unroll
  for (int a = 0; a < BATCH3; ++a)
#pragma unroll
    for (int b = 0; b < BATCH3; ++b) {
      if (y0 + a == k || x0 + b == k) continue;  // phase 2 owns the pivot row and column
      store(d, n, (y0 + a) * TILE + ty, (x0 + b) * TILE + tx, best[a][b]);
    }
}
