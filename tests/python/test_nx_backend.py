"""Tests of the NetworkX backend apsp_lab.nx_backend against NetworkX's own results.

Every implemented function is compared with NetworkX (``backend="networkx"``) on seeded
random graphs: directed and undirected, multigraphs with parallel edges, self loops,
zero weights, unreachable pairs, missing weight attributes, int and float weights, and
node labels that are ints, strings and tuples. Integer weights must match exactly (types
included), float weights to 1e-12. Both ways of reaching the backend are covered: the
``backend="apsp_lab"`` keyword and automatic dispatch (``nx.config.backend_priority``,
and the NETWORKX_BACKEND_PRIORITY environment variable in a subprocess).

The dispatch tests need the package's entry points (an installed package, or an
``apsp_lab-*.dist-info`` beside it on sys.path).
"""

import os
import pickle
import random
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction

import apsp_lab
import networkx as nx
import numpy as np
import pytest
from apsp_lab import nx_backend as nb
from apsp_lab.nx_backend import _graph as nb_graph

# NetworkX notes every reuse of a cached conversion; these tests reuse graphs on purpose.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Note. conversions to backend graphs are saved to cache:UserWarning"
)

FUNCS = [
    "floyd_warshall_numpy",
    "floyd_warshall",
    "all_pairs_dijkstra_path_length",
    "all_pairs_bellman_ford_path_length",
    "all_pairs_shortest_path_length",
]
WEIGHTED = FUNCS[:4]
# The whole-graph functions (tests/python/test_nx_whole_graph.py tests them).
WHOLE_GRAPH = [
    "eccentricity",
    "diameter",
    "radius",
    "center",
    "periphery",
    "closeness_centrality",
    "harmonic_centrality",
    "average_shortest_path_length",
    "wiener_index",
]
KINDS = [nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph]
INF = float("inf")


# --------------------------------------------------------------------------------------
# Graphs and comparisons
# --------------------------------------------------------------------------------------


def label_of(style):
    return {
        "int": lambda i: i,
        "str": lambda i: f"v{i}",
        "tuple": lambda i: (i % 3, f"t{i}"),
        "mixed": lambda i: i if i % 2 else f"s{i}",
    }[style]


def make_graph(
    kind=nx.DiGraph,
    *,
    n=22,
    p=0.14,
    weights="int",
    labels="int",
    seed=0,
    missing=0.0,
    self_loops=True,
    isolated=3,
    attr="weight",
):
    """A seeded random graph; nodes are added in a shuffled order (G.nodes is not sorted),
    the last `isolated` of them get no edges (unreachable pairs)."""
    rng = random.Random(seed)
    lab = label_of(labels)

    def weight():
        if weights == "int":
            return rng.randint(0, 9)  # zeros included
        if weights == "float":
            return 0.0 if rng.random() < 0.1 else rng.uniform(0.1, 10.0)
        if weights == "mixed":
            return rng.randint(0, 9) if rng.random() < 0.5 else rng.uniform(0.1, 10.0)
        raise ValueError(weights)

    def attrs():
        if weights == "none" or rng.random() < missing:
            return {}
        return {attr: weight()}

    G = kind()
    order = list(range(n))
    rng.shuffle(order)
    G.add_nodes_from(lab(i) for i in order)
    active = n - isolated
    for u in range(active):
        for v in range(active):
            if u != v and rng.random() < p:
                G.add_edge(lab(u), lab(v), **attrs())
                if G.is_multigraph() and rng.random() < 0.4:
                    G.add_edge(lab(u), lab(v), **attrs())  # a parallel edge
    if self_loops:
        for u in rng.sample(range(active), 3):
            a = attrs()
            if a and weights != "int":
                a[attr] = rng.uniform(0.5, 3.0)  # positive: NetworkX's diagonal stays int 0
            G.add_edge(lab(u), lab(u), **a)
    return G


def materialize(result):
    """Generators (the all_pairs_* functions) -> list of (node, dict)."""
    if isinstance(result, np.ndarray) or isinstance(result, dict):
        return result
    return list(result)


def assert_matrix_equal(ours, ref, exact):
    assert isinstance(ours, np.ndarray)
    assert ours.dtype == np.float64 and ours.flags.c_contiguous
    assert ours.shape == ref.shape
    assert np.array_equal(np.isinf(ours), np.isinf(ref))
    if exact:
        np.testing.assert_array_equal(ours, ref)
    else:
        np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-12)


