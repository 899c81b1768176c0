// What `apsp` solves with when the user names no variant (--variant auto): the solver variant's
// shipped default for this device and n (policy, heuristic, declared), or, when a tuning
// database is given (--db), its pick where it measured the pick faster than that default.
#pragma once

#include <string>

#include "core/tuning_db.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

struct SolverChoice {
  NamedConfig chosen;
  std::string why;  // one line for stderr: which default, or which entry of which database
};

// `db` may be null (no --db). The input of `apsp` is a file, not a generator spec: a database
// given explicitly is read across graph specs (the kernels' time does not depend on the
// weights), for this device model and this build only.
SolverChoice choose_solver(const DeviceInfo& dev, int n, const TuningDb* db, const std::string& db_path);

}  // namespace apsp::harness
