// Where a solve's distances are, and in what: one GPU's memory (int32 entries, a 16-bit
// variant's too), the ranks of a distributed solve, host memory in int32 (the CPU's solve), or
// host memory in int64 (the 64-bit path). One value holds it, so that each step after the solve
// (the proof's maximum, the certificate, the reductions, the rows written) asks once, where the
// distances are, and reads them there.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "core/dist_matrix.hpp"
#include "core/edge_list.hpp"
#include "core/matrix_io.hpp"
#include "harness/multigpu/multi_gpu_solve.hpp"
#include "harness/solve/device_solve.hpp"
#include "harness/verify/certificate.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

struct NextHops;     // harness/solve/solve_steps.hpp
struct SolveTiming;  // harness/solve/solver.hpp

// One GPU's result, kept on the device (device_solve.hpp).
struct OnGpu {
  std::unique_ptr<DeviceSolve> solve;
};
// Several GPUs' result, each rank's rows on its device; `gathered`: the whole matrix copied to
// the host, for the steps that read every row there (the next hops, the predecessors).
struct OnRanks {
  std::unique_ptr<MultiGpuSolve> solve;
  std::optional<DistMatrix> gathered;
};
// The CPU's int32 result.
struct OnHost {
  DistMatrix d;
};
// The 64-bit path's result; `by`: the variant whose run_wide solved it on the GPU, or null when
// the CPU's 64-bit reference did.
struct OnHost64 {
  DistMatrix64 d;
  const Variant* by = nullptr;
};
using SolvedDistances = std::variant<OnGpu, OnRanks, OnHost, OnHost64>;

// For std::visit: one lambda a place.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

inline bool is_wide(const SolvedDistances& d) { return std::holds_alternative<OnHost64>(d); }
int vertices_of(const SolvedDistances& d);
// "" when the result is g's distance matrix (harness/verify/certificate.hpp), else the fault;
// checked where the result is.
std::string certify(SolvedDistances& d, const InEdges& g, int threads);
// The largest entry below the unreachable value (core/precision.hpp's proof), found where the
// result is (read back from the ranks a band at a time).
int64_t max_finite(SolvedDistances& d, int threads);
// d(i, j).
int64_t distance_at(SolvedDistances& d, int i, int j);
// The int32 result as bands of rows for a writer (core/matrix_io.hpp): host memory as it is,
// a device's or the ranks' copied down a band at a time. Throws std::logic_error for the 64-bit
// path's (its rows are int64, in host memory: OnHost64::d).
struct RowSource {
  int n = 0, band_rows = 0;
  RowBand band;
  static RowSource of(MatrixView m);
};
RowSource rows_of(SolvedDistances& d);
// The next hops `hops` asks for (the matrix or one column), found on the GPU that solved the
// result, else on the host (the ranks' gathered there). Timed in t.
void next_hops_of(SolvedDistances& d, NextHops& hops, int threads, SolveTiming& t);
// The predecessor matrix of g (n x n into pred), where the result is; std::logic_error for the
// 64-bit path's, which gives none.
void predecessors_of(SolvedDistances& d, const EdgeList& g, int32_t* pred, int threads);

}  // namespace apsp::harness
