// The tuner's --emit-policy: a policy table (schema apsp-policy/1, harness/tune/policy.hpp) from
// a tuning database, for this device or, without one, the database's one device model.
#pragma once

#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/tuning_db.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/tuning.hpp"

namespace apsp::harness {

// The device a policy is emitted for: this machine's, else the one device model of the database
// (H200 limits assumed for the checks). Throws std::invalid_argument (one line) otherwise.
DeviceInfo policy_device(const TuningDb& db, const std::string& db_path);

struct PolicyOutput {
  std::string path;                  // --emit-policy
  std::string db_path;               // --db, named in the provenance and the messages
  std::string variants;              // --variant: a table of these alone ("": every variant)
  std::vector<std::string> command;  // the command line, in the provenance
};

// Writes the policy table of `dev` from the database's entries of this graph (`tune`) and build,
// printing each range it holds and what it skipped. ProgramExit (1) when no entry is usable.
void emit_policy(const PolicyOutput& out, const TuningDb& db, const TuneOptions& tune,
                 const DeviceInfo& dev, const BuildId& build);
// --emit-policy alone, from the database without a search (no GPU needed: the database's device
// model): a refused database or device is ProgramExit(2), a failed write ProgramExit(1).
void emit_policy_alone(const PolicyOutput& out, const TuningDb& db, const TuneOptions& tune);

}  // namespace apsp::harness
