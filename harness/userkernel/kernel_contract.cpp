// The contract's checks of a user's kernel file and of its compiled module, and the text the
// contract adds before and after the file (kernel_contract.hpp).
#include "harness/userkernel/kernel_contract.hpp"

#include <fmt/format.h>

#include <regex>

namespace apsp::harness {

namespace {

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

}  // namespace

std::string contract_epilogue(const std::vector<std::string>& params) {
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

std::vector<std::string> extra_params(const KernelMacros& m) {
  std::vector<std::string> out;
  for (const std::string& name : m.tunable)
    if (!is_contract_param(name)) out.push_back(name);
  return out;
}

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

void check_asked_names(const KernelSource& src, const KernelMacros& m, const Config& macros) {
  for (const auto& [name, value] : macros) {
    if (is_contract_param(name)) continue;
    if (const std::string why = macro_problem(m, name); !why.empty())
      throw ContractError(fmt::format("{}: {}={} was asked, but {}", src.path, name, value, why));
  }
}

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

Config KernelGeometry::config() const {
  Config c = params;
  c["TILE"] = tile;
  if (declares_batch2) c["BATCH2"] = batch2;
  if (declares_batch3) c["BATCH3"] = batch3;
  return c;
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
