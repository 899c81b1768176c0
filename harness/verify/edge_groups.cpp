#include "harness/verify/edge_groups.hpp"

namespace apsp::harness {

EdgeGroups group_edges(const EdgeList& graph, GroupBy by,
                       const std::function<bool(const Edge&)>& keep) {
  const auto key = [by](const Edge& e) { return by == GroupBy::kSource ? e.src : e.dst; };
  const auto kept = [&keep](const Edge& e) { return !keep || keep(e); };
  EdgeGroups g;
  g.start.assign(static_cast<size_t>(graph.num_vertices) + 1, 0);
  for (const Edge& e : graph.edges)
    if (kept(e)) ++g.start[static_cast<size_t>(key(e)) + 1];
  for (int v = 0; v < graph.num_vertices; ++v) g.start[v + 1] += g.start[v];
  g.other.resize(static_cast<size_t>(g.start.back()));
  g.weight.resize(g.other.size());
  std::vector<int64_t> next(g.start.begin(), g.start.end() - 1);
  for (const Edge& e : graph.edges) {
    if (!kept(e)) continue;
    const int64_t at = next[key(e)]++;
    g.other[at] = by == GroupBy::kSource ? e.dst : e.src;
    g.weight[at] = e.w;
  }
  return g;
}

}  // namespace apsp::harness
