// The float64 path of the Python module's floyd_warshall: weights that are not all integers, or
// not all >= 0, solved in doubles (+inf where there is no path) in the caller's matrix, in place.
// On the GPU by a registered variant's run_float64 (blocked_i64), whose sums round in that
// kernel's order; on the CPU in SciPy's order (core/reference.hpp: floyd_warshall_scipy_order),
// which gives scipy.sparse.csgraph.floyd_warshall's bits, and its predecessors. Integers below
// 2^53 add exactly either way: with no negative cycle, every value a solve forms is a walk of at
// most 2 (V - 1) edges, so when 2 (V - 1) * the largest |weight| < 2^53 the result is exact.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/solve/solve_steps.hpp"

namespace apsp::harness {

struct FloatSolve {
  bool device = true;               // on the GPU, when there is one and a variant solves doubles
  int32_t* predecessors = nullptr;  // n x n, SciPy's (then on the CPU, wherever `device` says)
  int threads = 0;                  // CPU threads (0: all cores)
  Log log;
};

// Solves d (n x n, row-major, 0 on the diagonal) in place; returns where it ran: the variant's
// config name, or "cpu". Throws std::runtime_error (one line) when it cannot run on the device.
std::string solve_float64(double* d, int n, const FloatSolve& how);

// The same solve of an n x n matrix of doubles already in device memory (rows n apart), on
// `stream`, synchronised before it returns; returns the variant's config name. Throws
// std::runtime_error (one line) when no variant solves doubles on this device.
std::string solve_float64_on_device(double* d, int n, cudaStream_t stream, const Log& log);

// The vertices whose d[i][i] ended below 0: each lies on a negative cycle (SciPy's
// NegativeCycleError names them).
std::vector<int> negative_diagonal(const double* d, int n);

}  // namespace apsp::harness