def assert_value(a, b, exact, types):
    assert type(a) in (int, float, bool) or isinstance(a, np.generic), f"{a!r} is a {type(a)}"
    if types:
        assert type(a) is type(b), f"{a!r} ({type(a).__name__}) vs {b!r} ({type(b).__name__})"
    if exact or b == INF or b == 0 or isinstance(b, (bool, np.bool_)):
        assert a == b
    else:
        assert a == pytest.approx(b, rel=1e-12, abs=1e-12)


def assert_rows_equal(ours, ref, exact, types, *, all_nodes=False):
    """ours, ref: {node: {node: length}} (or lists of (node, dict) pairs)."""
    ours_items = list(ours.items()) if isinstance(ours, dict) else list(ours)
    ref_items = list(ref.items()) if isinstance(ref, dict) else list(ref)
    assert [u for u, _ in ours_items] == [u for u, _ in ref_items]  # G.nodes order
    for (u, row), (_, ref_row) in zip(ours_items, ref_items):
        assert set(row) == set(ref_row), f"row {u!r}: reachable sets differ"
        if all_nodes:
            assert isinstance(row, defaultdict) and row.default_factory() == INF
        for v, b in ref_row.items():
            assert_value(row[v], b, exact, types)
        if not all_nodes:
            vals = list(row.values())
            assert next(iter(row)) == u and vals[0] == 0 and type(vals[0]) is int
            assert list(row) == list(ref_row), "keys in NetworkX's order"


def compare(name, ours, ref, *, exact, types):
    if name == "floyd_warshall_numpy":
        assert_matrix_equal(ours, ref, exact)
    elif name == "floyd_warshall":
        assert type(ours) is dict
        assert_rows_equal(ours, ref, exact, types, all_nodes=True)
    else:
        assert_rows_equal(ours, ref, exact, types)


def call_nx(name, *args, **kwargs):
    return materialize(getattr(nx, name)(*args, backend="networkx", **kwargs))


def outcome(thunk):
    """("ok", result) or ("error", exception type, message)."""
    try:
        return ("ok", materialize(thunk()))
    except Exception as exc:  # noqa: BLE001 - comparing NetworkX's failure modes
        return ("error", type(exc), str(exc))


def same_outcome(a, b):
    if a[0] != b[0]:
        return False
    if a[0] == "error":
        return a[1:] == b[1:]
    x, y = a[1], b[1]
    if isinstance(x, np.ndarray):
        return x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
    return [(u, dict(d)) for u, d in (x.items() if isinstance(x, dict) else x)] == [
        (u, dict(d)) for u, d in (y.items() if isinstance(y, dict) else y)
    ]


# --------------------------------------------------------------------------------------
# Fixtures: a solve counter, the two ways of dispatching
# --------------------------------------------------------------------------------------


@pytest.fixture
def solves(monkeypatch):
    """Counts solve_edges calls (and keeps their arguments) while a test runs."""
    calls = []
    real = apsp_lab.solve_edges

    def counting(n, src, dst, weight=None, **kwargs):
        calls.append({"n": n, "src": src, "dst": dst, "weight": weight, **kwargs})
        return real(n, src, dst, weight, **kwargs)

    monkeypatch.setattr(apsp_lab, "solve_edges", counting)
    return calls


@pytest.fixture
def registered():
    if "apsp_lab" not in nx.utils.backends.backends:
        pytest.fail(
            "NetworkX does not see the apsp_lab backend: its entry points are missing "
            "(install the package or put apsp_lab-*.dist-info beside it on sys.path)"
        )


@pytest.fixture
def auto(registered):
    """Automatic dispatch: backend_priority = ["apsp_lab"], restored afterwards."""
    cfg = nx.config
    saved = (list(cfg.backend_priority.algos), set(cfg.warnings_to_ignore))
    cfg.backend_priority.algos = ["apsp_lab"]
    cfg.warnings_to_ignore.add("cache")
    try:
        yield
    finally:
        cfg.backend_priority.algos = saved[0]
        cfg.warnings_to_ignore.clear()
        cfg.warnings_to_ignore.update(saved[1])


