#include "variants/instances.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <utility>

namespace apsp {

namespace {

struct Instance {
  InstanceFn fn;
  std::string file;
};

// Filled during static initialisation, by every shard of every sharded variant file; read after.
std::map<std::pair<std::string, Config>, Instance>& instances() {
  static std::map<std::pair<std::string, Config>, Instance> table;
  return table;
}

}  // namespace

void register_instance(const std::string& variant, const Config& c, InstanceFn fn,
                       const char* file) {
  const std::string name = std::filesystem::path(file).filename().string();
  const auto [it, added] = instances().try_emplace({variant, c}, Instance{fn, name});
  if (!added) {
    // Before main(), so no exception could be caught: refuse loudly, as the registry does for a
    // variant name registered twice.
    fmt::print(stderr, "apsp: instance {} is registered twice ({} and {}); rename the variant\n",
               config_name(variant, c), it->second.file, name);
    std::abort();
  }
}

InstanceFn find_instance(const std::string& variant, const Config& c) {
  const auto it = instances().find({variant, c});
  return it == instances().end() ? nullptr : it->second.fn;
}

void run_instance(const std::string& variant, int* d, int n, const Config& c, cudaStream_t stream,
                  PhaseTimer* phases) {
  const InstanceFn fn = find_instance(variant, c);
  if (!fn) {
    // What is wrong with the config (a parameter not set, a constraint it breaks) says most;
    // a valid config without an instance means the build lacks a shard.
    const std::string why = config_problem(variant, c);
    throw std::invalid_argument(
        !why.empty() ? why
                     : fmt::format("{}: no compiled instance in this build (a shard of its file "
                                   "missing from the build?)",
                                   config_name(variant, c)));
  }
  fn(d, n, c, stream, phases);
}

}  // namespace apsp
