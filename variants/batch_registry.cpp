#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "variants/batch_variant.hpp"

namespace apsp {

namespace {

struct BatchRegistration {
  BatchVariant (*factory)();
  std::string file;
};

// Filled during static initialisation, before main(); read once by batch_registry().
std::vector<BatchRegistration>& batch_registrations() {
  static std::vector<BatchRegistration> r;
  return r;
}

}  // namespace

BatchVariantRegistrar::BatchVariantRegistrar(BatchVariant (*factory)(), const char* file) {
  batch_registrations().push_back({factory, std::filesystem::path(file).filename().string()});
}

const std::vector<BatchVariant>& batch_registry() {
  static const std::vector<BatchVariant> variants = [] {
    std::vector<BatchVariant> out;
    for (const BatchRegistration& r : batch_registrations()) {
      BatchVariant v = r.factory();
      v.source = r.file;
      if (find_if(out.begin(), out.end(), [&](const auto& o) { return o.name == v.name; }) !=
          out.end()) {
        fmt::print(stderr, "apsp: batched variant '{}' is registered twice ({}); rename one\n",
                   v.name, r.file);
        std::abort();
      }
      out.push_back(std::move(v));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.source < b.source; });
    return out;
  }();
  return variants;
}

const BatchVariant* find_batch_variant(const std::string& name) {
  const auto& all = batch_registry();
  const auto it =
      std::find_if(all.begin(), all.end(), [&](const auto& v) { return v.name == name; });
  return it == all.end() ? nullptr : &*it;
}

std::vector<Config> all_batch_configs(const BatchVariant& v) {
  return built_configs(v.space, v.constraints, v.defaults);
}

}  // namespace apsp