@pytest.fixture(params=["explicit", "auto"])
def run(request, registered):
    """run(name, *args, **kwargs): the function through the backend, both ways."""
    if request.param == "auto":
        request.getfixturevalue("auto")

        def call(name, *args, **kwargs):
            return materialize(getattr(nx, name)(*args, **kwargs))
    else:

        def call(name, *args, **kwargs):
            return materialize(getattr(nx, name)(*args, backend="apsp_lab", **kwargs))

    return call


def kwargs_for(name, weight):
    return {} if name == "all_pairs_shortest_path_length" else {"weight": weight}


# --------------------------------------------------------------------------------------
# Results against NetworkX
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.__name__)
@pytest.mark.parametrize("weights", ["int", "float"])
def test_random_graphs_match_networkx(run, solves, name, kind, weights):
    for seed, labels in [(1, "int"), (2, "str"), (3, "tuple")]:
        G = make_graph(kind, weights=weights, labels=labels, seed=seed)
        kw = kwargs_for(name, "weight")
        before = len(solves)
        ours = run(name, G, **kw)
        assert len(solves) == before + 1, "exactly one solve per call"
        ref = call_nx(name, G, **kw)
        exact = weights == "int" or name == "all_pairs_shortest_path_length"
        compare(name, ours, ref, exact=exact, types=True)


@pytest.mark.parametrize("name", WEIGHTED)
@pytest.mark.parametrize("kind", [nx.DiGraph, nx.MultiGraph], ids=lambda k: k.__name__)
def test_missing_weights_and_mixed_types(run, name, kind):
    for seed, weights in [(4, "int"), (5, "mixed")]:
        G = make_graph(kind, weights=weights, missing=0.3, labels="mixed", seed=seed)
        if weights == "mixed" and name not in ("floyd_warshall", "floyd_warshall_numpy"):
            # Int and float lengths side by side, typed path by path: NetworkX answers.
            assert "mixed types" in nb.backend_interface.can_run(name, (G,), {})
            continue
        ours = run(name, G)
        ref = call_nx(name, G)
        # Dijkstra and Bellman-Ford take a missing weight as int 1: all-int graphs stay
        # int. floyd_warshall takes it as 1.0: each entry int or float as NetworkX's.
        compare(name, ours, ref, exact=weights == "int", types=True)


@pytest.mark.parametrize("name", WEIGHTED)
def test_weight_none_and_other_attribute(run, name):
    G = make_graph(nx.MultiDiGraph, weights="int", attr="cost", seed=6)
    for weight in [None, "cost", "absent"]:
        ours = run(name, G, weight=weight)
        ref = call_nx(name, G, weight=weight)
        compare(name, ours, ref, exact=True, types=True)


@pytest.mark.parametrize(
    "name", ["all_pairs_dijkstra_path_length", "all_pairs_shortest_path_length"]
)
@pytest.mark.parametrize("cutoff", [0, 1, 2, 2.5, 7, 13.25, -1, INF, float("nan"), 10**400])
def test_cutoff(run, name, cutoff):
    for kind, weights in [(nx.DiGraph, "int"), (nx.Graph, "float")]:
        G = make_graph(kind, weights=weights, seed=7, labels="str")
        ours = run(name, G, cutoff=cutoff)
        ref = call_nx(name, G, cutoff=cutoff)
        exact = weights == "int" or name == "all_pairs_shortest_path_length"
        compare(name, ours, ref, exact=exact, types=True)


@pytest.mark.parametrize("labels", ["int", "str", "tuple"])
def test_nodelist_orders(run, labels):
    G = make_graph(nx.MultiGraph, weights="int", labels=labels, seed=8)
    nodes = list(G)
    for seed in range(3):
        order = nodes[:]
        random.Random(seed).shuffle(order)
        ours = run("floyd_warshall_numpy", G, nodelist=order)
        ref = call_nx("floyd_warshall_numpy", G, nodelist=order)
        assert_matrix_equal(ours, ref, exact=True)
    # A tuple nodelist works as in NetworkX too.
    assert_matrix_equal(
        run("floyd_warshall_numpy", G, tuple(reversed(nodes))),
        call_nx("floyd_warshall_numpy", G, tuple(reversed(nodes))),
        exact=True,
    )


