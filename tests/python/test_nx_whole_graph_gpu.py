"""test_nx_whole_graph.py's tests on the GPU (device="cuda"), where the reductions are made on
the device, and larger graphs than NetworkX would answer in a test: the GPU's answers against
the CPU's (the CPU's are NetworkX's in test_nx_whole_graph.py)."""

import random

import networkx as nx
import pytest
import test_nx_whole_graph as on_cpu
from apsp_lab import nx_backend as nb
from test_nx_whole_graph import *  # noqa: F401,F403 (the same tests, on the GPU below)
from test_nx_whole_graph import same


@pytest.fixture(autouse=True)
def on_the_gpu(monkeypatch):
    monkeypatch.setattr(on_cpu, "DEVICE", "cuda")


def road_like(n, seed):
    """A grid of about n vertices with random weights and a few long edges."""
    rng = random.Random(seed)
    side = int(n**0.5)
    G = nx.grid_2d_graph(side, side)
    G = nx.convert_node_labels_to_integers(G, ordering="sorted")
    for u, v in G.edges:
        G[u][v]["weight"] = rng.randint(1, 1000)
    for _ in range(side):
        G.add_edge(rng.randrange(len(G)), rng.randrange(len(G)), weight=rng.randint(1, 5000))
    return G


@pytest.mark.parametrize("n", [1500, 3000])
def test_the_gpu_answers_as_the_cpu(n):
    G = road_like(n, seed=n)
    D = G.to_directed()
    D.remove_edges_from(list(D.edges)[::7])  # one-way streets
    for graph in [G, D]:
        for name, kwargs in [
            ("closeness_centrality", {"distance": "weight"}),
            ("eccentricity", {"weight": "weight"}),
            ("average_shortest_path_length", {"weight": "weight"}),
            ("wiener_index", {}),
            ("center", {"weight": "weight"}),
        ]:
            f = getattr(nb, name)
            got = on_cpu.outcome(f, graph, device="cuda", **kwargs)
            want = on_cpu.outcome(f, graph, device="cpu", **kwargs)
            assert same(got, want), name
