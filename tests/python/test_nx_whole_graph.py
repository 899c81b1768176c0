"""The NetworkX backend's whole-graph functions (closeness and harmonic centrality,
eccentricity, diameter, radius, center, periphery, average shortest path length, Wiener
index) and the types and order of the all-pairs functions, against NetworkX itself.

Every comparison is exact: the same values with the same Python types (int, float,
np.int64, np.float64), dicts with their keys in the same order, lists in the same order, and
the same exceptions with the same messages. Graphs are seeded: directed and undirected,
multigraphs, disconnected ones, string labels, a single node and none. The CPU path runs
here (device="cpu"); test_nx_whole_graph_gpu.py runs the same on a GPU.
"""

import random

import networkx as nx
import numpy as np
import pytest
from apsp_lab import nx_backend as nb

pytestmark = pytest.mark.filterwarnings(
    "ignore:Note. conversions to backend graphs are saved to cache:UserWarning"
)

DEVICE = "cpu"
KINDS = [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph]


def same(a, b):
    """a and b equal, with the same types all the way down and dicts in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and a != a:
        return b != b
    return a == b


def outcome(f, *args, **kwargs):
    """f's result, or its exception as (type, message)."""
    try:
        return ("ok", f(*args, **kwargs))
    except Exception as exc:  # the comparison is the point
        return ("raised", type(exc), str(exc))


def assert_same_as_networkx(name, G, **kwargs):
    want = outcome(getattr(nx, name), G, backend="networkx", **kwargs)
    got = outcome(getattr(nb, name), G, device=DEVICE, **kwargs)
    assert same(got, want), f"{name}({kwargs}): {got!r} != NetworkX's {want!r}"
    return want


def make_graph(kind, *, n=16, p=0.25, seed=0, labels="int", weights="int", connect=True):
    """A seeded random graph, nodes added in shuffled order; connected through a path when
    `connect` (a directed one both ways)."""
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    label = (lambda i: f"v{i}") if labels == "str" else (lambda i: i)
    G = kind()
    G.add_nodes_from(label(i) for i in order)

    def weight():
        x = rng.randint(0, 9) if weights != "positive" else rng.randint(1, 9)
        if weights == "float":
            return float(x)
        if weights == "int64":
            return np.int64(x)
        return x

    pairs = [(i, j) for i in range(n) for j in range(n) if rng.random() < p]
    if connect:
        pairs += [(i, i + 1) for i in range(n - 1)] + [(i + 1, i) for i in range(n - 1)]
    for i, j in pairs:
        if weights is None:
            G.add_edge(label(i), label(j))
        else:
            G.add_edge(label(i), label(j), weight=weight())
    return G


WHOLE = [
    ("closeness_centrality", "distance"),
    ("harmonic_centrality", "distance"),
    ("eccentricity", "weight"),
    ("diameter", "weight"),
    ("radius", "weight"),
    ("center", "weight"),
    ("periphery", "weight"),
    ("average_shortest_path_length", "weight"),
    ("wiener_index", "weight"),
]


@pytest.mark.parametrize("name,weight_name", WHOLE)
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
@pytest.mark.parametrize("weights", [None, "int", "float", "int64"])
@pytest.mark.parametrize("connect", [True, False], ids=["connected", "disconnected"])
def test_whole_graph_matches_networkx(name, weight_name, kind, weights, connect):
    for seed in range(3):
        G = make_graph(kind, seed=seed, weights=weights, connect=connect, p=0.15)
        attr = None if weights is None else "weight"
        assert_same_as_networkx(name, G, **{weight_name: attr})
        assert_same_as_networkx(name, G)


@pytest.mark.parametrize("name,weight_name", WHOLE)
@pytest.mark.parametrize("n", [0, 1, 2])
@pytest.mark.parametrize("kind", [nx.Graph, nx.DiGraph], ids=lambda k: k.__name__)
def test_tiny_graphs(name, weight_name, n, kind):
    G = kind()
    G.add_nodes_from(range(n))
    assert_same_as_networkx(name, G)
    if n == 2:
        G.add_edge(0, 1, weight=3)
        assert_same_as_networkx(name, G)
        assert_same_as_networkx(name, G, **{weight_name: "weight"})


@pytest.mark.parametrize("kind", [nx.Graph, nx.DiGraph], ids=lambda k: k.__name__)
def test_string_labels_and_arguments(kind):
    G = make_graph(kind, seed=4, labels="str", weights="positive")
    assert_same_as_networkx("closeness_centrality", G, u="v3")
    assert_same_as_networkx("closeness_centrality", G, distance="weight", wf_improved=False)
    assert_same_as_networkx("eccentricity", G, v="v5", weight="weight")
    assert_same_as_networkx("eccentricity", G, v=["v5", "v1", "nope", "v5"])
    assert_same_as_networkx("eccentricity", G, v=17)  # not a node, not a sequence
    assert_same_as_networkx("harmonic_centrality", G, nbunch=["v1", "v2"], sources=["v3"])
    for method in ["unweighted", "dijkstra", "bellman-ford", "floyd-warshall", "nope"]:
        assert_same_as_networkx("average_shortest_path_length", G, weight="weight", method=method)
    for name in ["diameter", "radius", "center", "periphery"]:
        assert_same_as_networkx(name, G, usebounds=True)


def test_zero_weight_edges_and_a_tree():
    G = nx.Graph([(0, 1, {"weight": 0}), (1, 2, {"weight": 0}), (2, 3, {"weight": 4})])
    for name, weight_name in WHOLE:
        assert_same_as_networkx(name, G, **{weight_name: "weight"})
        assert_same_as_networkx(name, G)
    G = nx.DiGraph([(0, 1, {"weight": 0}), (1, 0, {"weight": 0})])
    for name, weight_name in WHOLE:
        assert_same_as_networkx(name, G, **{weight_name: "weight"})


