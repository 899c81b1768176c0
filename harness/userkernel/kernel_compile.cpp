// NVRTC compiles of a user's kernel file and their disk cache: a module is keyed by the source,
// the options, the contract's version, the NVRTC version and the architecture
// (kernel_contract.hpp holds what the contract adds to the file and checks).
#include <fmt/format.h>
#include <nvrtc.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/cubin.hpp"
#include "harness/userkernel/kernel_contract.hpp"
#include "harness/userkernel/kernel_macros.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

namespace {

namespace fs = std::filesystem;

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

}  // namespace

CompiledKernel compile_kernel(const KernelSource& src, const Config& macros,
                              const CompileOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const KernelMacros scanned = scan_kernel_macros(src.text);
  check_asked_names(src, scanned, macros);
  const std::vector<std::string> params = extra_params(scanned);
  CompiledKernel k;
  const Cubin cubin = load_or_compile(src, src.text + contract_epilogue(params),
                                      nvrtc_options(macros, o.arch), o, k);
  k.geometry = read_geometry(src, cubin, params);
  check_asked_values(src, k.geometry, macros);
  k.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return k;
}

std::string first_error_line(const std::string& log) {
  std::stringstream ss(log);
  for (std::string line; std::getline(ss, line);)
    if (line.find("error") != std::string::npos) return line;
  return log.substr(0, log.find('\n'));
}

std::string compile_failure_text(const std::string& program, const CompileError& e) {
  return fmt::format("{}\n{}: {}", e.log, program, e.what());
}

}  // namespace apsp::harness
