// Compiled instances of a variant's parameter space, for a variant file whose kernels are
// compiled in several translation units ("shards", as CUTLASS splits its instance files) so that
// a build spreads them over the cores.
//
// The space stays declared once, as the file's IntLists. A file whose first 4 KB hold the line
//   // apsp-instance-shards: N
// is compiled N times by variants/CMakeLists.txt, with APSP_SHARD = 0 .. N-1 and APSP_SHARDS = N.
// Each shard compiles the points InstanceSpace::for_each_in_shard gives it and registers them
// here (APSP_REGISTER_INSTANCES); shard 0 alone also registers the Variant, whose run() looks its
// instance up with run_instance(). Everything else in such a file stays in an anonymous
// namespace, so that a copy of it under another name (and another variant name) links too.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "variants/dispatch.hpp"
#include "variants/variant.hpp"

// A shard-aware file compiled on its own (no shard comment) is the only shard of itself.
#ifndef APSP_SHARDS
#define APSP_SHARD 0
#define APSP_SHARDS 1
#endif

namespace apsp {

// One compiled point of a space: Variant::run with the point's parameters fixed at compile time.
using InstanceFn = void (*)(int* d, int n, const Config& c, cudaStream_t stream,
                            PhaseTimer* phases);

// Adds variant's instance for config c (complete: every parameter of the space). `file` is the
// registering file (__FILE__), named in the message when two files register one point (a copied
// variant file whose name was not changed): that aborts, as a name registered twice does.
void register_instance(const std::string& variant, const Config& c, InstanceFn fn,
                       const char* file);

// The instance registered for (variant, c), or nullptr.
InstanceFn find_instance(const std::string& variant, const Config& c);

// Runs variant's instance for c; throws std::invalid_argument, naming the config, when this
// build has none (a combination the constraints rule out, or a shard missing from the build).
void run_instance(const std::string& variant, int* d, int n, const Config& c, cudaStream_t stream,
                  PhaseTimer* phases);

namespace instances_internal {

template <int... Values>
constexpr int nth(IntList<Values...>, int i) {
  constexpr int kValues[] = {Values...};
  return kValues[i];
}

}  // namespace instances_internal

// The cartesian product of a variant's value lists, in the order of its space (the last list
// varies fastest, as enumerate_space), at compile time.
template <class... Lists>
class InstanceSpace {
  static_assert(sizeof...(Lists) >= 1, "a space of at least one parameter");

 public:
  static constexpr int kPoints = (static_cast<int>(Lists::size()) * ... * 1);

  // Calls f(std::integral_constant<int, V>{}...) for each point (V...) that `built` admits and
  // that falls in shard kShard of kShards. `built` is a captureless lambda taking the same
  // constants and returning, in a constant expression, whether the point makes a kernel (the
  // variant's constraints). The points that differ only in the last parameter form a group, and
  // a group is never split: kernels that do not depend on the last parameter (sm90's phase 3
  // and every lookahead) are then compiled once, not once per shard. The groups with a built
  // point are dealt out in order, kShards runs of consecutive groups whose counts differ by one
  // at most (more shards than such groups leave some empty).
  template <int kShard, int kShards, class Built, class F>
  static void for_each_in_shard(Built, F&& f) {
    static_assert(kShards >= 1 && kShard >= 0 && kShard < kShards, "shard out of range");
    [&]<int... kPoint>(std::integer_sequence<int, kPoint...>) {
      (visit<kShard, kShards, Built, kPoint>(f), ...);
    }
    (std::make_integer_sequence<int, kPoints>{});
  }

 private:
  static constexpr int kSizes[] = {static_cast<int>(Lists::size())...};
  static constexpr int kGroup = kSizes[sizeof...(Lists) - 1];  // points per group
  static constexpr int kGroups = kPoints / kGroup;

  // The value of parameter kParam at point kPoint.
  template <int kPoint, std::size_t kParam>
  static constexpr int value() {
    int stride = 1;
    for (std::size_t q = kParam + 1; q < sizeof...(Lists); ++q) stride *= kSizes[q];
    using List = std::tuple_element_t<kParam, std::tuple<Lists...>>;
    return instances_internal::nth(List{}, kPoint / stride % kSizes[kParam]);
  }

  template <int kPoint, std::size_t... kParam>
  static constexpr auto point(std::index_sequence<kParam...>) {
    return std::tuple<std::integral_constant<int, value<kPoint, kParam>()>...>{};
  }
  template <int kPoint>
  static constexpr auto point() {
    return point<kPoint>(std::index_sequence_for<Lists...>{});
  }

  template <class Built, int... kPoint>
  static constexpr std::array<bool, kPoints> built_flags(std::integer_sequence<int, kPoint...>) {
    return {std::apply(Built{}, point<kPoint>())...};
  }
  template <class Built>
  static constexpr std::array<bool, kPoints> kBuilt =
      built_flags<Built>(std::make_integer_sequence<int, kPoints>{});

  // How many groups before group `end` hold a built point.
  template <class Built>
  static constexpr int built_groups_before(int end) {
    int count = 0;
    for (int g = 0; g < end; ++g) {
      bool any = false;
      for (int i = g * kGroup; i < (g + 1) * kGroup; ++i) any = any || kBuilt<Built>[i];
      count += any;
    }
    return count;
  }

  template <int kShard, int kShards, class Built, int kPoint, class F>
  static void visit(F& f) {
    if constexpr (kBuilt<Built>[kPoint]) {
      constexpr int kRank = built_groups_before<Built>(kPoint / kGroup);
      constexpr int kCount = built_groups_before<Built>(kGroups);
      if constexpr (kRank * kShards / kCount == kShard) std::apply(f, point<kPoint>());
    }
  }
};

// Registers a shard's instances at static-initialisation time (see APSP_REGISTER_INSTANCES).
struct InstanceRegistrar {
  explicit InstanceRegistrar(void (*add)()) { add(); }
};
// In a variant file, at namespace scope: APSP_REGISTER_INSTANCES(add_instances), where
// add_instances() calls register_instance for each point of this shard.
#define APSP_REGISTER_INSTANCES(add)                                                  \
  namespace {                                                                         \
  const ::apsp::InstanceRegistrar APSP_REGISTER_VARIANT_CAT(apsp_instance_registrar_, \
                                                            __LINE__){add};           \
  }

}  // namespace apsp
