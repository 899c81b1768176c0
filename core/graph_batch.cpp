#include "core/graph_batch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/dist_matrix.hpp"
#include "core/parallel.hpp"

namespace apsp {

void GraphBatch::add(const EdgeList& g) {
  const int64_t first = vertex_ptr.back();
  for (const Edge& e : g.edges) {
    src.push_back(first + e.src);
    dst.push_back(first + e.dst);
    weight.push_back(e.w);
  }
  vertex_ptr.push_back(first + g.num_vertices);
  edge_ptr.push_back(static_cast<int64_t>(src.size()));
}

GraphBatchView GraphBatch::view() const {
  return {graphs(),   vertex_ptr.data(), edge_ptr.data(),
          src.data(), dst.data(),        weighted ? weight.data() : nullptr};
}

EdgeList GraphBatch::graph(int64_t g) const {
  EdgeList out;
  out.num_vertices = static_cast<int32_t>(vertex_ptr[g + 1] - vertex_ptr[g]);
  for (int64_t e = edge_ptr[g]; e < edge_ptr[g + 1]; ++e) {
    out.edges.push_back({static_cast<int32_t>(src[e] - vertex_ptr[g]),
                         static_cast<int32_t>(dst[e] - vertex_ptr[g]), weighted ? weight[e] : 1});
  }
  return out;
}

std::string batch_start_fault(int64_t vertex_ptr0, int64_t edge_ptr0) {
  if (vertex_ptr0 != 0) return fmt::format("vertex_ptr[0] is {}, not 0", vertex_ptr0);
  if (edge_ptr0 != 0) return fmt::format("edge_ptr[0] is {}, not 0", edge_ptr0);
  return "";
}

std::string graph_fault(int64_t g, const int64_t vertices[2], const int64_t edges[2]) {
  if (vertices[1] < vertices[0]) {
    return fmt::format("vertex_ptr decreases at graph {}: {} after {}", g, vertices[1],
                       vertices[0]);
  }
  if (edges[1] < edges[0]) {
    return fmt::format("edge_ptr decreases at graph {}: {} after {}", g, edges[1], edges[0]);
  }
  if (vertices[1] - vertices[0] > kMaxBatchGraphVertices) {
    return fmt::format("graph {} has {} vertices; a batch takes graphs of up to {}", g,
                       vertices[1] - vertices[0], kMaxBatchGraphVertices);
  }
  return "";
}

std::string edge_fault(int64_t e, int64_t g, const int64_t vertices[2], int64_t src, int64_t dst,
                       int64_t weight) {
  for (const int64_t v : {src, dst}) {
    if (v < vertices[0] || v >= vertices[1]) {
      return fmt::format("edge {} ({} -> {}) leaves graph {}, whose vertices are {}..{}", e, src,
                         dst, g, vertices[0], vertices[1] - 1);
    }
  }
  if (weight < 0 || weight >= kInf) {
    return fmt::format("edge {} weighs {}; weights must lie in 0..{}", e, weight, kInf - 1);
  }
  return "";
}

std::string check_batch(const GraphBatchView& b, BatchFacts* facts) {
  if (b.graphs < 0) return fmt::format("a batch of {} graphs", b.graphs);
  if (!b.vertex_ptr || !b.edge_ptr) return "a batch needs its vertex and edge pointers";
  std::string fault = batch_start_fault(b.vertex_ptr[0], b.edge_ptr[0]);
  for (int64_t g = 0; g < b.graphs && fault.empty(); ++g) {
    fault = graph_fault(g, &b.vertex_ptr[g], &b.edge_ptr[g]);
  }
  if (!fault.empty()) return fault;
  BatchFacts f;
  f.vertices = b.vertex_ptr[b.graphs];
  f.edges = b.edge_ptr[b.graphs];
  if (f.edges > 0 && (!b.src || !b.dst)) return "a batch with edges needs their ends";
  for (int64_t g = 0; g < b.graphs; ++g) {
    f.max_n = std::max(f.max_n, static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]));
    for (int64_t e = b.edge_ptr[g]; e < b.edge_ptr[g + 1]; ++e) {
      fault = edge_fault(e, g, &b.vertex_ptr[g], b.src[e], b.dst[e], b.weight ? b.weight[e] : 1);
      if (!fault.empty()) return fault;
    }
  }
  if (f.edges > 0) f.max_weight = b.weight ? *std::max_element(b.weight, b.weight + f.edges) : 1;
  if (facts) *facts = f;
  return "";
}

const char* name_of(BatchDistType type) {
  constexpr std::array<const char*, 3> kNames{"uint8", "int16", "int32"};
  return kNames[static_cast<int>(type)];
}

int bytes_of(BatchDistType type) { return 1 << static_cast<int>(type); }

int64_t min_of(BatchDistType type) {
  constexpr std::array<int64_t, 3> kMin{0, -32768, INT32_MIN};
  return kMin[static_cast<int>(type)];
}

int64_t max_of(BatchDistType type) {
  constexpr std::array<int64_t, 3> kMax{255, 32767, INT32_MAX};
  return kMax[static_cast<int>(type)];
}

int64_t default_unreachable(BatchDistType type) {
  return type == BatchDistType::kI32 ? kInf : max_of(type);
}

int64_t longest_possible_distance(const BatchFacts& facts) {
  return facts.max_n > 0 ? (facts.max_n - 1) * facts.max_weight : 0;
}

