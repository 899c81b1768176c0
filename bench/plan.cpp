#include "bench/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>

namespace apsp::bench {

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    int v = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc() || p != item.data() + item.size()) {
      throw std::invalid_argument(fmt::format("--n: '{}' is not an integer", item));
    }
    if (v <= 0) throw std::invalid_argument(fmt::format("--n: n must be positive, got {}", v));
    if (v > 46340) {  // n * n must index an int32 matrix with size_t and fit kernels' int tiles
      throw std::invalid_argument(fmt::format("--n: {} is larger than the supported 46340", v));
    }
    out.push_back(v);
  }
  if (out.empty()) throw std::invalid_argument("--n: no sizes given");
  return out;
}

std::vector<Entry> select_entries(const std::string& variants,
                                  const std::vector<std::string>& configs) {
  std::vector<Entry> out;
  auto add = [&](const Variant* v, const Config& c) {
    const std::string name = config_name(v->name, c);
    if (std::none_of(out.begin(), out.end(), [&](const Entry& e) { return e.name == name; }))
      out.push_back(Entry{v, c, name});
  };
  if (!variants.empty()) {
    std::stringstream ss(variants);
    for (std::string item; std::getline(ss, item, ',');) {
      if (item == "all") {
        for (const Variant& v : registry()) add(&v, v.defaults);
        continue;
      }
      const Variant* v = find_variant(item);
      if (!v) {
        throw std::invalid_argument(fmt::format("--variant: unknown variant '{}' (known: {}, all)",
                                                item, fmt::join(variant_names(), ", ")));
      }
      add(v, v->defaults);
    }
  }
  for (const std::string& text : configs) {
    const NamedConfig c = parse_config(text);
    add(c.variant, c.config);
  }
  if (out.empty()) throw std::invalid_argument("nothing to run: no --variant and no --config");
  return out;
}

}  // namespace apsp::bench