def test_nodelist_errors_as_networkx(run):
    G = make_graph(nx.DiGraph, labels="str", seed=9)
    nodes = list(G)
    bad = [nodes[:-1], nodes + nodes[:1], nodes[:-1] + nodes[:1], nodes[:-1] + ["zzz"]]
    for nodelist in bad:
        with pytest.raises(nx.NetworkXError) as ref:
            call_nx("floyd_warshall_numpy", G, nodelist=nodelist)
        with pytest.raises(nx.NetworkXError) as ours:
            run("floyd_warshall_numpy", G, nodelist=nodelist)
        assert str(ours.value) == str(ref.value)


@pytest.mark.parametrize("name", FUNCS)
def test_tiny_graphs(run, name):
    graphs = [nx.Graph(), nx.DiGraph(), nx.path_graph(1), nx.empty_graph(4, nx.MultiDiGraph)]
    G = nx.Graph()
    G.add_edge("a", "a", weight=0)  # only a self loop
    graphs.append(G)
    for G in graphs:
        ours = run(name, G)
        ref = call_nx(name, G)
        compare(name, ours, ref, exact=True, types=True)


@pytest.mark.parametrize("name", FUNCS)
def test_graph_views(run, name):
    D = make_graph(nx.DiGraph, weights="int", labels="str", seed=22)
    U = make_graph(nx.MultiGraph, weights="int", labels="str", seed=22)
    views = [
        D.reverse(copy=False),
        D.subgraph(list(D)[::2]),
        nx.restricted_view(U, list(U)[:2], []),
        U.subgraph(list(U)[1::2]),
    ]
    for G in views:
        compare(name, run(name, G), call_nx(name, G), exact=True, types=True)


def test_numpy_scalar_and_bool_weights_give_networkx_types(run):
    for value in [np.int64(3), np.float64(0.5), True, np.uint8(2)]:
        G = nx.DiGraph()
        G.add_edges_from([(0, 1), (1, 2), (2, 3), (3, 0)], weight=value)
        for name in WEIGHTED:
            compare(name, run(name, G), call_nx(name, G), exact=True, types=True)
    G = nx.DiGraph()
    G.add_edge(0, 1, weight=np.int64(3))
    G.add_edge(1, 2, weight=np.float64(0.5))
    G.add_edge(2, 3, weight=True)
    G.add_edge(3, 0, weight=np.uint8(2))
    for name in WEIGHTED[1:]:  # mixed types: NetworkX answers (floyd_warshall_numpy: floats)
        assert "types" in nb.backend_interface.can_run(name, (G,), {})


def test_integral_float_weights_use_the_exact_path(run, solves):
    # (No self loops: NetworkX's diagonal would turn 0.0 where one weighs 0.0.)
    G = make_graph(nx.DiGraph, weights="int", seed=10, self_loops=False)
    for _, _, d in G.edges(data=True):
        if "weight" in d:
            d["weight"] = float(d["weight"])
    ours = run("floyd_warshall", G)
    assert solves[-1]["weight"].dtype == np.int64
    compare("floyd_warshall", ours, call_nx("floyd_warshall", G), exact=True, types=True)
    G.add_edge(0, 1, weight=0.25)
    run("floyd_warshall_numpy", G)
    assert solves[-1]["weight"].dtype == np.float64


def test_undirected_edges_go_both_ways(solves, registered):
    G = nx.Graph()
    G.add_weighted_edges_from([("a", "b", 2), ("b", "c", 3)])
    D = nx.floyd_warshall_numpy(G, backend="apsp_lab")
    np.testing.assert_array_equal(D, [[0, 2, 5], [2, 0, 3], [5, 3, 0]])
    assert solves[-1]["directed"] is False
    assert len(solves[-1]["src"]) == 2  # each undirected edge once


def test_results_are_lazy_generators_and_picklable(solves, registered):
    G = make_graph(nx.Graph, seed=11)
    gen = nx.all_pairs_dijkstra_path_length(G, backend="apsp_lab")
    assert len(solves) == 0  # nothing runs before the first next(), as in NetworkX
    first = next(gen)
    assert first[0] == next(iter(G)) and len(solves) == 1
    fw = nx.floyd_warshall(G, backend="apsp_lab")
    again = pickle.loads(pickle.dumps(fw))
    assert again == fw and again[first[0]]["not a node"] == INF


# --------------------------------------------------------------------------------------
# Fallbacks: what can_run turns down goes to NetworkX (automatic dispatch)
# --------------------------------------------------------------------------------------