BatchDistType narrowest_exact_type(int64_t longest, std::optional<int64_t> unreachable) {
  if (unreachable && *unreachable >= 0 && *unreachable <= longest) {
    throw std::invalid_argument(
        fmt::format("the unreachable value {} could be a distance (they reach up to {} here)",
                    *unreachable, longest));
  }
  for (const BatchDistType t : {BatchDistType::kU8, BatchDistType::kI16, BatchDistType::kI32}) {
    const bool holds_distances = longest < default_unreachable(t);
    const bool holds_unreachable =
        !unreachable || (*unreachable >= min_of(t) && *unreachable <= max_of(t));
    if (holds_distances && holds_unreachable) return t;
  }
  throw std::invalid_argument(fmt::format(
      "distances of up to {} (the largest graph's vertices less one, times the largest weight) "
      "{}; the batched solve holds distances below {}",
      longest, unreachable ? fmt::format("with the unreachable value {}", *unreachable) : "",
      kInf));
}

std::string check_batch_output(const BatchOutputView& out, const BatchFacts& facts) {
  const int64_t longest = longest_possible_distance(facts);
  const auto inside = [&](int64_t v) { return v >= min_of(out.type) && v <= max_of(out.type); };
  if (out.padded_n > 0 && out.padded_n < facts.max_n) {
    return fmt::format("padded output of {} x {} cannot hold a graph of {} vertices", out.padded_n,
                       out.padded_n, facts.max_n);
  }
  if (longest >= default_unreachable(out.type)) {
    return fmt::format("{} cannot hold distances of up to {}", name_of(out.type), longest);
  }
  if (!inside(out.unreachable) || (out.padded_n > 0 && !inside(out.pad_value))) {
    return fmt::format("{} cannot hold the unreachable value {} or the pad value {}",
                       name_of(out.type), out.unreachable, out.pad_value);
  }
  if (out.unreachable >= 0 && out.unreachable <= longest) {
    return fmt::format("the unreachable value {} could be a distance (they reach up to {} here)",
                       out.unreachable, longest);
  }
  return "";
}

std::vector<int64_t> ragged_offsets(const int64_t* vertex_ptr, int64_t graphs) {
  std::vector<int64_t> offsets(graphs + 1, 0);
  for (int64_t g = 0; g < graphs; ++g) {
    const int64_t n = vertex_ptr[g + 1] - vertex_ptr[g];
    offsets[g + 1] = offsets[g] + n * n;
  }
  return offsets;
}

namespace {

// One graph's distances in int32 (kInf: no path) by the plain loop.
void solve_graph(const GraphBatchView& b, int64_t g, std::vector<int32_t>& d) {
  const int64_t first = b.vertex_ptr[g];
  const int n = static_cast<int>(b.vertex_ptr[g + 1] - first);
  d.assign(static_cast<size_t>(n) * n, kInf);
  for (int i = 0; i < n; ++i) d[static_cast<size_t>(i) * n + i] = 0;
  for (int64_t e = b.edge_ptr[g]; e < b.edge_ptr[g + 1]; ++e) {
    int32_t& entry = d[(b.src[e] - first) * n + (b.dst[e] - first)];
    entry = std::min(entry, b.weight ? b.weight[e] : 1);
  }
  for (int k = 0; k < n; ++k) {
    const int32_t* row_k = &d[static_cast<size_t>(k) * n];
    for (int i = 0; i < n; ++i) {
      int32_t* row_i = &d[static_cast<size_t>(i) * n];
      const int32_t dik = row_i[k];
      if (dik == kInf) continue;
      for (int j = 0; j < n; ++j) row_i[j] = std::min(row_i[j], dik + row_k[j]);
    }
  }
}

template <class T>
void store_graph(const BatchOutputView& out, int64_t g, int n, const std::vector<int32_t>& d) {
  const int pitch = out.padded_n > 0 ? out.padded_n : n;
  const int64_t base = out.padded_n > 0 ? g * int64_t{pitch} * pitch : out.offsets[g];
  T* block = static_cast<T*>(out.dist) + base;
  for (int i = 0; i < pitch; ++i) {
    for (int j = 0; j < pitch; ++j) {
      int64_t v = out.pad_value;
      if (i < n && j < n) {
        const int32_t dij = d[static_cast<size_t>(i) * n + j];
        v = dij >= kInf ? out.unreachable : dij;
      }
      block[static_cast<int64_t>(i) * pitch + j] = static_cast<T>(v);
    }
  }
}

}  // namespace

void solve_batch_host(const GraphBatchView& b, const BatchOutputView& out, int threads) {
  if (b.graphs == 0) return;
  const int chunks = static_cast<int>(std::min<int64_t>(b.graphs, 4096));
  parallel_for(chunks, threads, [&](int c) {
    std::vector<int32_t> d;
    for (int64_t g = b.graphs * c / chunks; g < b.graphs * (c + 1) / chunks; ++g) {
      solve_graph(b, g, d);
      const int n = static_cast<int>(b.vertex_ptr[g + 1] - b.vertex_ptr[g]);
      switch (out.type) {
        case BatchDistType::kU8:
          store_graph<uint8_t>(out, g, n, d);
          break;
        case BatchDistType::kI16:
          store_graph<int16_t>(out, g, n, d);
          break;
        case BatchDistType::kI32:
          store_graph<int32_t>(out, g, n, d);
          break;
      }
    }
  });
}

}  // namespace apsp
