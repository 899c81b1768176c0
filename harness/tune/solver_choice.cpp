#include "harness/tune/solver_choice.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/console.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"
#include "harness/tune/tuned.hpp"

namespace apsp::harness {

namespace {
// Whether a variant of `precision` may solve the graph and prove its result (core/precision.hpp).
bool may_prove(const std::string& precision, int64_t max_weight, int64_t distance_floor) {
  return weights_fit(precision, max_weight).empty() &&
         exactness_fault(distance_floor, max_weight, unreachable_of(precision)).empty();
}
}  // namespace

const Variant& solver_for(int64_t max_weight, int64_t distance_floor) {
  const Variant* u16 = find_variant(kSolverVariantU16);
  if (u16 && may_prove(u16->precision, max_weight, distance_floor)) return *u16;
  return *find_variant(kSolverVariant);
}

SolverChoice choose_solver(const DeviceInfo& dev, int n, int64_t max_weight, const TuningDb* db,
                           const std::string& db_path, int64_t distance_floor) {
  const Variant& solver = solver_for(max_weight, distance_floor);
  const Resolved d = resolve_config({&solver, std::nullopt, nullptr}, n, &dev);
  // Why 16 bits, when so: the rule with this graph's numbers.
  const std::string precision =
      solver.precision == kPrecisionU16x2
          ? fmt::format(
                "16-bit distances, to be proven exact after the solve: largest weight {} "
                "< {}; ",
                max_weight, kInf16)
          : "";
  SolverChoice out{{&solver, d.config}, precision + d.source};
  if (!db) return out;
  TuningMatch match;
  match.device = DeviceModel::of(dev);
  match.kernels = current_build().kernels;
  match.any_graph = true;
  auto reference_at = [&](int m) { return NamedConfig{&solver, shipped_config(solver, m, &dev)}; };
  auto admits = [&](const std::string& name) {
    const Variant* v = find_variant(name);
    return v && may_prove(v->precision, max_weight, distance_floor);
  };
  const auto pick = pick_tuned(*db, match, "", n, reference_at, admits);
  if (!pick) {
    out.why = fmt::format(
        "{}{}; {} holds no entries for this device and build within a factor 2 of n = {} that "
        "include that default",
        precision, d.source, db_path, n);
  } else if (!pick->improves()) {
    out.why = fmt::format("{}{}; in {} nothing beat it at n = {} ({:.3f} ms)", precision, d.source,
                          db_path, pick->reference->n, pick->reference->median_ms);
  } else {
    out.chosen = NamedConfig{find_variant(pick->pick->variant), pick->pick->config};
    out.why =
        fmt::format("{}tuned in {} at n = {}: {:.3f} ms against the default's {:.3f} ms", precision,
                    db_path, pick->pick->n, pick->pick->median_ms, pick->reference->median_ms);
  }
  return out;
}

std::optional<double> cpu_solve_estimate_s(double elapsed_s, int rounds_done, int rounds) {
  if (rounds_done < 1 || rounds < 1 || (elapsed_s < 1 && rounds_done < rounds)) return std::nullopt;
  return elapsed_s / rounds_done * rounds;
}

std::string cpu_solve_estimate_line(int n, double estimate_s) {
  if (estimate_s <= 60) return "";
  return fmt::format(
      "the CPU solve of V = {} will take {} (at the rate so far); with a CUDA "
      "device present (nvidia-smi lists it, CUDA_VISIBLE_DEVICES does not hide it) apsp solves "
      "on the GPU by default",
      n, rough_duration(estimate_s));
}

}  // namespace apsp::harness