def graph_with(value):
    """A small random digraph, one edge of which has weight `value`."""
    G = make_graph(nx.DiGraph, seed=12, n=10, isolated=1)
    u, v = next(iter(G.edges()))
    G[u][v]["weight"] = value
    return G


UNSUPPORTED = {
    "negative": -3,
    "negative float": -0.5,
    "string": "3",
    "none": None,
    "inf": INF,
    "nan": float("nan"),
    "too large int": 2**60,
    "complex": 1j,
}


@pytest.mark.parametrize("case", list(UNSUPPORTED))
@pytest.mark.parametrize("name", WEIGHTED)
def test_unsupported_weights_fall_back(auto, solves, case, name):
    G = graph_with(UNSUPPORTED[case])
    reason = nb.backend_interface.can_run(name, (G,), {})
    assert isinstance(reason, str) and reason
    ours = outcome(lambda: getattr(nx, name)(G))
    ref = outcome(lambda: getattr(nx, name)(G, backend="networkx"))
    assert not solves, "can_run said no, the backend must not solve"
    assert same_outcome(ours, ref) or (case == "nan" and ours[0] == ref[0] == "ok")
    with pytest.raises(NotImplementedError):  # an explicit backend= does not fall back
        materialize(getattr(nx, name)(G, backend="apsp_lab"))


def test_negative_weights_bellman_ford_and_negative_cycles(auto, solves):
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 4), (0, 2, 5), (2, 1, -3), (1, 3, 1)])
    assert dict(nx.all_pairs_bellman_ford_path_length(G)) == dict(
        nx.all_pairs_bellman_ford_path_length(G, backend="networkx")
    )
    np.testing.assert_array_equal(
        nx.floyd_warshall_numpy(G), nx.floyd_warshall_numpy(G, backend="networkx")
    )
    G.add_edge(1, 2, weight=1)  # a negative cycle 2 -> 1 -> 2
    with pytest.raises(nx.NetworkXUnbounded):
        dict(nx.all_pairs_bellman_ford_path_length(G))
    assert not solves


@pytest.mark.parametrize("name", WEIGHTED)
def test_callable_weight_falls_back(auto, solves, name):
    G = make_graph(nx.DiGraph, seed=13)

    def w(u, v, d):
        return 2 * d.get("weight", 1) + 1

    assert "callable" in nb.backend_interface.can_run(name, (G,), {"weight": w})
    ours = materialize(getattr(nx, name)(G, weight=w))
    assert not solves
    assert same_outcome(("ok", ours), ("ok", call_nx(name, G, weight=w)))


@pytest.mark.parametrize("value", [Fraction(1, 3), np.float32(0.1), np.longdouble(0.1)])
def test_other_real_weights(auto, solves, value):
    """NetworkX sums these in their own arithmetic in the dict functions (fallback), but
    floyd_warshall_numpy converts them to float64 first (the backend runs)."""
    G = make_graph(nx.DiGraph, weights="none", seed=14)
    nx.set_edge_attributes(G, value, "weight")
    for name in WEIGHTED[1:]:
        assert isinstance(nb.backend_interface.can_run(name, (G,), {}), str)
        assert same_outcome(("ok", materialize(getattr(nx, name)(G))), ("ok", call_nx(name, G)))
    assert not solves
    assert_matrix_equal(nx.floyd_warshall_numpy(G), call_nx("floyd_warshall_numpy", G), exact=False)
    assert len(solves) == 1


def test_narrow_numpy_ints_that_may_overflow_fall_back():
    G = nx.path_graph(40, create_using=nx.DiGraph)
    nx.set_edge_attributes(G, np.int16(1000), "weight")
    assert isinstance(nb.backend_interface.can_run("floyd_warshall", (G,), {}), str)
    assert nb.backend_interface.can_run("floyd_warshall_numpy", (G,), {}) is True
    nx.set_edge_attributes(G, np.int16(10), "weight")
    assert nb.backend_interface.can_run("floyd_warshall", (G,), {}) is True


