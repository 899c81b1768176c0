// core/graph_batch.hpp: molecule_batch, molecule-like graphs for the batched solve.
#include <algorithm>
#include <cmath>
#include <queue>
#include <random>

#include "core/graph_batch.hpp"

namespace apsp {

namespace {

constexpr int kMaxDegree = 4;        // <- carbon's valence: no atom has more than four bonds
constexpr int kVerticesPerRing = 8;  // <- about one ring closure in eight atoms
constexpr int kRingBondsMin = 4;     // <- a closure between atoms 4 to 6 bonds apart makes a
constexpr int kRingBondsMax = 6;     //    ring of 5 to 7 atoms

struct Molecule {
  std::vector<std::vector<int>> bonds;
  void bond(int a, int b) {
    bonds[a].push_back(b);
    bonds[b].push_back(a);
  }
  bool saturated(int v) const { return static_cast<int>(bonds[v].size()) >= kMaxDegree; }
};

// Bonds from v, by breadth-first search (the graph is tiny).
std::vector<int> bond_distances(const Molecule& m, int v) {
  std::vector<int> dist(m.bonds.size(), -1);
  std::queue<int> q;
  dist[v] = 0;
  q.push(v);
  while (!q.empty()) {
    const int u = q.front();
    q.pop();
    for (int w : m.bonds[u])
      if (dist[w] < 0) dist[w] = dist[u] + 1, q.push(w);
  }
  return dist;
}

// A random tree of degree at most 4: each atom bonds to an earlier one that has room (atom 0
// always does while the tree is small; a chain is the fallback).
void grow_tree(Molecule& m, std::mt19937_64& rng) {
  const int n = static_cast<int>(m.bonds.size());
  for (int v = 1; v < n; ++v) {
    int parent = std::uniform_int_distribution<int>(0, v - 1)(rng);
    for (int tries = 0; m.saturated(parent) && tries < 8; ++tries)
      parent = std::uniform_int_distribution<int>(0, v - 1)(rng);
    if (m.saturated(parent)) parent = v - 1;  // the last atom has one bond: always room
    m.bond(parent, v);
  }
}

void close_rings(Molecule& m, std::mt19937_64& rng) {
  const int n = static_cast<int>(m.bonds.size());
  std::uniform_int_distribution<int> atom(0, n - 1);
  for (int ring = 0; ring < n / kVerticesPerRing; ++ring) {
    const int a = atom(rng);
    if (m.saturated(a)) continue;
    const std::vector<int> dist = bond_distances(m, a);
    std::vector<int> partners;
    for (int b = 0; b < n; ++b)
      if (dist[b] >= kRingBondsMin && dist[b] <= kRingBondsMax && !m.saturated(b))
        partners.push_back(b);
    if (partners.empty()) continue;
    m.bond(a, partners[std::uniform_int_distribution<size_t>(0, partners.size() - 1)(rng)]);
  }
}

EdgeList molecule_edges(int n, std::mt19937_64& rng) {
  Molecule m;
  m.bonds.resize(n);
  grow_tree(m, rng);
  close_rings(m, rng);
  EdgeList g;
  g.num_vertices = n;
  for (int v = 0; v < n; ++v)
    for (int w : m.bonds[v]) g.edges.push_back({v, w, 1});
  return g;
}

}  // namespace

GraphBatch molecule_batch(int64_t count, double mean, double sd, int min_n, int max_n,
                          uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> size(mean, sd);
  GraphBatch batch;
  batch.weighted = false;
  batch.vertex_ptr.reserve(count + 1);
  batch.edge_ptr.reserve(count + 1);
  for (int64_t g = 0; g < count; ++g) {
    const int n = std::clamp(static_cast<int>(std::lround(size(rng))), min_n, max_n);
    batch.add(molecule_edges(n, rng));
  }
  return batch;
}

}  // namespace apsp
