#include "harness/userkernel/user_kernel.hpp"

#include <fmt/format.h>
#include <nvrtc.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/cubin.hpp"
#include "harness/userkernel/kernel_macros.hpp"

namespace apsp::harness {

namespace {

namespace fs = std::filesystem;

// Bump when the header or the epilogue below changes: it is part of every cache key.
constexpr int kContractVersion = 2;

// Included before the user's file (NVRTC --pre-include): the unreachable value and the phase
// kernels' prototypes, so that a definition with another signature is a compile error that
// names the kernel.
constexpr const char* kHeaderName = "apsp_kernel.h";
constexpr const char* kHeader =
    R"(// apsp_kernel.h: included before every user kernel (docs/kernel-contract.md)
#pragma once
#define APSP_INF 1073741823
extern "C" __global__ void fw_phase1(int* d, int n, int k);
extern "C" __global__ void fw_phase2(int* d, int n, int k);
extern "C" __global__ void fw_phase3(int* d, int n, int k);
)";

// Values, in this order, of the array the epilogue defines; read back from the cubin.
enum Slot {
  kTile,
  kThreadsX,
  kThreadsY,
  kBatch2,
  kHasBatch2,
  kBatch3,
  kHasBatch3,
  kShmem1,
  kShmem2,
  kShmem3,
  kSlots
};
constexpr const char* kGeometrySymbol = "apsp_contract_values";
constexpr const char* kContractFile = "apsp-contract";

// Appended after the user's file: the contract's required macros, the optional ones' defaults,
// and every value the harness reads back, as one initialised array; a tunable macro the
// compile leaves undefined (its guard in a branch not taken) reads back as 0.
std::string epilogue(const std::vector<std::string>& params) {
  std::string s = fmt::format("\n#line 1 \"{}\"\n", kContractFile);
  for (const char* required : {"TILE", "THREADS_X", "THREADS_Y"}) {
    s += fmt::format(
        "#ifndef {0}\n#error \"apsp-contract: the file does not #define {0}\"\n#endif\n", required);
  }
  for (const char* optional : {"BATCH2", "BATCH3"}) {
    s += fmt::format(
        "#ifdef {0}\n#define APSP_HAS_{0} 1\n#else\n#define APSP_HAS_{0} 0\n#define {0} "
        "1\n#endif\n",
        optional);
  }
  for (const char* smem : {"SHMEM1", "SHMEM2", "SHMEM3"})
    s += fmt::format("#ifndef {0}\n#define {0} 0\n#endif\n", smem);
  s += fmt::format(
      "extern \"C\" __device__ const int {}[] = {{TILE, THREADS_X, THREADS_Y, BATCH2, "
      "APSP_HAS_BATCH2, "
      "BATCH3, APSP_HAS_BATCH3, SHMEM1, SHMEM2, SHMEM3\n",
      kGeometrySymbol);
  for (const std::string& p : params)
    s += fmt::format("#ifdef {0}\n, ({0})\n#else\n, 0\n#endif\n", p);
  return s + "};\n";
}

// The file's tunable macros that have no slot of their own in the array.
std::vector<std::string> extra_params(const KernelMacros& m) {
  std::vector<std::string> out;
  for (const std::string& name : m.tunable)
    if (!is_contract_param(name)) out.push_back(name);
  return out;
}

std::string hex64(uint64_t h) { return fmt::format("{:016x}", h); }

uint64_t fnv1a(const std::string& text, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string nvrtc_log(nvrtcProgram prog) {
  size_t size = 0;
  nvrtcGetProgramLogSize(prog, &size);
  std::string log(size, '\0');
  if (size > 0) nvrtcGetProgramLog(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// Contract faults NVRTC reports as errors, turned into the one line that names them.
void throw_contract_faults(const KernelSource& src, const std::string& log) {
  static const std::regex contract_error(R"(#error directive: "apsp-contract: ([^"]*)\")");
  static const std::regex linkage(
      R"re((\S+\(\d+\)): error: more than one instance of overloaded function "(fw_phase[123])" has "C" linkage)re");
  std::smatch m;
  if (std::regex_search(log, m, contract_error))
    throw ContractError(fmt::format("{}: {}", src.path, m[1].str()));
  if (std::regex_search(log, m, linkage)) {
    throw ContractError(fmt::format("{}: {} has the wrong signature; the contract's is {}",
                                    m[1].str(), m[2].str(),
                                    fmt::format(fmt::runtime(kPhaseSignature), m[2].str())));
  }
}

// NVRTC: the cubin of `src` compiled with `options`, or CompileError / ContractError.
std::string run_nvrtc(const KernelSource& src, const std::string& code,
                      const std::vector<std::string>& options) {
  nvrtcProgram prog;
  const char* headers[] = {kHeader};
  const char* header_names[] = {kHeaderName};
  if (nvrtcCreateProgram(&prog, code.c_str(), src.path.c_str(), 1, headers, header_names) !=
      NVRTC_SUCCESS)
    throw std::runtime_error(fmt::format("{}: NVRTC could not create a program", src.path));
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult rc = nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
  const std::string log = nvrtc_log(prog);
  if (rc != NVRTC_SUCCESS) {
    nvrtcDestroyProgram(&prog);
    throw_contract_faults(src, log);
    throw CompileError(fmt::format("{}: does not compile ({})", src.path, nvrtcGetErrorString(rc)),
                       log);
  }
  size_t size = 0;
  nvrtcGetCUBINSize(prog, &size);
  std::string cubin(size, '\0');
  nvrtcGetCUBIN(prog, cubin.data());
  nvrtcDestroyProgram(&prog);
  return cubin;
}

KernelGeometry read_geometry(const KernelSource& src, const Cubin& cubin,
                             const std::vector<std::string>& params) {
  for (const char* k : kPhaseKernels) {
    if (!cubin.has_function(k)) {
      throw ContractError(fmt::format("{}: no phase kernel {}: the contract needs {}", src.path, k,
                                      fmt::format(fmt::runtime(kPhaseSignature), k)));
    }
  }
  const std::vector<int32_t> v = cubin.int_array(kGeometrySymbol);
  if (v.size() != kSlots + params.size())
    throw std::runtime_error(fmt::format("{}: the compiled module has no geometry", src.path));
  KernelGeometry g;
  g.tile = v[kTile];
  g.threads_x = v[kThreadsX];
  g.threads_y = v[kThreadsY];
  g.batch2 = v[kBatch2];
  g.declares_batch2 = v[kHasBatch2] != 0;
  g.batch3 = v[kBatch3];
  g.declares_batch3 = v[kHasBatch3] != 0;
  g.dynamic_smem = {v[kShmem1], v[kShmem2], v[kShmem3]};
  for (size_t i = 0; i < kPhaseKernels.size(); ++i)
    g.static_smem[i] = cubin.static_shared_bytes(kPhaseKernels[i]);
  for (size_t i = 0; i < params.size(); ++i)
    if (v[kSlots + i] != 0) g.params[params[i]] = v[kSlots + i];
  auto positive = [&](const char* name, int value) {
    if (value < 1)
      throw ContractError(
          fmt::format("{}: {} is {}; it must be at least 1", src.path, name, value));
  };
  positive("TILE", g.tile);
  positive("THREADS_X", g.threads_x);
  positive("THREADS_Y", g.threads_y);
  positive("BATCH2", g.batch2);
  positive("BATCH3", g.batch3);
  for (int i = 0; i < 3; ++i)
    if (g.dynamic_smem[i] < 0)
      throw ContractError(fmt::format("{}: SHMEM{} is negative", src.path, i + 1));
  return g;
}

std::vector<std::string> nvrtc_options(const Config& macros, const std::string& arch) {
  std::vector<std::string> o = {"--gpu-architecture=" + arch,
                                std::string("--pre-include=") + kHeaderName, "-std=c++17",
                                "-lineinfo"};
  for (const auto& [name, value] : macros) o.push_back(fmt::format("-D{}={}", name, value));
  return o;
}

std::string read_binary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

Config KernelGeometry::config() const {
  Config c = params;
  c["TILE"] = tile;
  if (declares_batch2) c["BATCH2"] = batch2;
  if (declares_batch3) c["BATCH3"] = batch3;
  return c;
}

KernelSource read_kernel_source(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw std::invalid_argument(fmt::format("--kernel {}: no such file", path));
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  if (!in && !in.eof())
    throw std::invalid_argument(fmt::format("--kernel {}: cannot read it", path));
  KernelSource s{path, fs::path(path).stem().string(), ss.str(), ""};
  s.hash = hex64(fnv1a(s.text));
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  if (!std::regex_match(s.name, identifier)) {
    throw std::invalid_argument(
        fmt::format("--kernel {}: the file's name '{}' must be an identifier (letters, digits, "
                    "_): it names the variant",
                    path, s.name));
  }
  return s;
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("APSP_KERNEL_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/apsp/kernels";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/apsp/kernels";
  return fs::temp_directory_path().string() + "/apsp-kernels";
}

std::string arch_of(const DeviceInfo& dev) {
  return fmt::format("sm_{}{}", dev.cc_major, dev.cc_minor);
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return fmt::format("{}.{}", major, minor);
}

namespace {

// The cubin from the cache, or compiled by NVRTC and cached; `k.cache_file` names the entry.
Cubin load_or_compile(const KernelSource& src, const std::string& code,
                      const std::vector<std::string>& options, const CompileOptions& o,
                      CompiledKernel& k) {
  std::string key_text = fmt::format("contract {}\nnvrtc {}\n", kContractVersion, nvrtc_version());
  for (const std::string& opt : options) key_text += opt + "\n";
  const std::string dir = o.cache_dir.empty() ? default_cache_dir() : o.cache_dir;
  k.cache_file = fmt::format("{}/{}-{}-{}.cubin", dir, src.name, o.arch,
                             hex64(fnv1a(src.text, fnv1a(key_text))));
  std::error_code ec;
  if (fs::is_regular_file(k.cache_file, ec)) {
    k.cubin = read_binary(k.cache_file);
    try {
      k.from_cache = true;
      return Cubin(k.cubin);
    } catch (const std::runtime_error&) {
      k.from_cache = false;  // a damaged cache entry: compile again and replace it
    }
  }
  k.cubin = run_nvrtc(src, code, options);
  Cubin cubin(k.cubin);
  fs::create_directories(dir, ec);
  try {
    write_file_atomic(k.cache_file, k.cubin);
  } catch (const std::runtime_error&) {
    k.cache_file.clear();  // an unwritable cache costs a compile next time, nothing else
  }
  return cubin;
}

// Throws ContractError unless every macro asked is a parameter of the file (the contract's are
// checked after the compile, against the values compiled).
void check_asked_names(const KernelSource& src, const KernelMacros& m, const Config& macros) {
  for (const auto& [name, value] : macros) {
    if (is_contract_param(name)) continue;
    if (const std::string why = macro_problem(m, name); !why.empty())
      throw ContractError(fmt::format("{}: {}={} was asked, but {}", src.path, name, value, why));
  }
}

// Throws ContractError unless every macro asked is the value compiled.
void check_asked_values(const KernelSource& src, const KernelGeometry& g, const Config& macros) {
  Config compiled = g.params;
  compiled["TILE"] = g.tile;
  compiled["BATCH2"] = g.batch2;
  compiled["BATCH3"] = g.batch3;
  for (const auto& [name, value] : macros) {
    const auto it = compiled.find(name);
    if (it != compiled.end() && it->second != value) {
      throw ContractError(fmt::format(
          "{}: {}={} was asked, but the file sets {} to {}; wrap its #define in #ifndef {} "
          "so that it can be set",
          src.path, name, value, name, it->second, name));
    }
  }
}

}  // namespace

CompiledKernel compile_kernel(const KernelSource& src, const Config& macros,
                              const CompileOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const KernelMacros scanned = scan_kernel_macros(src.text);
  check_asked_names(src, scanned, macros);
  const std::vector<std::string> params = extra_params(scanned);
  CompiledKernel k;
  const Cubin cubin =
      load_or_compile(src, src.text + epilogue(params), nvrtc_options(macros, o.arch), o, k);
  k.geometry = read_geometry(src, cubin, params);
  check_asked_values(src, k.geometry, macros);
  k.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return k;
}

std::string geometry_problem(const KernelGeometry& g, int n, const DeviceInfo& dev) {
  if (n < 1) return fmt::format("n must be at least 1, got {}", n);
  if (g.threads() > dev.max_threads_per_block) {
    return fmt::format("THREADS_X x THREADS_Y = {} threads per block, the device allows {}",
                       g.threads(), dev.max_threads_per_block);
  }
  for (size_t i = 0; i < kPhaseKernels.size(); ++i) {
    const int64_t bytes = g.static_smem[i] + g.dynamic_smem[i];
    if (bytes > dev.smem_per_block_optin) {
      return fmt::format(
          "{} needs {} bytes of shared memory per block ({} static + SHMEM{} = {}), the device "
          "allows {}",
          kPhaseKernels[i], bytes, g.static_smem[i], i + 1, g.dynamic_smem[i],
          dev.smem_per_block_optin);
    }
  }
  const int64_t tiles = (static_cast<int64_t>(n) + g.tile - 1) / g.tile;
  if ((tiles + g.batch3 - 1) / g.batch3 > 65535)
    return fmt::format("phase 3's grid would exceed 65535 blocks in y at n = {}", n);
  return "";
}

std::string kernel_never_runs(const Variant& v, const std::vector<std::pair<Config, int>>& runs,
                              const DeviceInfo& dev) {
  std::string first;
  for (const auto& [config, n] : runs) {
    const std::string why = v.check(config, n, dev);
    if (why.empty()) return "";
    if (first.empty()) first = fmt::format("{} at n = {}: {}", config_name(v.name, config), n, why);
  }
  if (runs.empty()) return "";
  return fmt::format("--kernel {}: cannot run at any n of the plan on {}: {}", v.source, dev.name,
                     first);
}

}  // namespace apsp::harness

namespace apsp::harness {

UserKernel::UserKernel(KernelSource src, std::vector<Param> params, CompileOptions options)
    : src_(std::move(src)), params_(std::move(params)), options_(std::move(options)) {
  const KernelMacros scanned = scan_kernel_macros(src_.text);
  for (Param& p : params_) {
    if (const std::string why = macro_problem(scanned, p.name); !why.empty())
      throw ContractError(fmt::format("{}: --param {}: {}", src_.path, p.name, why));
    if (p.group.empty() || p.group == kContractGroup) p.group = "kernel";
  }
  default_ = std::make_shared<const CompiledKernel>(compile_kernel(src_, {}, options_));
  builds_[default_->geometry.config()] = default_;
}

std::shared_ptr<const CompiledKernel> UserKernel::build(const Config& c) {
  std::lock_guard lock(mutex_);
  auto& slot = builds_[c];
  if (!slot) slot = std::make_shared<const CompiledKernel>(compile_kernel(src_, c, options_));
  return slot;
}

Variant UserKernel::variant(Target target) {
  Variant v;
  v.name = src_.name;
  v.summary = fmt::format("user kernel {} (NVRTC, source {})", src_.path, src_.hash);
  v.target = target;
  v.defaults = default_->geometry.config();
  for (const auto& [name, value] : v.defaults) {
    auto asked = std::find_if(params_.begin(), params_.end(),
                              [&](const Param& p) { return p.name == name; });
    Param p =
        asked != params_.end() ? *asked : Param{name, {value}, "the file's value", kContractGroup};
    p.any_value = true;
    v.space.push_back(std::move(p));
  }
  v.check = [this](const Config& c, int n, const DeviceInfo& dev) -> std::string {
    try {
      return geometry_problem(build(c)->geometry, n, dev);
    } catch (const CompileError& e) {
      return fmt::format("{}: {}", e.what(), first_error_line(e.log));
    } catch (const std::exception& e) {
      return e.what();
    }
  };
  if (target == Target::kDevice) {
    v.run = [this](int* d, int n, const Config& c, cudaStream_t stream, PhaseTimer* phases) {
      launch_user_kernel(*build(c), d, n, stream, phases);
    };
  }
  v.kernel_hash = src_.hash;
  v.source = src_.path;
  return v;
}

std::vector<std::string> user_param_names(const Variant& v) {
  std::vector<std::string> names;
  for (const Param& p : v.space)
    if (p.group != kContractGroup) names.push_back(p.name);
  return names;
}

std::string first_error_line(const std::string& log) {
  std::stringstream ss(log);
  for (std::string line; std::getline(ss, line);)
    if (line.find("error") != std::string::npos) return line;
  return log.substr(0, log.find('\n'));
}

}  // namespace apsp::harness

namespace apsp::harness {

namespace {
int positive_int(const std::string& text, const std::string& context) {
  int v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || text.empty() ||
      !std::isdigit(text[0]) || v < 1)
    throw std::invalid_argument(fmt::format("{}: '{}' is not a positive integer", context, text));
  return v;
}
}  // namespace

Param parse_kernel_param(const std::string& text) {
  const std::string context = "--param " + text;
  const auto eq = text.find('=');
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  if (eq == std::string::npos || !std::regex_match(text.substr(0, eq), identifier))
    throw std::invalid_argument(fmt::format("{}: expected NAME=LIST or NAME=FIRST:LAST", context));
  Param p{text.substr(0, eq), {}, "set with -D by the tuner", "kernel"};
  const std::string values = text.substr(eq + 1);
  if (const auto colon = values.find(':'); colon != std::string::npos) {
    const int first = positive_int(values.substr(0, colon), context),
              last = positive_int(values.substr(colon + 1), context);
    if (last < first || last - first >= 4096)
      throw std::invalid_argument(fmt::format("{}: an empty or too long range", context));
    for (int v = first; v <= last; ++v) p.values.push_back(v);
  } else {
    std::stringstream ss(values);
    for (std::string item; std::getline(ss, item, ',');) {
      const int v = positive_int(item, context);
      if (std::find(p.values.begin(), p.values.end(), v) != p.values.end())
        throw std::invalid_argument(fmt::format("{}: {} is listed twice", context, v));
      p.values.push_back(v);
    }
    if (p.values.empty() || values.back() == ',')
      throw std::invalid_argument(fmt::format("{}: no values", context));
  }
  p.any_value = true;
  return p;
}

UserKernels register_user_kernels(const std::vector<std::string>& files,
                                  const std::vector<Param>& params, Target target,
                                  const CompileOptions& options) {
  UserKernels out;
  for (const std::string& file : files) {
    auto& k = out.kernels.emplace_back(
        std::make_unique<UserKernel>(read_kernel_source(file), params, options));
    out.variants.push_back(&add_runtime_variant(k->variant(target)));
  }
  return out;
}

std::string describe_compile(const UserKernel& k) {
  const CompiledKernel& c = k.default_build();
  const std::string cached =
      c.cache_file.empty() ? "the compile cache is not writable" : "cached in " + c.cache_file;
  return c.from_cache
             ? fmt::format("{}: {} from the compile cache ({:.1f} ms; {})", k.source().path,
                           config_name(k.source().name, c.geometry.config()), c.compile_ms,
                           c.cache_file)
             : fmt::format("{}: {} compiled by NVRTC {} in {:.1f} ms; {}", k.source().path,
                           config_name(k.source().name, c.geometry.config()), nvrtc_version(),
                           c.compile_ms, cached);
}

std::string compile_failure_text(const std::string& program, const CompileError& e) {
  return fmt::format("{}\n{}: {}", e.log, program, e.what());
}

}  // namespace apsp::harness
