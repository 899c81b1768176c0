#include "harness/batch/batch_solve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace apsp::harness {

namespace {

BatchFacts check_on_host(const GraphBatchView& b, int64_t edges) {
  BatchFacts facts;
  const std::string fault = check_batch(b, &facts);
  if (!fault.empty()) throw std::invalid_argument(fault);
  if (facts.edges != edges) {
    throw std::invalid_argument(
        fmt::format("edge_ptr[{}] is {}, but there are {} edges", b.graphs, facts.edges, edges));
  }
  return facts;
}

void derive_edge_ptr(const BatchRequest& r, BatchPlan& p) {
  if (r.edges > 0 && !r.graphs.src) throw std::invalid_argument("a batch with edges needs them");
  if (r.on_device) {
    p.device_edge_ptr = edge_ptr_from_sources_on_device(r.graphs, r.edges, r.stream);
    p.graphs.edge_ptr = p.device_edge_ptr.get();
  } else {
    p.host_edge_ptr = edge_ptr_from_sources(r.graphs, r.edges);
    p.graphs.edge_ptr = p.host_edge_ptr.data();
  }
}

const BatchVariant& variant_for(const BatchRequest& r) {
  const std::string name =
      r.variant == "auto" ? (r.on_device ? "batch_shared" : "batch_cpu") : r.variant;
  const BatchVariant* v = find_batch_variant(name);
  if (!v) throw std::invalid_argument(fmt::format("no batched variant '{}'", name));
  if ((v->target == Target::kDevice) != r.on_device) {
    throw std::invalid_argument(fmt::format("{} solves a batch {}; this one is in {} memory",
                                            v->name, r.on_device ? "on the host" : "on the GPU",
                                            r.on_device ? "device" : "host"));
  }
  return *v;
}

Config config_for(const BatchVariant& v, const Config& asked) {
  if (asked.empty()) return v.defaults;
  Config c = v.defaults;
  for (const auto& [name, value] : asked) {
    const auto p = std::find_if(v.space.begin(), v.space.end(),
                                [&](const Param& p) { return p.name == name; });
    if (p == v.space.end() ||
        std::find(p->values.begin(), p->values.end(), value) == p->values.end()) {
      throw std::invalid_argument(fmt::format("{} has no {}={}", v.name, name, value));
    }
    c[name] = value;
  }
  const auto built = all_batch_configs(v);
  if (std::find(built.begin(), built.end(), c) == built.end()) {
    throw std::invalid_argument(fmt::format("{} is not compiled", config_name(v.name, c)));
  }
  return c;
}

// The output's type, values and layout, checked against the batch.
void plan_output(const BatchRequest& r, BatchPlan& p) {
  BatchOutputView& out = p.out;
  out.type = narrowest_exact_type(longest_possible_distance(p.facts), r.unreachable);
  out.unreachable = r.unreachable.value_or(default_unreachable(out.type));
  out.pad_value = r.pad_value.value_or(out.unreachable);
  if (r.padded_n) {
    if (*r.padded_n < 0) throw std::invalid_argument("padded_n must be 0 or more");
    out.padded_n = *r.padded_n == 0 ? p.facts.max_n : *r.padded_n;
    p.elements = r.graphs.graphs * int64_t{out.padded_n} * out.padded_n;
  }
  const std::string fault = check_batch_output(out, p.facts);
  if (!fault.empty()) throw std::invalid_argument(fault);
}

void check_paths_request(const BatchRequest& r) {
  if (r.max_dist < 0 || r.max_dist >= kMaxBatchGraphVertices) {
    throw std::invalid_argument(fmt::format(
        "max_dist must lie in 1..{} (no shortest path of a batch has more edges), or be 0 for "
        "no edge paths; not {}",
        kMaxBatchGraphVertices - 1, r.max_dist));
  }
  if (r.max_dist > 0 && r.edges > INT32_MAX) {
    throw std::invalid_argument(fmt::format(
        "edge paths name edges by int32 ids; this batch has {} edges, more than 2^31 - 1",
        r.edges));
  }
}

}  // namespace

BatchPlan plan_batch(const BatchRequest& r) {
  if (r.graphs.graphs < 0 || r.edges < 0) {
    throw std::invalid_argument(
        fmt::format("a batch of {} graphs and {} edges", r.graphs.graphs, r.edges));
  }
  check_paths_request(r);
  if (!r.graphs.vertex_ptr) throw std::invalid_argument("a batch needs its vertex pointers");
  BatchPlan p;
  p.variant = &variant_for(r);
  p.config = config_for(*p.variant, r.config);
  p.graphs = r.graphs;
  if (!r.graphs.edge_ptr) derive_edge_ptr(r, p);
  try {
    p.facts = r.on_device ? check_batch_on_device(p.graphs, r.edges, r.stream)
                          : check_on_host(p.graphs, r.edges);
  } catch (const std::invalid_argument& e) {
    const std::string line = e.what();
    if (r.graphs.edge_ptr || line.find("leaves graph") == std::string::npos) throw;
    throw std::invalid_argument(line +
                                " (without edge_ptr, the edges must be grouped by graph, "
                                "as a PyG Batch keeps them)");
  }
  plan_output(r, p);
  if (r.padded_n) return p;
  if (r.on_device) {
    p.device_offsets = ragged_offsets_on_device(p.graphs, r.stream);
    APSP_CUDA_CHECK(cudaMemcpyAsync(&p.elements, p.device_offsets.get() + r.graphs.graphs,
                                    sizeof(int64_t), cudaMemcpyDeviceToHost, r.stream));
    APSP_CUDA_CHECK(cudaStreamSynchronize(r.stream));
    p.out.offsets = p.device_offsets.get();
  } else {
    p.host_offsets = ragged_offsets(r.graphs.vertex_ptr, r.graphs.graphs);
    p.elements = p.host_offsets.back();
    p.out.offsets = p.host_offsets.data();
  }
  return p;
}

std::vector<int64_t> edge_ptr_from_sources(const GraphBatchView& b, int64_t edges) {
  std::vector<int64_t> ptr(b.graphs + 1, 0);
  for (int64_t e = 0; e < edges && b.graphs > 0; ++e) {
    const int64_t* after = std::upper_bound(b.vertex_ptr, b.vertex_ptr + b.graphs + 1, b.src[e]);
    ++ptr[std::clamp<int64_t>(after - b.vertex_ptr - 1, 0, b.graphs - 1) + 1];
  }
  for (int64_t g = 0; g < b.graphs; ++g) ptr[g + 1] += ptr[g];
  return ptr;
}

void run_batch(const BatchRequest& r, const BatchPlan& p, void* dist,
               const BatchPathOutput& paths) {
  if (paths.edges && r.max_dist <= 0) {
    throw std::invalid_argument("edge paths need max_dist of 1 or more");
  }
  BatchOutputView out = p.out;
  out.dist = dist;
  p.variant->run({p.graphs, out, p.facts.max_n}, p.config, r.stream, r.threads);
  if (!paths.pred && !paths.edges) return;
  if (r.on_device) {
    batch_paths_device(p.graphs, p.facts.vertices, out, p.elements, paths, r.max_dist, r.stream);
  } else {
    batch_paths_host(p.graphs, out, p.elements, paths, r.max_dist, r.threads);
  }
}

}  // namespace apsp::harness