def test_bad_cutoff_and_unhashable_weight_fall_back(auto, solves):
    G = make_graph(nx.Graph, seed=15)
    can_run = nb.backend_interface.can_run
    assert isinstance(can_run("all_pairs_dijkstra_path_length", (G, "3"), {}), str)
    assert isinstance(can_run("all_pairs_shortest_path_length", (G,), {"cutoff": [1]}), str)
    assert isinstance(can_run("floyd_warshall", (G,), {"weight": ["w"]}), str)
    assert isinstance(can_run("dijkstra_path", (G, 0, 1), {}), str)
    for thunk in [
        lambda: nx.all_pairs_dijkstra_path_length(G, cutoff="3"),
        lambda: nx.all_pairs_shortest_path_length(G, cutoff="3"),
    ]:
        assert outcome(thunk)[0] == "error"
    assert not solves


# --------------------------------------------------------------------------------------
# Dispatch, configuration, conversions
# --------------------------------------------------------------------------------------


def test_automatic_dispatch_uses_the_backend(auto, solves):
    G = make_graph(nx.DiGraph, seed=16)
    for i, name in enumerate(FUNCS, start=1):
        materialize(getattr(nx, name)(G))
        assert len(solves) == i
    # NetworkX functions built on these dispatch to the backend from inside, too.
    UG = make_graph(nx.Graph, seed=16, isolated=0, p=0.5)
    n = len(UG)
    ref = call_nx("floyd_warshall_numpy", UG, weight=None).sum() / (n * (n - 1))
    assert nx.average_shortest_path_length(UG, method="floyd-warshall-numpy") == pytest.approx(ref)
    assert len(solves) == len(FUNCS) + 1


def test_conversion_reads_the_edges_once_per_call(auto, monkeypatch):
    scans = []
    real = nb_graph.scan
    monkeypatch.setattr(nb_graph, "scan", lambda G, attrs: scans.append(attrs) or real(G, attrs))
    G = make_graph(nx.DiGraph, seed=17)
    nx.floyd_warshall_numpy(G)
    assert len(scans) == 1  # can_run's scan is handed to convert_from_nx
    nx.floyd_warshall(G)
    assert len(scans) == 1  # NetworkX's cache holds the conversion; can_run uses it too
    G.add_edge(0, 1, weight=-1)  # clears the cache: can_run reads the edges again
    assert nx.floyd_warshall(G) == nx.floyd_warshall(G, backend="networkx")
    assert len(scans) == 2
    nx.config.cache_converted_graphs = False
    try:
        G.add_edge(0, 1, weight=1)
        nx.floyd_warshall_numpy(G)
        nx.floyd_warshall_numpy(G)
        assert len(scans) == 4
    finally:
        nx.config.cache_converted_graphs = True


def test_device_keyword_and_config(solves, registered):
    G = nx.path_graph(4)
    nx.floyd_warshall_numpy(G, backend="apsp_lab")
    assert solves[-1]["device"] == "auto"
    nx.floyd_warshall_numpy(G, backend="apsp_lab", device="cpu")
    assert solves[-1]["device"] == "cpu"
    cfg = nx.config.backends.apsp_lab
    cfg.device = "cpu"
    try:
        dict(nx.all_pairs_shortest_path_length(G, backend="apsp_lab"))
        assert solves[-1]["device"] == "cpu"
    finally:
        cfg.device = "auto"
    with pytest.raises(ValueError, match="device"):
        nx.floyd_warshall_numpy(G, backend="apsp_lab", device="tpu")


def test_should_run_keeps_streaming_functions_on_networkx_for_huge_matrices(auto, solves):
    G = make_graph(nx.DiGraph, seed=18)
    cfg = nx.config.backends.apsp_lab
    cfg.max_matrix_bytes = 100  # pretend the n x n matrix does not fit
    try:
        assert isinstance(
            nb.backend_interface.should_run("all_pairs_shortest_path_length", (G,), {}), str
        )
        ref = call_nx("all_pairs_dijkstra_path_length", G)
        assert materialize(nx.all_pairs_dijkstra_path_length(G)) == ref
        assert not solves
        nx.floyd_warshall_numpy(G)  # its result is the matrix: the backend still runs
        assert len(solves) == 1
    finally:
        cfg.max_matrix_bytes = None
    assert nb.backend_interface.should_run("all_pairs_shortest_path_length", (G,), {}) is True


