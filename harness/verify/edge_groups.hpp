// A graph's edges grouped by one endpoint (compressed sparse rows): the layout the certificate
// reads (edges by destination) and the next hops read (edges by source).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/dist_matrix.hpp"

namespace apsp::harness {

struct EdgeGroups {
  std::vector<int64_t> start;          // n + 1: the edges at v are [start[v], start[v + 1])
  std::vector<int32_t> other, weight;  // the other endpoint and the weight, in input order
  size_t bytes() const { return start.size() * 8 + other.size() * 8; }
};

enum class GroupBy { kSource, kDestination };

// The edges `keep` accepts (all when it is empty), grouped by source or by destination.
EdgeGroups group_edges(const EdgeList& graph, GroupBy by,
                       const std::function<bool(const Edge&)>& keep = {});

}  // namespace apsp::harness
