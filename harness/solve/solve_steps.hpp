// The solver's steps, for solver.cpp (not for programs): the choice of the variant, the warm-up,
// the next hops, the CPU and the multi-GPU solves.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/device_info.hpp"
#include "core/dist_matrix.hpp"
#include "core/tuning_db.hpp"
#include "harness/multigpu/multi_gpu_solve.hpp"
#include "harness/solve/paths.hpp"
#include "harness/solve/request.hpp"
#include "harness/solve/solve_input.hpp"
#include "harness/solve/solver.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// The request's lines for the user; none when it has no sink.
using Log = std::function<void(const std::string&)>;

// The variant the request asks for, before V is known.
struct Choice {
  std::optional<NamedConfig> asked;  // nullopt: auto (or cpu)
  bool bare_name = false;            // a variant's name alone: its default for the device and V
  std::string db_path;  // the tuning database auto (or a user kernel named alone) reads; "": none
  // That database, read and checked before anything else (whatever the variant: a malformed
  // one is refused on the CPU path too); shared with the warm-up's thread, which only reads it.
  std::shared_ptr<const TuningDb> db;
};
// From the request's variant and config; the variant becomes the config's when only a config is
// given. Throws std::invalid_argument (one line) when they are wrong or disagree.
Choice asked_variant(SolveRequest& r);

// The variant and config for V = n on `dev`, asked or auto (harness/tune/solver_choice.hpp:
// distance_floor is a lower bound of the largest distance, 0 when none is known), and why (auto:
// from the choice's database, read before).
std::pair<NamedConfig, std::string> pick(const Choice& c, const DeviceInfo& dev, int n,
                                         int64_t max_weight, int64_t distance_floor = 0);
// The variant to run on one GPU, checked; throws std::runtime_error (one line) when it does not
// solve this graph exactly (Variant::admits), cannot run at this size or the device lacks the
// memory. `beside`: device memory needed beside the solve's buffer at its peak, for its row pitch.
NamedConfig choose(const Choice& c, const DeviceInfo& dev, int n, int64_t max_weight,
                   int64_t distance_floor, const std::function<uint64_t(int pitch)>& beside,
                   const Log& log);
// The config for a solve over `gpus` GPUs, checked against the engine and each GPU's memory
// (a rank's block and panels, and `beside` at its peak: the build's edges, the certificate) and
// the host's (`host_matrices` n x n matrices: the gathered distances for the next hops and the
// predecessors; 0: none); throws std::runtime_error (one line).
NamedConfig choose_for_gpus(const Choice& c, const DeviceInfo& dev, int n, int gpus,
                            const std::string& transport, uint64_t beside, int host_matrices,
                            const Log& log);
// Runs the solve picked for V once on a small matrix, while the input is parsed. Errors are
// left to the solve.
void warm_up(const Choice& c, int v);

// What the request asks of the next hops, and what the solve gave: the whole next-hop matrix
// (an output, and always on the CPU, which needs it to choose), or only column t (a path on
// the GPU).
struct NextHops {
  bool want_matrix = false;
  std::optional<int> want_column;
  std::unique_ptr<int32_t[]> matrix;  // n x n
  std::vector<int32_t> column;        // next[k][t] for every k
  OutEdges edges;                     // built once the graph is read, when wanted
  bool wanted() const { return want_matrix || want_column.has_value(); }
  std::vector<int32_t> column_of(int n, int t) const;
};
// Next hops from the solved d (n x n, row-major), still on the device; or on the host.
void next_hops_on_device(const int32_t* d, cudaStream_t stream, NextHops& hops, SolveTiming& t);
template <class T>
void next_hops_on_host(BasicMatrixView<T> d, NextHops& hops, int threads, SolveTiming& t);

// Host memory for `count` more n x n matrices and extra_bytes beside, checked before they are
// allocated; throws std::runtime_error (one line) when it is not there.
void check_host_matrices(int n, int count, const std::string& what, uint64_t extra_bytes = 0);

// The CPU reference solve, with a progress line and the estimate line once it runs long; in
// int32 or in 64 bits.
void solve_on_cpu(DistMatrix& d, int threads, const Log& log);
void solve_on_cpu(DistMatrix64& d, int threads, const Log& log);

// The registered variant with a 64-bit solve (Variant::run_wide); nullptr when there is none.
const Variant* wide_variant();
// The exact 64-bit path: g's distances in int64, on the GPU by a registered 64-bit variant's
// run_wide (Variant::run_wide) at its default, or on the CPU by the 64-bit reference when
// `device` is false or no such variant is built. Throws std::runtime_error (one line) when the
// matrix does not fit the host or the device.
DistMatrix64 solve_wide(const SolveInput& g, bool device, int threads, const Log& log,
                        SolveTiming& t);
// A variant's solve of a matrix of T in device memory (Variant::run_wide, run_float64).
template <class T>
using DeviceRun = std::function<void(T* d, int n, const Config&, cudaStream_t, PhaseTimer*)>;
// d (n x n of T, host memory) solved in place on the device by v's `run` at v's default for this
// device and V (returned), checked there; `how` names it in messages ("in 64 bits"). Throws
// std::runtime_error (one line) when the config cannot run or the matrix does not fit.
template <class T>
Config solve_host_matrix_on_device(T* d, int n, const Variant& v, const DeviceRun<T>& run,
                                   const std::string& how, const Log& log);
// The solve over several GPUs on `transport`'s ranks (started while the input was read): each
// rank's rows built on its device from the graph, solved by the distributed engine, and kept
// there to be certified and read back in bands.
std::unique_ptr<MultiGpuSolve> solve_on_gpus(const SolveInput& graph, const NamedConfig& chosen,
                                             std::unique_ptr<Transport> transport, SolveTiming& t);
// The whole result in host memory (the next hops and the predecessors read it there).
DistMatrix gather(MultiGpuSolve& ranks, SolveTiming& t);

}  // namespace apsp::harness
