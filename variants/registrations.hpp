// What a kind of variant's registrars record before main() (Variant: variants/registry.cpp;
// BatchVariant: variants/batch_registry.cpp), and the list made from it once: each factory
// called, its file recorded, a name two files register refused loudly.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace apsp {

template <class V>
struct Registration {
  V (*factory)();
  std::string file;
};

// Filled during static initialisation, before main().
template <class V>
std::vector<Registration<V>>& registrations() {
  static std::vector<Registration<V>> r;
  return r;
}

template <class V>
void record_registration(V (*factory)(), const char* file) {
  registrations<V>().push_back({factory, std::filesystem::path(file).filename().string()});
}

// Every registered V that keep(v) accepts, in registration order. Two files registering one name
// (a copied variant file not yet renamed) abort, naming `kind` and the second file.
template <class V, class Keep>
std::vector<V> registered_variants(const char* kind, Keep keep) {
  std::vector<V> out;
  for (const Registration<V>& r : registrations<V>()) {
    V v = r.factory();
    v.source = r.file;
    if (!keep(v)) continue;
    if (std::any_of(out.begin(), out.end(), [&](const V& o) { return o.name == v.name; })) {
      fmt::print(stderr, "apsp: {} '{}' is registered twice ({}); rename one\n", kind, v.name,
                 r.file);
      std::abort();
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace apsp
