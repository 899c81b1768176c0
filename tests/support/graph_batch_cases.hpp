// Batches of small graphs for the batched solve's tests (CPU and GPU alike): the mixed batches
// every variant is checked on, every size from 0 up, the special graphs and the largest n.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/dist_matrix.hpp"
#include "core/graph_batch.hpp"

namespace apsp::test {

// A random graph of n vertices: about 2n edges with weights in [0, max_w] (zero weights, self
// loops and duplicate edges among them when n allows), some vertices left isolated.
inline EdgeList random_small_graph(int n, int max_w, std::mt19937& rng) {
  EdgeList g;
  g.num_vertices = n;
  if (n == 0) return g;
  std::uniform_int_distribution<int> vertex(0, n - 1), weight(0, max_w);
  const int edges = 2 * n;
  for (int e = 0; e < edges; ++e) {
    const int s = vertex(rng), t = vertex(rng);
    if (s % 7 == 3 || t % 7 == 3) continue;  // isolated vertices: unreachable pairs
    g.edges.push_back({s, t, weight(rng)});
    if (e % 5 == 0) g.edges.push_back({s, t, weight(rng)});  // a duplicate; the smaller counts
  }
  return g;
}

// A batch with every size 0..64, a few larger ones up to max_n, the chain of max_n vertices (its
// longest distance (max_n - 1) * max_w), in shuffled order.
inline GraphBatch mixed_batch(int max_n, int max_w, bool weighted, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<EdgeList> graphs;
  for (int n = 0; n <= 64; ++n) graphs.push_back(random_small_graph(n, max_w, rng));
  for (int n : {100, 129, 224, 225, 300}) {
    if (n <= max_n) graphs.push_back(random_small_graph(n, max_w, rng));
  }
  EdgeList chain;
  chain.num_vertices = max_n;
  for (int v = 0; v + 1 < max_n; ++v) chain.edges.push_back({v, v + 1, max_w});
  graphs.push_back(chain);
  std::shuffle(graphs.begin(), graphs.end(), rng);
  GraphBatch b;
  b.weighted = weighted;
  for (const EdgeList& g : graphs) b.add(g);
  return b;
}

}  // namespace apsp::test
