// What `apsp` solves with when the user names no variant (--variant auto): the solver variant's
// shipped default for this device and n (policy, heuristic, declared), or, when a tuning
// database is given (--db), its pick where it measured the pick faster than that default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/tuning_db.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

struct SolverChoice {
  NamedConfig chosen;
  std::string why;  // one line for stderr: which default, or which entry of which database
};

// The variant --variant auto tries first on a graph whose largest edge weight (self loops left
// out: core/precision.hpp, max_edge_weight) is max_weight: sm90_u16 (16-bit distances, twice the
// updates per instruction) where its weights fit 16 bits (max_weight < 0x7FFF) and the 16-bit
// proof can hold, else sm90. distance_floor is a known lower bound of the graph's largest
// distance (core/precision.hpp, largest_distance_floor; 0: none known): where it plus max_weight
// reaches 0x7FFF the 16-bit proof cannot hold, and 16 bits would only be solved again. The caller
// proves the result exact after the solve (core/precision.hpp, exactness_fault) and solves again
// wider when the proof fails.
const Variant& solver_for(int64_t max_weight, int64_t distance_floor = 0);

// `db` may be null (no --db). The input of `apsp` is a file, not a generator spec: a database
// given explicitly is read across graph specs (the kernels' time does not depend on the
// weights), for this device model and this build only; its picks are only variants whose
// precision the weights fit. `why` says which solver and, for sm90_u16, that the graph's distances fit 16 bits.
SolverChoice choose_solver(const DeviceInfo& dev, int n, int64_t max_weight, const TuningDb* db,
                           const std::string& db_path, int64_t distance_floor = 0);

// The CPU solve's time for all its rounds at the rate of those done; nullopt until it has run
// long enough (1 s, or every round) for the rate to mean something.
std::optional<double> cpu_solve_estimate_s(double elapsed_s, int rounds_done, int rounds);
// The one line `apsp` prints once a CPU solve is estimated over a minute ("" when it is not):
// the estimate, and that a CUDA device would take it (what --variant auto does there).
std::string cpu_solve_estimate_line(int n, double estimate_s);

}  // namespace apsp::harness
