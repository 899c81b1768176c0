// A user's Floyd-Warshall kernel file, compiled at run time with NVRTC and checked against the
// contract (docs/kernel-contract.md) before anything is launched: three extern "C" phase
// kernels, fw_phase1/2/3(int* d, int n, int k), and the launch geometry as macros (TILE,
// THREADS_X, THREADS_Y; optional BATCH2, BATCH3, SHMEM1..3). Its parameters are TILE, BATCH2 and
// BATCH3 where it defines them, and every macro it gives a tunable default (#ifndef NAME /
// #define NAME <positive integer>; harness/userkernel/kernel_macros.hpp). Compiled modules are cached on
// disk, keyed by the source, the options, the NVRTC version and the architecture, so that a
// rerun or a tuner revisit compiles nothing. Host code only: nothing here needs a GPU.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/device_info.hpp"
#include "variants/variant.hpp"

namespace apsp::harness {

inline constexpr std::array<const char*, 3> kPhaseKernels = {"fw_phase1", "fw_phase2", "fw_phase3"};
// The signature every phase kernel has, as the contract writes it.
inline constexpr const char* kPhaseSignature =
    "extern \"C\" __global__ void {}(int* d, int n, int k)";

// The launch geometry a compiled file declares, read back from the module itself.
struct KernelGeometry {
  int tile = 0, threads_x = 0, threads_y = 0;
  int batch2 = 1, batch3 = 1;  // phase-2 tiles per block; phase-3 block edge in tiles
  bool declares_batch2 = false, declares_batch3 = false;
  std::array<int, 3> dynamic_smem{};     // SHMEM1..3: dynamic shared bytes per block, by phase
  std::array<int64_t, 3> static_smem{};  // each phase kernel's static shared memory (the cubin's)
  Config params;  // the file's tunable macros as compiled (TILE, BATCH2, BATCH3 have fields)
  int threads() const { return threads_x * threads_y; }
  // Its parameters at their compiled values, the config that names it everywhere (config_name):
  // TILE, BATCH2/BATCH3 where the file declares them, and the tunable macros.
  Config config() const;
};

struct KernelSource {
  std::string path;  // as given on the command line
  std::string name;  // the file's stem: the variant name it runs under
  std::string text;
  std::string hash;  // 16 hex digits of the text: keys the compile cache and the tuning database
};
// Reads a kernel file; throws std::invalid_argument with one line if it cannot.
KernelSource read_kernel_source(const std::string& path);

// NVRTC refused the file: `what()` is one line, `log` NVRTC's log (lines "file(line): error: ...").
struct CompileError : std::runtime_error {
  CompileError(const std::string& what, std::string log)
      : std::runtime_error(what), log(std::move(log)) {}
  std::string log;
};
// The file compiles but breaks the contract; `what()` names what is wrong, in one line.
struct ContractError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

struct CompileOptions {
  std::string arch = "sm_90";  // "sm_XY" of the device the module is for
  std::string cache_dir;       // "": default_cache_dir()
};

struct CompiledKernel {
  std::string cubin;
  KernelGeometry geometry;
  std::string cache_file;
  bool from_cache = false;
  double compile_ms = 0;  // NVRTC's time, or reading the cache
};

// $APSP_KERNEL_CACHE, else $XDG_CACHE_HOME/apsp/kernels, else ~/.cache/apsp/kernels.
std::string default_cache_dir();
// "sm_90" for a compute capability 9.0 device.
std::string arch_of(const DeviceInfo& dev);
// "13.0"
std::string nvrtc_version();

// Compiles `src` with each entry of `macros` as -DNAME=VALUE (the cache first) and checks the
// contract: the three phase kernels, the geometry, that every macro asked for is a parameter of
// the file and is the value compiled (a file that fixes TILE with a bare #define cannot be tuned
// over it). Throws CompileError or ContractError.
CompiledKernel compile_kernel(const KernelSource& src, const Config& macros,
                              const CompileOptions& options);

// "" when kernels of geometry `g` can be launched on `dev` at size n; otherwise why not.
std::string geometry_problem(const KernelGeometry& g, int n, const DeviceInfo& dev);

// What a dry run refuses (exit 1): a user kernel `v` none of whose runs (each a config at a size)
// can run on `dev`. "" when one of them can; otherwise one line naming the kernel, with the
// reason its first run gave.
std::string kernel_never_runs(const Variant& v, const std::vector<std::pair<Config, int>>& runs,
                              const DeviceInfo& dev);

// One user kernel file behind the Variant interface. Compiles each config once per process
// (the disk cache spares later processes); `target` kDevice runs it in this process (apsp, the
// worker), kIsolated in a worker process (apsp_bench, tuner: a fault cannot take other runs
// down). The space holds every parameter of the file (KernelGeometry::config()), any positive
// integer each: `params` (the tuner's --param) give the values some of them are searched over.
class UserKernel {
 public:
  // Compiles the file at its own macro values; throws CompileError or ContractError (also when
  // a `params` name is no parameter of the file).
  UserKernel(KernelSource src, std::vector<Param> params, CompileOptions options);

  const KernelSource& source() const { return src_; }
  const CompiledKernel& default_build() const { return *default_; }
  // The compile of `c` (cached); throws CompileError or ContractError.
  std::shared_ptr<const CompiledKernel> build(const Config& c);
  Variant variant(Target target);

 private:
  KernelSource src_;
  std::vector<Param> params_;
  CompileOptions options_;
  std::shared_ptr<const CompiledKernel> default_;
  std::mutex mutex_;
  std::map<Config, std::shared_ptr<const CompiledKernel>> builds_;
};

// A user kernel's parameters are held at the file's values (search group "contract") unless the
// tuner searches them (--param, group "kernel"): the names of the latter.
inline constexpr const char* kContractGroup = "contract";
std::vector<std::string> user_param_names(const Variant& v);

// The first line of an NVRTC log that reports an error.
std::string first_error_line(const std::string& log);

// A tuner --param: "BATCH2=1:8" (every integer of a range) or "TILE=16,32" (a list); values are
// positive. Throws std::invalid_argument with one line.
Param parse_kernel_param(const std::string& text);

// What --kernel FILE does in every program: each file read, compiled at its own macro values
// (and `params` set from outside), and added as a variant (add_runtime_variant) of `target`.
// The UserKernels must outlive the variants. Throws CompileError, ContractError or
// std::invalid_argument (a missing file, a name that is taken).
struct UserKernels {
  std::vector<std::unique_ptr<UserKernel>> kernels;
  std::vector<const Variant*> variants;
};
UserKernels register_user_kernels(const std::vector<std::string>& files,
                                  const std::vector<Param>& params, Target target,
                                  const CompileOptions& options);
// "fw32: compiled for sm_90 in 412.3 ms, cached in <file>" or "... from the compile cache (0.4 ms)".
std::string describe_compile(const UserKernel& k);
// What `program` prints for a kernel that does not compile: NVRTC's log, then the one line.
std::string compile_failure_text(const std::string& program, const CompileError& e);

// Runs a compiled kernel's rounds on `stream` (user_kernel_launch.cpp; the CUDA runtime).
void launch_user_kernel(const CompiledKernel& k, int* d, int n, cudaStream_t stream,
                        PhaseTimer* phases);

}  // namespace apsp::harness
