#include <algorithm>

#include "variants/batch_variant.hpp"
#include "variants/registrations.hpp"

namespace apsp {

BatchVariantRegistrar::BatchVariantRegistrar(BatchVariant (*factory)(), const char* file) {
  record_registration(factory, file);
}

const std::vector<BatchVariant>& batch_registry() {
  static const std::vector<BatchVariant> variants = [] {
    std::vector<BatchVariant> out = registered_variants<BatchVariant>(
        "batched variant", [](const BatchVariant&) { return true; });
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
