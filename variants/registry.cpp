#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "variants/registrations.hpp"
#include "variants/variant.hpp"

namespace apsp {

VariantRegistrar::VariantRegistrar(Variant (*factory)(), const char* file) {
  record_registration(factory, file);
}

int row_pitch(const Variant& v, const Config& c, int n) {
  const int pitch = v.pitch ? v.pitch(c, n) : n;
  if (pitch < n) throw std::logic_error(v.name + ": a row pitch below n");
  return pitch;
}

size_t buffer_elems(const Variant& v, const Config& c, int n) {
  const size_t pitch = static_cast<size_t>(row_pitch(v, c, n));
  return pitch * pitch;
}

uint64_t scratch_bytes(const Variant& v, const Config& c, int n) {
  return v.scratch_bytes ? v.scratch_bytes(c, n) : 0;
}

std::string admission_problem(const Variant& v, int n, int64_t max_weight) {
  if (!v.admits) return "";
  const std::string why = v.admits(n, max_weight);
  return why.empty() ? "" : fmt::format("{} does not solve this graph exactly: {}", v.name, why);
}

std::string check_launch(int n, int threads, int smem_bytes, const DeviceInfo& dev) {
  if (n < 1) return fmt::format("n must be at least 1, got {}", n);
  if (threads > dev.max_threads_per_block) {
    return fmt::format("needs {} threads per block, the device allows {}", threads,
                       dev.max_threads_per_block);
  }
  if (smem_bytes > dev.smem_per_block_optin) {
    return fmt::format("needs {} bytes of shared memory per block, the device allows {}",
                       smem_bytes, dev.smem_per_block_optin);
  }
  return "";
}

const std::vector<Variant>& registry() {
  static const std::vector<Variant> variants = [] {
    const bool with_tests = std::getenv("APSP_TEST_VARIANTS") != nullptr;
    std::vector<Variant> out = registered_variants<Variant>(
        "variant", [&](const Variant& v) { return !v.test_only || with_tests; });
    // File names give the order users read them in: 00_naive.cu, 01_blocked32.cu, ...
    std::stable_sort(out.begin(), out.end(), [](const Variant& a, const Variant& b) {
      return std::tie(a.test_only, a.source, a.name) < std::tie(b.test_only, b.source, b.name);
    });
    return out;
  }();
  return variants;
}

namespace {
std::deque<Variant>& runtime_list() {
  static std::deque<Variant> list;  // a deque: adding one moves none of the others
  return list;
}
}  // namespace

const std::deque<Variant>& runtime_variants() { return runtime_list(); }

const Variant& add_runtime_variant(Variant v) {
  if (find_variant(v.name)) {
    throw std::invalid_argument(
        fmt::format("a variant named '{}' exists already{}; rename the file", v.name,
                    v.source.empty() ? "" : " (" + v.source + ")"));
  }
  return runtime_list().emplace_back(std::move(v));
}

std::vector<std::string> search_groups() {
  std::set<std::string> groups;
  for (const Variant& v : registry())
    for (const Param& p : v.space) groups.insert(p.group);
  return {groups.begin(), groups.end()};
}

std::vector<Param> params_in_group(const Variant& v, const std::string& group) {
  std::vector<Param> out;
  for (const Param& p : v.space)
    if (group == "all" || p.group == group) out.push_back(p);
  return out;
}

}  // namespace apsp
