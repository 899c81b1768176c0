// The one interface every variant is declared through; used by the bench, the tuner, the
// solver and the tests alike (ARCHITECTURE.md, "The variant interface").
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/phase_timer.hpp"

namespace apsp {

struct Param {
  std::string name;         // "batch3"
  std::vector<int> values;  // exactly the compiled instances
  std::string help;
};

using Config = std::map<std::string, int>;

struct Variant {
  std::string name;     // "batched"
  std::string summary;  // one line, shown by --list
  std::vector<Param> space;
  Config defaults;
  // Optional. "" when the combination of declared values has a compiled kernel; otherwise why
  // not (e.g. too many threads for one block). Such configs are left out of all_configs().
  std::function<std::string(const Config&)> unbuilt;
  // "" when (config, n) can run on this device; otherwise the reason it cannot.
  std::function<std::string(const Config&, int n, const DeviceInfo&)> check;
  // Solves in place: d is a device n x n row-major matrix; every launch goes on `stream` and is
  // checked. Asynchronous: the caller synchronises. With `phases` (may be null) a tiled variant
  // marks the start of each phase (apsp_bench --phases); naive marks nothing.
  std::function<void(int* d, int n, const Config&, cudaStream_t stream, PhaseTimer* phases)> run;
};

const std::vector<Variant>& registry();
// nullptr when there is no variant of that name.
const Variant* find_variant(const std::string& name);
std::vector<std::string> variant_names();

// Every point of `space`, the parameters of `base` it does not name held fixed (the cartesian
// product, in the order of the space). The tuner's searches and all_configs() both start here.
std::vector<Config> enumerate_space(const std::vector<Param>& space, const Config& base);

// Whether the combination has a compiled kernel (v.unbuilt(c) is empty, or v declares no gaps).
bool is_built(const Variant& v, const Config& c);

// Every compiled config of a variant's space (the cartesian product less the unbuilt
// combinations), defaults first.
std::vector<Config> all_configs(const Variant& v);

// "batched[batch2=6,batch3=4]"; a variant with no parameters prints as its bare name.
std::string config_name(const std::string& variant, const Config& c);

struct NamedConfig {
  const Variant* variant;
  Config config;  // defaults filled in for parameters the text did not name
};
// Parses the text config_name prints ("batched[batch3=4]" too: unnamed parameters take their
// defaults). Throws std::invalid_argument with one line saying what is wrong: unknown variant,
// unknown parameter, a value outside the declared space.
NamedConfig parse_config(const std::string& text);

// Throws std::invalid_argument unless every parameter of `c` is declared with a compiled value
// and the combination is built.
void validate_config(const Variant& v, const Config& c);

// "" when `variant` exists and `c` is a complete, compiled config of it; otherwise the one-line
// reason. For configs read from files an older build wrote (a tuning database from before a
// parameter was added names configs without it).
std::string config_problem(const std::string& variant, const Config& c);

}  // namespace apsp