def test_backend_graph_round_trip_and_direct_use(solves, registered):
    G = make_graph(nx.MultiDiGraph, weights="int", missing=0.2, labels="tuple", seed=19)
    AG = nb.ApspGraph.from_networkx(G)
    assert AG.__networkx_backend__ == "apsp_lab"
    assert len(AG) == len(G) and AG.is_directed() and AG.is_multigraph()
    assert AG.number_of_edges() == G.number_of_edges()
    assert list(AG) == list(G) and AG.src.dtype.kind == "i"
    # Dispatch sees a backend graph: no conversion, straight to the backend.
    D = nx.floyd_warshall_numpy(AG)
    assert_matrix_equal(D, call_nx("floyd_warshall_numpy", G), exact=True)
    # Back to NetworkX: same nodes, edges and weights (missing stays missing).
    H = nb.backend_interface.convert_to_nx(AG)
    assert type(H) is nx.MultiDiGraph and list(H) == list(G)
    assert sorted(map(repr, H.edges(data="weight"))) == sorted(map(repr, G.edges(data="weight")))
    assert nb.backend_interface.convert_to_nx({"a": 1}) == {"a": 1}
    # A weight the backend graph was not converted with.
    assert isinstance(nb.backend_interface.can_run("floyd_warshall", (AG, "cost"), {}), str)


def test_direct_calls_of_the_interface():
    G = make_graph(nx.Graph, weights="float", seed=20)
    bi = nb.backend_interface
    for name in FUNCS:
        ours = materialize(getattr(bi, name)(G))
        exact = name == "all_pairs_shortest_path_length"
        compare(name, ours, call_nx(name, G), exact=exact, types=True)
    with pytest.raises(NotImplementedError, match="negative"):
        bi.floyd_warshall_numpy(graph_with(-1))


def test_get_info_and_entry_points(registered):
    info = nb.get_info()
    assert info["backend_name"] == "apsp_lab"
    assert set(info["functions"]) == set(FUNCS) | set(WHOLE_GRAPH)
    assert info["default_config"]["device"] == "auto"
    assert nx.utils.backends.backend_info["apsp_lab"]["backend_name"] == "apsp_lab"
    for name in FUNCS:
        assert hasattr(nb.backend_interface, name)
        assert "apsp_lab" in getattr(nx, name).__doc__  # NetworkX's Backends section


def test_import_is_cheap(tmp_path):
    """The package NetworkX loads on every `import networkx` pulls in neither NumPy,
    SciPy nor NetworkX (apsp_lab's __init__ is stubbed: this checks apsp_lab.nx_backend and
    every module it imports)."""
    package_dir = os.path.dirname(nb.__file__)
    code = f"""
import importlib.util, sys, types
sys.modules["apsp_lab"] = types.ModuleType("apsp_lab")
spec = importlib.util.spec_from_file_location(
    "apsp_lab.nx_backend", {nb.__file__!r}, submodule_search_locations=[{package_dir!r}]
)
mod = importlib.util.module_from_spec(spec)
sys.modules["apsp_lab.nx_backend"] = mod
spec.loader.exec_module(mod)
info = mod.get_info()
print(sorted(m for m in ("numpy", "scipy", "networkx") if m in sys.modules))
"""
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


def test_environment_variable_enables_dispatch(registered):
    code = """
import apsp_lab, networkx as nx
calls = []
real = apsp_lab.solve_edges
apsp_lab.solve_edges = lambda *a, **k: calls.append(1) or real(*a, **k)
D = nx.floyd_warshall_numpy(nx.path_graph(5))
print(nx.config.backend_priority.algos, len(calls), D[0, 4])
"""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env["NETWORKX_BACKEND_PRIORITY"] = "apsp_lab"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.split() == ["['apsp_lab']", "1", "4.0"]


# --------------------------------------------------------------------------------------
# GPU
# --------------------------------------------------------------------------------------


@pytest.mark.gpu
@pytest.mark.parametrize("weights", ["int", "float"])
def test_cuda_matches_networkx(registered, weights):
    if not apsp_lab.cuda_available():
        pytest.skip("no CUDA device")
    for kind in KINDS:
        G = make_graph(kind, n=120, p=0.05, weights=weights, seed=21)
        for name in FUNCS:
            kw = {**kwargs_for(name, "weight"), "device": "cuda"}
            ours = materialize(getattr(nx, name)(G, backend="apsp_lab", **kw))
            exact = weights == "int" or name == "all_pairs_shortest_path_length"
            compare(name, ours, call_nx(name, G), exact=exact, types=True)
