// The launch schedules of one sm90-family solve (05_sm90.cu, 06_sm90_u16.cu), host code compiled
// once (sm90_schedules.cpp): three launches a round, the side stream's look-ahead, the next pivot
// inside phase 3, and for the ring's configs pairs of rounds. A point of the space hands them its
// kernels and launch sizes (ScheduleKernels, filled by sm90_family.hpp's schedule_kernels, where
// the kernel templates are instantiated); the schedules know no template.
#pragma once

#include <cuda_runtime_api.h>

#include "core/phase_timer.hpp"

namespace apsp::sm90_family {

// n rounded up to a multiple of m: the padded layout's rows, in elements.
inline int round_up(int n, int m) { return (n + m - 1) / m * m; }

// The kernels one point's schedule launches (kernels/sm90.cuh, kernels/sm90_pairs.cuh), as host
// stubs, with the threads and dynamic shared memory of their launches. The members of a schedule
// the point's lookahead does not run stay null: that point never instantiates those kernels.
struct ScheduleKernels {
  int tile = 0;
  int per_word = 1;  // elements a 32-bit word holds (the element format's kPerWord)

  // Every schedule: a round's phases 1, 2 and 3.
  void (*phase1)(int* d, int pitch, int kt) = nullptr;
  void (*phase2)(int* d, int pitch, int n, int kt) = nullptr;
  void (*phase3)(int* d, int pitch, int n, int kt) = nullptr;
  int phase1_threads = 0, phase1_smem = 0;
  int phase2_threads = 0, phase2_smem = 0;
  int threads = 0, product_smem = 0;  // phase 3 and every product at the point's per_thread
  int pivot_smem = 0;                 // a pivot's update and closure

  // lookahead 1: the side stream's pivot, lines and edges, and the ordinary tiles; with a panel
  // (the ordinary tiles read A from a transposed copy of the pivot column) its transpose.
  struct SideRounds {
    void (*pivot)(int* d, int pitch, int n, int r) = nullptr;
    void (*line)(int* d, int pitch, int n, int tiles, int r, int* panel) = nullptr;
    void (*edges)(int* d, int pitch, int n, int r, int* panel) = nullptr;
    void (*ordinary)(int* d, int pitch, int n, int tiles, int r, const int* panel) = nullptr;
    void (*transpose)(const int* d, int pitch, int kt, int* panel) = nullptr;
    bool panel = false;
    int ordinary_smem = 0;
  } side;

  // lookahead 2: phase 3 with the next pivot in its block 0.
  void (*next_pivot)(int* d, int pitch, int n, int tiles, int r) = nullptr;

  // lookahead 3, 4 and 5: pairs of rounds. The short chain (tile 64) prepares a pair with
  // `cross`; the long one with a row and a column line each.
  struct Pairs {
    void (*pivot)(int* d, int pitch, int n, int q, int kt) = nullptr;
    void (*pass)(int* d, int pitch, int n, int r, const int* panel, const int* row_panel) = nullptr;
    void (*lines)(int* d, int pitch, int n, int r, int lines, const int* panel,
                  const int* row_panel) = nullptr;
    void (*cross)(int* d, int pitch, int n, int tiles, int q, int skip, int skipped, int kt,
                  bool close_diag, int* panel, int* row_panel, int g) = nullptr;
    void (*row_line)(int* d, int pitch, int n, int tiles, int q, int skip, int skipped, int kt,
                     int* panel, int g) = nullptr;
    void (*column_line)(int* d, int pitch, int n, int tiles, int q, int skip, int skipped, int kt,
                        int* panel, int g) = nullptr;
    bool short_chain = false;
    int ring_smem = 0;                           // the pass's ring
    int chain_threads = 0, chain_ring_smem = 0;  // the side chain's (its own per_thread), L's ring
  } pairs;
};

// One solve of `k`'s point by the schedule `lookahead` names: `words` holds the n x n matrix in
// the padded layout, rows round_up(n, tile) elements (that many / per_word words) apart, every
// entry outside the matrix a padding value P with 2P >= the format's unreachable value: no bounds
// checks.
//
// apsp_bench --phases (a PhaseTimer on the main stream): phase 1 is the pivot's closure, phase 2
// the pivot row and column, phase 3 the rest, summed over rounds. In the look-ahead schedules
// (1, 3, 4 and 5) phases 1 and 2 of all but the first round run on the side stream beside phase 3,
// so what they cost the solve is the main stream's wait for them: phase 3 is the ordinary
// tiles' passes (the side stream's work shares the GPU with them), phase 2 the first round's
// (or pair's) lines (and lookahead 1's first panel) and every wait for the side stream after a
// pass, phase 1 the first pivot (the first pair's two pivots; at tile 64 only the first, the
// second being inside a launch of lines).
// lookahead 2 shows its next pivot as phase 3.
void run_schedule(const ScheduleKernels& k, int lookahead, int* words, int n, cudaStream_t stream,
                  PhaseTimer* phases);

// Dynamic shared memory that admits at most `blocks` blocks of a launch per SM: an SM's bytes
// over blocks + 1. With the 1 KB each block also takes for the system, block blocks + 1 no longer
// fits; `blocks` still do, for a kernel without static shared memory on an SM of at least
// blocks x (blocks + 1) KB (228 KB on Hopper). The lookahead = 2 schedule gives its pivot block
// an SM this way (one block); lookahead 4 holds its pass to three.
int at_most_blocks_per_sm_smem(int blocks, int smem_per_sm);
// The same on this process's current device (queried once per program).
int at_most_blocks_per_sm_smem(int blocks);

}  // namespace apsp::sm90_family
