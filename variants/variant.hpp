// The one interface every variant is declared through; used by the harness, the programs and
// the tests alike (docs/architecture.md, "Variants"). A variant file builds one Variant and
// registers it with APSP_REGISTER_VARIANT; nothing else lists variants.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/device_info.hpp"
#include "core/precision.hpp"

namespace apsp {

class PhaseTimer;        // core/phase_timer.hpp
struct MultiGpuSupport;  // variants/multi_gpu.hpp: what the distributed engine runs

using Config = std::map<std::string, int>;

struct Param {
  std::string name;         // "batch3"
  std::vector<int> values;  // exactly the compiled instances (the values searched, with any_value)
  std::string help;
  std::string group;       // the tuner's search group (`tuner --search GROUP`): "batch", "tile"
  bool any_value = false;  // any positive value is valid (run-time compiled user kernels)
};

// A rule the combinations of a space must satisfy to have a compiled kernel, as data: the rule
// in words (shown by --list and the dry runs) and the predicate that decides it.
struct Constraint {
  std::string rule;  // "(tile / per_thread)^2 <= 256 threads"
  std::function<bool(const Config&)> holds;
};

// Where a variant's solve runs: the GPU (d is device memory, launches on `stream`), or the host
// (d is host memory, the stream is unused): the CPU-backed variants the tests drive the whole
// harness through.
// kIsolated: a device variant run in a worker process (harness/userkernel/isolated_executor.hpp), so that
// a fault in it cannot take the other runs down: the user kernels compiled at run time.
enum class Target { kDevice, kHost, kIsolated };

struct Variant {
  std::string name;     // "batched"
  std::string summary;  // one line, shown by --list
  Target target = Target::kDevice;
  std::vector<Param> space;
  std::vector<Constraint> constraints;
  Config defaults;  // the declared default; a policy (harness/policy) may pick another per n
  // Optional: the config for size n on a device without a policy table (a documented rule of
  // thumb); the declared defaults when absent.
  std::function<Config(int n, const DeviceInfo&)> heuristic;
  // "" when (config, n) can run on this device; otherwise the reason it cannot.
  std::function<std::string(const Config&, int n, const DeviceInfo&)> check;
  // Solves in place: d is an n x n row-major matrix (rows `pitch` apart, below); every launch goes on `stream` and is
  // checked. Asynchronous: the caller synchronises. With `phases` (may be null) a tiled variant
  // marks the start of each phase (apsp_bench --phases); naive marks nothing.
  std::function<void(int* d, int n, const Config&, cudaStream_t stream, PhaseTimer* phases)> run;
  // Optional, for precision kPrecisionInt64: the same solve on a matrix of int64_t (unreachable
  // kInf64, any entry below it; rows `pitch` apart as for run): apsp's exact 64-bit path. `run`
  // then widens the caller's int32 matrix into a buffer of its own, solves it so and narrows the
  // result back (x >= kInf -> kInf, what an int32 solve computes on every input), so that the
  // bench and the tuner time and check it like any variant.
  std::function<void(int64_t* d, int n, const Config&, cudaStream_t stream, PhaseTimer* phases)>
      run_wide;
  // Optional, the float64 path (harness/solve/solve_float.hpp): the same kind of solve on an
  // n x n matrix of doubles, rows n apart: any finite weight, negative ones too, +inf where there
  // is no edge, 0 on the diagonal. Sums round, so the result is exact only where every sum is
  // (integers below 2^53); with a negative cycle, some diagonal entry ends below 0.
  std::function<void(double* d, int n, const Config&, cudaStream_t stream, PhaseTimer* phases)>
      run_float64;
  // Optional: the distance between rows of d, when the solve wants the matrix laid out wider
  // than n (sm90: rows padded to its tile, so no kernel checks bounds). Then d is a pitch x
  // pitch buffer holding the n x n matrix in its top-left corner, and every entry outside it
  // holds a padding value P with 2P >= kInf (harness/measure/matrix_layout.hpp writes kPadding): such an
  // entry never lowers a distance and stays P through a solve. Whoever fills d and reads it back
  // uses this layout (row_pitch below); n when absent.
  std::function<int(const Config&, int n)> pitch;
  // Optional: "" when the solve is exact for an input of n vertices whose largest finite entry
  // (below kInf; core/precision.hpp: max_finite_entry) is max_weight; otherwise the reason, one
  // line. Absent: every input (int32 variants). Whatever runs a variant on an input (the
  // pipeline, the tuner, apsp, the GPU tests) asks admission_problem first and never runs it on
  // an input it does not admit: the run is skipped with this reason. (sm90_u16: 16-bit distances.)
  std::function<std::string(int n, int64_t max_weight)> admits;
  // What the distances are computed in: kPrecisionInt32, kPrecisionU16x2 or kPrecisionInt64
  // (core/precision.hpp).
  // Results record it; a run's share of the ceiling is against its own precision's ceiling.
  std::string precision = kPrecisionInt32;
  // Optional: the most device memory run() allocates itself (stream-ordered, freed before the
  // solve ends) beside d, in bytes; what apsp and the bench's memory checks add to the buffer.
  std::function<uint64_t(const Config&, int n)> scratch_bytes;
  // Optional: its configs also run over several GPUs (apsp_bench --gpus, apsp --gpus): the
  // distributed engine (harness/multigpu/distributed.hpp) solves with the tile and the kernels
  // this declares (variants/multi_gpu.hpp). Null: one GPU only.
  std::shared_ptr<const MultiGpuSupport> multi_gpu;
  bool test_only = false;  // listed only when APSP_TEST_VARIANTS is set (planted_wrong, CPU tests)
  std::string source;      // the file that registered it; the registry is sorted by its name
  // A run-time compiled user kernel: the hash of its source, which keys its tuning-database
  // entries in place of the build's kernel hash. Empty for built-in variants.
  std::string kernel_hash;
};

// Every registered variant, in the order of their files' names (00_naive.cu first); test-only
// variants only when the environment variable APSP_TEST_VARIANTS is set.
const std::vector<Variant>& registry();
// Adds a variant made at run time (a user kernel, harness/userkernel/user_kernel.hpp): find_variant and
// parse_config see it from then on; registry() stays the built-in ones. Throws
// std::invalid_argument when the name is taken.
const Variant& add_runtime_variant(Variant v);
// The variants added at run time, in the order added.
const std::deque<Variant>& runtime_variants();
// nullptr when there is no variant of that name.
const Variant* find_variant(const std::string& name);
std::vector<std::string> variant_names();

// Registers a variant factory at static-initialisation time (see APSP_REGISTER_VARIANT).
struct VariantRegistrar {
  VariantRegistrar(Variant (*factory)(), const char* file);
};
#define APSP_REGISTER_VARIANT_CAT2(a, b) a##b
#define APSP_REGISTER_VARIANT_CAT(a, b) APSP_REGISTER_VARIANT_CAT2(a, b)
// In a variant file, at namespace scope: APSP_REGISTER_VARIANT(make_variant);
#define APSP_REGISTER_VARIANT(factory)                                                         \
  namespace {                                                                                  \
  const ::apsp::VariantRegistrar APSP_REGISTER_VARIANT_CAT(apsp_variant_registrar_, __LINE__){ \
      factory, __FILE__};                                                                      \
  }

// Every point of `space`, the parameters of `base` it does not name held fixed (the cartesian
// product, in the order of the space). The tuner's searches and all_configs() both start here.
std::vector<Config> enumerate_space(const std::vector<Param>& space, const Config& base);

// "" when every constraint of v holds for c; otherwise the first broken rule, in words.
std::string broken_constraint(const Variant& v, const Config& c);
// Whether the combination has a compiled kernel (every constraint holds).
bool is_built(const Variant& v, const Config& c);

// Every compiled config of a variant's space (the cartesian product less the combinations a
// constraint rules out), defaults first.
std::vector<Config> all_configs(const Variant& v);

// The parameters of v in search group `group` ("all": every parameter).
std::vector<Param> params_in_group(const Variant& v, const std::string& group);
// Every search group some registered variant declares, sorted.
std::vector<std::string> search_groups();

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

// The distance between rows of d for v's solve at (c, n): Variant::pitch, or n; and the ints
// its buffer holds, pitch^2.
int row_pitch(const Variant& v, const Config& c, int n);
size_t buffer_elems(const Variant& v, const Config& c, int n);
// Variant::scratch_bytes, or 0.
uint64_t scratch_bytes(const Variant& v, const Config& c, int n);

// "" when v may run on an input of n vertices whose largest finite entry is max_weight
// (Variant::admits; every input when absent); otherwise why not, one line naming the variant.
std::string admission_problem(const Variant& v, int n, int64_t max_weight);

// Shared by the variant files: "" or the reason a launch of `threads` threads and
// `smem_bytes` of shared memory cannot run on `dev`, or n is not a valid size.
std::string check_launch(int n, int threads, int smem_bytes, const DeviceInfo& dev);

}  // namespace apsp