def test_can_run_declines_what_it_cannot_answer_exactly():
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 1.5, "weight")
    can_run = nb.BackendInterface.can_run
    assert can_run("closeness_centrality", (G,), {"distance": "weight"}) is not True
    assert can_run("eccentricity", (G,), {"sp": {}}) is not True
    assert can_run("diameter", (G,), {"e": {0: 1}}) is not True
    assert can_run("diameter", (G,), {"usebounds": True, "weight": "weight"}) is not True
    assert can_run("closeness_centrality", (G,), {"u": 99}) is not True
    assert can_run("harmonic_centrality", (G,), {"nbunch": [0]}) is not True
    H = nx.path_graph(4)
    H.add_edge(0, 1, weight=2.0)  # float beside missing (int 1): mixed types
    assert "mixed types" in can_run("eccentricity", (H,), {"weight": "weight"})
    assert can_run("eccentricity", (nx.path_graph(4),), {"weight": "weight"}) is True


def test_dispatch_reaches_the_backend():
    G = make_graph(nx.DiGraph, seed=7, weights="positive")
    want = nx.closeness_centrality(G, distance="weight", backend="networkx")
    assert same(nx.closeness_centrality(G, distance="weight", backend="apsp_lab"), want)


# ------------------------------------------------------------------------------------------
# The all-pairs functions: NetworkX's number types and order
# ------------------------------------------------------------------------------------------


def all_pairs(name, G, backend, **kwargs):
    f = getattr(nx, name)
    if backend == "apsp_lab":
        f = getattr(nb, name)
        kwargs["device"] = DEVICE
    out = f(G, **kwargs) if name != "floyd_warshall" else f(G, **kwargs)
    if name == "floyd_warshall":
        return {u: dict(d) for u, d in out.items()}
    return dict(out)


@pytest.mark.parametrize("kind", [nx.Graph, nx.MultiDiGraph], ids=lambda k: k.__name__)
def test_floyd_warshall_int_beside_unweighted(kind):
    G = kind()
    G.add_edge("a", "b")  # NetworkX's floyd_warshall: 1.0
    G.add_edge("b", "c", weight=5)  # 5, an int
    assert same(all_pairs("floyd_warshall", G, "apsp_lab"), all_pairs("floyd_warshall", G, "nx"))


@pytest.mark.parametrize(
    "name",
    [
        "floyd_warshall",
        "all_pairs_dijkstra_path_length",
        "all_pairs_bellman_ford_path_length",
    ],
)
@pytest.mark.parametrize("value", [np.int64(3), np.int32(2), True, 4.0], ids=repr)
def test_weight_types_come_back_as_networkx_gives_them(name, value):
    G = nx.DiGraph()
    G.add_edges_from([(0, 1), (1, 2), (2, 0), (0, 3)], weight=value)
    assert same(all_pairs(name, G, "apsp_lab"), all_pairs(name, G, "nx"))


@pytest.mark.parametrize(
    "name",
    [
        "all_pairs_dijkstra_path_length",
        "all_pairs_bellman_ford_path_length",
        "all_pairs_shortest_path_length",
    ],
)
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
def test_all_pairs_dicts_in_networkx_order(name, kind):
    for seed in range(4):
        G = make_graph(kind, seed=seed, weights="positive", p=0.2)
        kwargs = {} if name == "all_pairs_shortest_path_length" else {"weight": "weight"}
        got = all_pairs(name, G, "apsp_lab", **kwargs)
        want = all_pairs(name, G, "nx", **kwargs)
        assert same(got, want), name


def _adjacency(ptr, nbr):
    return np.asarray(ptr, dtype=np.int64), np.asarray(nbr, dtype=np.int32)


@pytest.mark.parametrize(
    "ptr, nbr",
    [
        ([0, 2, 1, 3], [1, 2, 0]),  # ptr decreasing
        ([1, 2, 3, 3], [1, 2, 0]),  # ptr[0] past 0
        ([0, 1, 2, 3], [1, 3, 0]),  # a neighbour == n
        ([0, 1, 2, 3], [1, -1, 0]),  # a negative neighbour
        ([0, 1, 2, 2], [1, 2, 0]),  # ptr[n] short of the neighbours
        ([0], []),  # no vertex
    ],
    ids=["decreasing", "ptr0", "past_n", "negative", "ptr_n", "empty"],
)
@pytest.mark.parametrize("method", ["dijkstra", "bfs", "bellman_ford"])
def test_settle_orders_refuses_a_malformed_adjacency(method, ptr, nbr):
    from apsp_lab import _core

    ptr, nbr = _adjacency(ptr, nbr)
    weight = np.ones(len(nbr))
    with pytest.raises(ValueError):
        _core.settle_orders(method, ptr, nbr, weight, 0, len(ptr) - 1, float("inf"), 2)


def test_settle_orders_refuses_sources_outside_the_graph():
    from apsp_lab import _core

    ptr, nbr = _adjacency([0, 1, 2, 3], [1, 2, 0])
    weight = np.ones(3)
    for first, count in [(-1, 1), (0, 4), (3, 1), (1, -1), (2**31 - 1, 2)]:
        with pytest.raises(ValueError):
            _core.settle_orders("dijkstra", ptr, nbr, weight, first, count, float("inf"), 1)
    orders, lengths = _core.settle_orders("bfs", ptr, nbr, None, 0, 3, float("inf"), 1)
    assert orders.tolist() == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert lengths.tolist() == [3, 3, 3]
