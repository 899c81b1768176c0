// The variant and config a solve runs with: asked, or auto (harness/tune/solver_choice.hpp);
// admitted, checked at V and fitted to the device before anything is allocated.
#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "core/device_buffer.hpp"
#include "core/memory.hpp"
#include "core/tuning_db.hpp"
#include "harness/measure/matrix_layout.hpp"
#include "harness/multigpu/distributed.hpp"
#include "harness/multigpu/row_partition.hpp"
#include "harness/plan/build_identity.hpp"
#include "harness/solve/solve_steps.hpp"
#include "harness/tune/policy.hpp"
#include "harness/tune/resolve.hpp"
#include "harness/tune/solver_choice.hpp"
#include "harness/tune/tuned.hpp"

namespace apsp::harness {

Choice asked_variant(SolveRequest& r) {
  Choice c;
  c.db_path = r.db_path;
  if (!r.config.empty()) {
    NamedConfig named = parse_config(r.config);
    if (r.variant != "auto" && r.variant != named.variant->name)
      throw std::invalid_argument(fmt::format("{} {} and {} {} disagree", mention("variant"),
                                              r.variant, mention("config"), r.config));
    r.variant = named.variant->name;
    c.asked = named;
  } else if (r.variant != "auto" && r.variant != "cpu") {
    c.asked = parse_config(r.variant);
    c.bare_name = r.variant.find('[') == std::string::npos;
  }
  return c;
}

namespace {

// A user kernel named alone, with a database: the tuner's pick for the kernel's source where it
// beat the file's own values at the nearest tuned n, as apsp_bench --tuned takes it; any graph.
std::pair<NamedConfig, std::string> tuned_user_kernel(const Variant& v, const TuningDb& db,
                                                      const std::string& db_path,
                                                      const DeviceInfo& dev, int n) {
  TunedSource tuned{&db, {}, db_path};
  tuned.match.device = DeviceModel::of(dev);
  tuned.match.kernels = build_of(v, current_build()).kernels;
  tuned.match.any_graph = true;
  const Resolved t = resolve_config({&v, std::nullopt, &tuned}, n, &dev);
  return {NamedConfig{&v, t.config}, t.tuned ? fmt::format("{} in {}", t.source, db_path) : t.note};
}

}  // namespace

// sm90_u16 where the largest edge weight fits 16 bits, else sm90 (the result is proven exact
// after the solve); the database's pick where it beat the default.
std::pair<NamedConfig, std::string> pick(const Choice& c, const DeviceInfo& dev, int n,
                                         int64_t max_weight, int64_t distance_floor) {
  NamedConfig chosen = c.asked.value_or(NamedConfig{});
  if (c.bare_name && c.db && !chosen.variant->kernel_hash.empty())
    return tuned_user_kernel(*chosen.variant, *c.db, c.db_path, dev, n);
  if (c.bare_name) {
    const Resolved d = resolve_config({chosen.variant, std::nullopt, nullptr}, n, &dev);
    chosen.config = d.config;
    return {chosen, d.source};
  }
  if (c.asked) return {chosen, "as asked"};
  const SolverChoice s = choose_solver(dev, n, max_weight, c.db.get(), c.db_path, distance_floor);
  return {s.chosen, s.why};
}

NamedConfig choose(const Choice& c, const DeviceInfo& dev, int n, int64_t max_weight,
                   int64_t distance_floor, const std::function<uint64_t(int pitch)>& beside,
                   const Log& log) {
  const auto [chosen, why] = pick(c, dev, n, max_weight, distance_floor);
  const Variant& v = *chosen.variant;
  // Nothing bounds the distances before the solve: the result is proven exact after it.
  if (const std::string reason = weights_fit(v.precision, max_weight); !reason.empty())
    throw std::runtime_error(fmt::format("{}: {}", v.name, reason));
  if (const std::string reason = v.check(chosen.config, n, dev); !reason.empty())
    throw std::runtime_error(
        fmt::format("{} cannot run at V = {}: {}", config_name(v.name, chosen.config), n, reason));
  // The solve's buffer (in its layout: sm90's is padded to its tile) and, at the peak, the most
  // of what comes beside it and what the solve allocates itself (sm90_u16's 16-bit copy), which
  // are never held at once.
  const uint64_t solve = buffer_elems(v, chosen.config, n) * sizeof(int32_t);
  const uint64_t peak =
      solve + std::max(beside(row_pitch(v, chosen.config, n)), scratch_bytes(v, chosen.config, n));
  if (const uint64_t free = device_free_bytes(); peak > free)
    throw std::runtime_error(fmt::format("V = {} needs {} on {}, which has {} free", n,
                                         human_bytes(peak), dev.name, human_bytes(free)));
  if (log)
    log(fmt::format("solving with {} on {} ({})", config_name(v.name, chosen.config), dev.name,
                    why));
  return chosen;
}

NamedConfig choose_for_gpus(const Choice& c, const DeviceInfo& dev, int n, int gpus,
                            const std::string& transport, uint64_t beside, int host_matrices,
                            const Log& log) {
  // The engine computes in int32 (sm90's kernels): auto takes sm90 whatever the weights.
  const auto [chosen, why] = pick(c, dev, n, /*max_weight=*/kInf);
  const Variant& v = *chosen.variant;
  if (!v.multi_gpu)
    throw std::runtime_error(
        fmt::format("{} {}: {} runs on one GPU only", mention("gpus"), gpus, v.name));
  if (const std::string reason = distributed_problem(v, chosen.config); !reason.empty())
    throw std::runtime_error(fmt::format("{} {}: {}", mention("gpus"), gpus, reason));
  const bool one_gpu = transport_shares_device(transport);
  const Partition part = partition_rows(n, distributed_tile(v, chosen.config), gpus);
  const uint64_t need = (part.max_bytes_per_rank() + beside) * (one_gpu ? gpus : 1);
  if (const uint64_t free = device_free_bytes(); need > free)
    throw std::runtime_error(
        fmt::format("V = {} on {} GPUs needs {} of device memory {}, {} are free", n, gpus,
                    human_bytes(need), one_gpu ? "on the one GPU" : "per GPU", human_bytes(free)));
  if (host_matrices > 0)
    check_host_matrices(n, host_matrices, "the gathered distances and what reads them");
  if (log)
    log(fmt::format("solving with {} on {} {}s ({})", config_name(v.name, chosen.config), gpus,
                    one_gpu ? "ranks on one " + dev.name : dev.name, why));
  return chosen;
}

// Its kernels load (lazy module loading), their attributes are set, its streams and memory pool
// are made, and the GPU wakes, so that the timed solve costs what the bench measures (a fresh
// process's first solve took 94 ms at V = 10000 against the bench's 70 ms). The weights are not
// known yet: where auto may take either precision at this V (16 bits if the weights are small
// enough), both are warmed.
void warm_up(const Choice& c, int v) {
  try {
    const DeviceInfo dev = query_device();
    const NamedConfig wide = pick(c, dev, v, kInf).first;
    const NamedConfig narrow = pick(c, dev, v, 0).first;
    const int n = std::min(v, 3 * 128 + 1);  // a few rounds of the largest tile, padded
    std::vector<NamedConfig> solves{narrow};
    if (wide.variant != narrow.variant || wide.config != narrow.config) solves.push_back(wide);
    for (const NamedConfig& s : solves) {
      if (s.variant->target != Target::kDevice || !s.variant->check(s.config, n, dev).empty())
        continue;
      const DistMatrix empty(n);  // every entry kInf but the diagonal: any variant admits it
      DeviceBuffer<int32_t> d(buffer_elems(*s.variant, s.config, n));
      CudaStream stream;
      put_matrix(d.get(), row_pitch(*s.variant, s.config, n), empty.data(), n,
                 cudaMemcpyHostToDevice, stream.get());
      s.variant->run(d.get(), n, s.config, stream.get(), nullptr);
      stream.synchronize();
    }
  } catch (const std::exception&) {
  }
}

}  // namespace apsp::harness
