// A user's kernel file behind the Variant interface: its compiles per config, its space, checks
// and run; the tuner's --param; registering every --kernel file.
#include "harness/userkernel/user_kernel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <regex>
#include <sstream>

#include "harness/userkernel/kernel_macros.hpp"

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

}  // namespace apsp::harness
