#include "harness/plan/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>

#include "core/memory.hpp"
#include "harness/multigpu/row_partition.hpp"
#include "harness/verify/certificate.hpp"
#include "variants/multi_gpu.hpp"

namespace apsp::harness {

namespace {

// "1000,2500": positive integers up to `max`; messages name an item `item` ("size") and its
// value `value` ("n").
std::vector<int> parse_positive_list(const std::string& text, const std::string& flag, int max,
                                     const char* item_name, const char* value) {
  std::vector<int> out;
  // Every item between commas counts, so "1000," is refused as ",1000" is.
  for (size_t start = 0;;) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    int v = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec == std::errc::result_out_of_range && p == item.data() + item.size())
      throw std::invalid_argument(
          fmt::format("{}: {} is out of range (at most {})", flag, item, max));
    if (item.empty())
      throw std::invalid_argument(fmt::format("{}: an empty {} in '{}'", flag, item_name, text));
    if (ec != std::errc() || p != item.data() + item.size()) {
      throw std::invalid_argument(fmt::format("{}: '{}' is not an integer", flag, item));
    }
    if (v <= 0)
      throw std::invalid_argument(fmt::format("{}: {} must be positive, got {}", flag, value, v));
    if (v > max)
      throw std::invalid_argument(fmt::format("{}: {} is out of range (at most {})", flag, v, max));
    out.push_back(v);
    if (comma == text.size()) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<int> parse_sizes(const std::string& text, const std::string& flag) {
  std::vector<int> sizes = parse_positive_list(text, flag, kMaxN, "size", "n");
  for (size_t i = 0; i < sizes.size(); ++i)
    if (std::find(sizes.begin(), sizes.begin() + i, sizes[i]) != sizes.begin() + i)
      throw std::invalid_argument(fmt::format("{}: n = {} is given twice", flag, sizes[i]));
  return sizes;
}

std::vector<int> parse_gpu_counts(const std::string& text) {
  if (text == "all") return {kAllGpus};
  std::vector<int> counts =
      parse_positive_list(text, "--gpus", kMaxGpus, "GPU count", "a GPU count");
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

void resolve_gpu_counts(std::vector<int>& counts, int present) {
  for (int& c : counts)
    if (c == kAllGpus) c = std::max(present, 1);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
}

std::string gpu_count_problem(const std::vector<int>& counts, int present) {
  const int most = counts.empty() ? 1 : *std::max_element(counts.begin(), counts.end());
  if (most <= present) return "";
  return fmt::format("{} GPUs asked, {} present", most, present);
}

void check_reps(SampleOptions& s, bool min_given, bool max_given) {
  if (s.min_reps <= s.max_reps) return;
  if (min_given && max_given)
    throw std::invalid_argument(
        fmt::format("--min-reps {} is more than --reps {}", s.min_reps, s.max_reps));
  if (max_given) s.min_reps = s.max_reps;  // --reps 2 alone: fewer than the default minimum
  // --min-reps 20 alone: more than the default maximum
  else
    s.max_reps = s.min_reps;
}

std::vector<Request> select_requests(const std::string& variants,
                                     const std::vector<std::string>& configs) {
  std::vector<Request> out;
  auto add = [&](Request r) {
    auto same = [&](const Request& o) { return o.variant == r.variant && o.config == r.config; };
    if (const auto it = std::find_if(out.begin(), out.end(), same); it != out.end())
      it->named = it->named || r.named;  // "all,naive": naive asked for by name
    else
      out.push_back(std::move(r));
  };
  std::stringstream ss(variants);
  for (std::string item; std::getline(ss, item, ',');) {
    if (item == "all") {
      for (const Variant& v : registry()) add(Request{&v, std::nullopt, false, /*named=*/false});
      continue;
    }
    const Variant* v = find_variant(item);
    if (!v) {
      throw std::invalid_argument(fmt::format("--variant: unknown variant '{}' (known: {}, all)",
                                              item, fmt::join(variant_names(), ", ")));
    }
    add(Request{v, std::nullopt});
  }
  for (const std::string& text : configs) {
    const NamedConfig c = parse_config(text);
    add(Request{c.variant, c.config});
  }
  if (out.empty()) throw std::invalid_argument("nothing to run: no --variant and no --config");
  return out;
}

void add_baseline(Plan& plan, bool reuse) {
  const bool asked = std::any_of(plan.requests.begin(), plan.requests.end(), [&](const Request& r) {
    return r.variant->name == plan.baseline && !r.config;
  });
  if (asked || reuse) return;
  const Variant* base = find_variant(plan.baseline);
  if (!base) throw std::invalid_argument(fmt::format("no baseline variant '{}'", plan.baseline));
  plan.requests.insert(plan.requests.begin(), Request{base, std::nullopt, false, /*named=*/false});
  plan.baseline_added = true;
}

void select_runs(Plan& p, const BenchSelection& s) {
  p.requests =
      select_requests(s.variants.empty() && s.configs.empty() ? "all" : s.variants, s.configs);
  for (const Variant* v : s.kernels)
    if (std::none_of(p.requests.begin(), p.requests.end(),
                     [&](const Request& r) { return r.variant == v; }))
      p.requests.push_back(Request{v, std::nullopt});
  for (Request& r : p.requests) r.tuned = s.tuned && !r.config;
  p.sizes = p.graph.edges ? std::vector<int>{p.graph.edges->num_vertices}
                          : parse_sizes(s.sizes, s.sizes_name);
  check_weights(p);
  p.gpus = parse_gpu_counts(s.gpus);
  add_baseline(p, s.reuse_baseline);
}

void check_weights(const Plan& plan) {
  if (plan.graph.edges) return;  // a file: the reader has checked it
  for (int n : plan.sizes) {
    if (static_cast<int64_t>(n - 1) * plan.graph.spec.wmax >= kInf) {
      throw std::invalid_argument(
          fmt::format("--wmax {} with n = {}: distances could reach the unreachable value",
                      plan.graph.spec.wmax, n));
    }
  }
}

uint64_t expected_edges(const GraphInput& graph, int n) {
  if (graph.edges) return graph.edges->edges.size();
  const GraphSpec& s = graph.spec;
  const double pairs = static_cast<double>(n) * (n - 1), copies = 1 + s.duplicates;
  switch (s.kind) {
    case GraphKind::kRandom:
      return static_cast<uint64_t>(s.density * pairs * copies);
    case GraphKind::kComponents:
      return static_cast<uint64_t>(s.density * pairs / std::max(1, s.components) * copies);
    default:
      return static_cast<uint64_t>(4.0 * n * copies);  // chain, grid, star: a few edges a vertex
  }
}

WorkingSet working_set(const Plan& plan, int n) {
  const uint64_t matrix = matrix_bytes(n), edges = expected_edges(plan.graph, n);
  const std::string reference =
      reference_kind(n, plan.cpu_reference_max_n, plan.reference, plan.baseline);
  const bool certificate = reference == kCertificate;
  // The work buffer in the widest layout a request solves in (sm90 pads its rows to its tile;
  // a request without a config is taken at its declared defaults, the widest of its tiles).
  // Beside it, the most scratch a request's solve allocates itself (sm90_u16: its 16-bit copy).
  uint64_t work = 0, scratch = 0;
  // a run on several GPUs: the input kept on the host, the output gathered there
  bool several = false;
  for (const Request& r : plan.requests) {
    const Config& c = r.config.value_or(r.variant->defaults);
    if (runs_on_one_gpu(plan, r, n)) {
      work = std::max<uint64_t>(work, buffer_elems(*r.variant, c, n) * sizeof(int32_t));
      scratch = std::max(scratch, scratch_bytes(*r.variant, c, n));
    }
    several = several ||
              (r.variant->multi_gpu && *std::max_element(plan.gpus.begin(), plan.gpus.end()) > 1);
  }
  WorkingSet w;
  if (work > 0)
    // the pristine copy too
    w.device = matrix + work + scratch + (certificate ? device_certificate_bytes(n, edges) : 0);
  w.host = matrix * (reference == "cpu-reference" ? 2 : 1) + edges * sizeof(Edge) +
           (certificate ? edges * 8 : 0) + (several ? 2 * matrix : 0);
  return w;
}

bool runs_at(const Plan& plan, const Request& r, int n) {
  return r.named || r.config || r.variant->name != plan.baseline || n <= plan.baseline_max_n;
}

std::vector<int> gpu_counts(const Plan& plan, const Request& r) {
  return r.variant->multi_gpu ? plan.gpus : std::vector<int>{1};
}

bool runs_on_one_gpu(const Plan& plan, const Request& r, int n) {
  const std::vector<int> counts = gpu_counts(plan, r);
  return runs_at(plan, r, n) && std::find(counts.begin(), counts.end(), 1) != counts.end();
}

uint64_t multi_gpu_bytes(const Plan& plan, int n, int gpus) {
  uint64_t most = 0;
  for (const Request& r : plan.requests) {
    if (!r.variant->multi_gpu) continue;
    const Partition part =
        partition_rows(n, r.variant->multi_gpu->tile(r.config.value_or(r.variant->defaults)), gpus);
    uint64_t bytes = part.max_bytes_per_rank();
    if (transport_shares_device(plan.transport)) {
      bytes = 0;
      for (int rank = 0; rank < gpus; ++rank) bytes += part.bytes_per_rank(rank);
    }
    most = std::max(most, bytes);
  }
  return most;
}

std::string memory_problem(const Plan& plan, uint64_t device_free, uint64_t host_free) {
  for (int n : plan.sizes) {
    // Each GPU count runs alone (run_plan frees a count's executors before the next), so each is
    // checked alone.
    for (int gpus : plan.gpus) {
      const uint64_t need = gpus > 1 ? multi_gpu_bytes(plan, n, gpus) : 0;
      if (need > device_free)
        return fmt::format("n = {} on {} GPUs needs {} of device memory {}, {} are free", n, gpus,
                           human_bytes(need),
                           transport_shares_device(plan.transport)
                               ? "on the one GPU that holds every rank"
                               : "per GPU",
                           human_bytes(device_free));
    }
    const WorkingSet w = working_set(plan, n);
    if (w.device > device_free)
      return fmt::format("n = {} needs {} of device memory, {} are free", n, human_bytes(w.device),
                         human_bytes(device_free));
    if (w.host > host_free)
      return fmt::format("n = {} needs {} of host memory, {} are available", n, human_bytes(w.host),
                         human_bytes(host_free));
  }
  return "";
}

std::shared_ptr<const EdgeList> make_graph(const GraphInput& graph, int n) {
  if (graph.edges) return graph.edges;
  GraphSpec spec = graph.spec;
  spec.num_vertices = n;
  return std::make_shared<const EdgeList>(generate(spec));
}

GraphDesc describe(const GraphInput& graph) {
  GraphDesc g;
  if (graph.edges) {
    g.kind = "file";
    g.file = graph.file;
    return g;
  }
  g.kind = std::string(to_string(graph.spec.kind));
  g.seed = graph.spec.seed;
  g.density = graph.spec.density;
  g.wmax = graph.spec.wmax;
  return g;
}

GraphKey tuning_key(const GraphInput& graph) {
  const GraphDesc g = describe(graph);
  return GraphKey{g.kind, g.density, g.wmax, g.file};
}

}  // namespace apsp::harness
