"""apsp_lab.shortest_path, dijkstra, bellman_ford and johnson against SciPy's, on the CPU path
(test_scipy_entry_points_gpu.py runs them with device = "cuda").

Seeded graphs (dense, sparse with explicit zeros and duplicates, masked; directed and undirected;
unreachable pairs; a single node), every form of `indices` (None, a scalar, a negative one, a
list, a 2-D array, repeats, an empty list), `limit` and `min_only`, negative weights and cycles
(each method's own rule and message), unweighted, SciPy's errors, and inputs SciPy refuses
(strings, objects, dates). Distances of integer weights must agree exactly; predecessors must
close a shortest path (ties may differ: docs/python.md).
"""

import warnings

import apsp_lab
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
from scipy.sparse.csgraph import NegativeCycleError
from test_floyd_warshall import FLOAT_RTOL, random_dense, random_sparse, weights_of

METHODS = ["shortest_path", "dijkstra", "bellman_ford", "johnson"]
INDICES = [None, 0, -1, [0, 3, 3, 1], np.array([[2, 0], [1, 4]]), []]


@pytest.fixture
def device():
    return "cpu"


def both(name, graph, device, **kw):
    """(ours, SciPy's) of one function on one graph, each a tuple of arrays."""
    ours = getattr(apsp_lab, name)(graph, device=device, **kw)
    theirs = getattr(csgraph, name)(graph, **kw)
    as_tuple = lambda r: r if isinstance(r, tuple) else (r,)  # noqa: E731
    return as_tuple(ours), as_tuple(theirs)


def assert_distances(ours, theirs, floats=False, device="cpu"):
    assert type(ours) is np.ndarray and ours.dtype == theirs.dtype == np.float64
    assert ours.shape == theirs.shape
    if floats or device != "cpu":
        np.testing.assert_allclose(ours, theirs, rtol=FLOAT_RTOL, atol=0)
        assert np.array_equal(np.isinf(ours), np.isinf(theirs))
    else:
        np.testing.assert_array_equal(ours, theirs)


def row_sources(indices, n):
    if indices is None:
        return np.arange(n)
    rows = np.atleast_1d(np.asarray(indices, dtype=np.int64)).reshape(-1)
    return np.where(rows < 0, rows + n, rows)


def assert_predecessors(dist, pred, graph, sources):
    """Each predecessor closes a shortest path from its row's source; -9999 exactly where there
    is none (the source, an unreachable vertex)."""
    assert pred.dtype == np.int32 and pred.shape == dist.shape
    w = weights_of(graph)
    d = dist.reshape(-1, dist.shape[-1])
    p = pred.reshape(d.shape)
    none = p == -9999
    unreached = np.isinf(d)
    unreached[np.arange(len(sources)), sources] = True
    assert np.array_equal(none, unreached)
    k, j = np.nonzero(~none)
    before = p[k, j]
    np.testing.assert_allclose(d[k, before] + w[before, j], d[k, j], rtol=1e-12)


def graphs(n, seed):
    a = random_dense(n, seed, density=0.15, wmax=9)
    masked = np.ma.masked_array(a, mask=np.random.default_rng(seed).random(a.shape) < 0.1)
    return {"dense": a, "sparse": random_sparse(n, seed, density=0.1, wmax=9), "masked": masked}


@pytest.mark.parametrize("name", METHODS)
@pytest.mark.parametrize("kind", ["dense", "sparse", "masked"])
@pytest.mark.parametrize("indices", INDICES, ids=repr)
@pytest.mark.parametrize("directed", [True, False])
def test_distances_and_shapes_equal_scipys(name, kind, indices, directed, device):
    graph = graphs(40, seed=len(kind) + 7 * directed)[kind]
    (ours,), (theirs,) = both(name, graph, device, indices=indices, directed=directed)
    assert_distances(ours, theirs, device=device)


@pytest.mark.parametrize("name", METHODS)
@pytest.mark.parametrize("indices", [None, 2, [5, 1, 5]], ids=repr)
@pytest.mark.parametrize("directed", [True, False])
def test_predecessors(name, indices, directed, device):
    graph = random_sparse(50, seed=3, density=0.08, wmax=4)  # many ties
    (d, p), (theirs, _) = both(
        name, graph, device, indices=indices, directed=directed, return_predecessors=True
    )
    assert_distances(d, theirs, device=device)
    assert_predecessors(d, p, graph if directed else _undirected(graph), row_sources(indices, 50))


def _undirected(graph):
    w = weights_of(graph)
    both_ways = np.minimum(w, w.T)
    coo = np.nonzero(np.isfinite(both_ways))
    return sp.csr_matrix((both_ways[coo], coo), shape=w.shape)


@pytest.mark.parametrize("name", METHODS)
def test_float_weights_and_unique_paths(name, device):
    graph = random_sparse(60, seed=11, density=0.1, floats=True)
    (d, p), (theirs, their_p) = both(name, graph, device, indices=[4, 0], return_predecessors=True)
    assert_distances(d, theirs, floats=True, device=device)
    np.testing.assert_array_equal(p, their_p)  # random weights: every shortest path unique


@pytest.mark.parametrize("name", METHODS)
def test_unweighted(name, device):
    graph = random_dense(45, seed=5)
    (ours,), (theirs,) = both(name, graph, device, indices=[1, 2], unweighted=True)
    assert_distances(ours, theirs, device=device)


@pytest.mark.parametrize("name", METHODS)
def test_a_single_node_and_an_empty_graph(name, device):
    for graph, indices in (
        (np.zeros((1, 1)), 0),
        (np.array([[3]]), None),
        (np.zeros((0, 0)), None),
    ):
        (ours,), (theirs,) = both(name, graph, device, indices=indices)
        assert_distances(ours, theirs, device=device)


@pytest.mark.parametrize("method", ["auto", "FW", "D", "BF", "J"])
def test_shortest_path_methods(method, device):
    graph = random_sparse(40, seed=9)
    indices = None if method == "FW" else [3, 7]
    kw = {"method": method, "indices": indices, "return_predecessors": True}
    (d, p), (theirs, _) = both("shortest_path", graph, device, **kw)
    assert_distances(d, theirs, device=device)
    assert_predecessors(d, p, graph, row_sources(indices, 40))


def test_shortest_path_auto_overwrites_where_scipys_does(device):
    # Dense enough for SciPy's "FW": the float64 C array receives the result.
    dense = random_dense(30, seed=2, density=0.6).astype(np.float64)
    ours, theirs = dense.copy(), dense.copy()
    result = apsp_lab.shortest_path(ours, overwrite=True, device=device)
    csgraph.shortest_path(theirs, overwrite=True)
    assert result is ours and np.array_equal(ours, theirs)
    # Sparse enough for "D": the input stays as it was.
    sparse = random_dense(30, seed=2, density=0.05).astype(np.float64)
    ours = sparse.copy()
    apsp_lab.shortest_path(ours, overwrite=True, device=device)
    assert np.array_equal(ours, sparse)


@pytest.mark.parametrize("limit", [0, 3, 4.5, 7, np.inf])
@pytest.mark.parametrize("directed", [True, False])
def test_dijkstra_limit(limit, directed, device):
    graph = random_sparse(40, seed=4, wmax=5)
    (d, p), (theirs, _) = both(
        "dijkstra", graph, device, indices=[0, 9], limit=limit, directed=directed,
        return_predecessors=True,
    )  # fmt: skip
    assert_distances(d, theirs, device=device)
    assert_predecessors(d, p, graph if directed else _undirected(graph), np.array([0, 9]))


@pytest.mark.parametrize("indices", [None, 3, [0, 5, 17], [4, 4]], ids=repr)
@pytest.mark.parametrize("limit", [np.inf, 4])
def test_dijkstra_min_only(indices, limit, device):
    graph = random_sparse(40, seed=8, wmax=5)
    kw = {"indices": indices, "limit": limit, "min_only": True}
    (ours,), (theirs,) = both("dijkstra", graph, device, **kw)
    assert_distances(ours, theirs, device=device)
    (d, p, s), (theirs, their_p, their_s) = both(
        "dijkstra", graph, device, return_predecessors=True, **kw
    )
    assert_distances(d, theirs, device=device)
    assert p.dtype == s.dtype == np.int32 and p.shape == s.shape == (40,)
    assert np.array_equal(s == -9999, their_s == -9999)
    assert np.array_equal(p == -9999, their_p == -9999)
    # Each vertex's source reaches it at the distance given, through its predecessor.
    w = weights_of(graph)
    sources = row_sources(indices, 40)
    exact = apsp_lab.floyd_warshall(graph)
    reached = (s != -9999) & ~np.isin(np.arange(40), sources)
    j = np.flatnonzero(reached)
    assert np.all(np.isin(s[j], sources))
    np.testing.assert_array_equal(exact[s[j], j], d[j])
    np.testing.assert_array_equal(exact[s[j], p[j]] + w[p[j], j], d[j])


def negative_graph(cycle):
    """A directed graph with negative weights: vertices 0..3 reach 4..7, which hold a negative
    cycle when `cycle` (4 -> 5 -> 4 of weight -1); 8 and 9 are apart, 6 and 7 reach no cycle."""
    a = np.zeros((10, 10))
    a[0, 1], a[1, 2], a[2, 3], a[0, 3] = 2, -1, 3, 5
    a[3, 4], a[4, 5], a[5, 6], a[6, 7] = 1, 2, -2, 4
    a[5, 4] = -3 if cycle else 4
    a[8, 9] = -3
    return a


@pytest.mark.parametrize("name", ["bellman_ford", "johnson", "shortest_path"])
@pytest.mark.parametrize("kind", ["dense", "sparse"])
def test_negative_weights_without_a_cycle(name, kind, device):
    a = negative_graph(cycle=False)
    graph = a if kind == "dense" else sp.csr_matrix(a)
    for indices in (None, [0, 8]):
        (d, p), (theirs, _) = both(name, graph, device, indices=indices, return_predecessors=True)
        assert_distances(d, theirs, device=device)
        assert_predecessors(d, p, graph, row_sources(indices, 10))


def test_negative_cycle_by_method(device):
    a = negative_graph(cycle=True)
    for name, indices in (("bellman_ford", None), ("bellman_ford", [2, 6]), ("johnson", [8])):
        with pytest.raises(NegativeCycleError) as ours:
            getattr(apsp_lab, name)(a, indices=indices, device=device)
        with pytest.raises(NegativeCycleError) as theirs:
            getattr(csgraph, name)(a, indices=indices)
        assert str(ours.value) == str(theirs.value)
    # Bellman-Ford from sources that cannot reach the cycle answers, as SciPy's does.
    (ours,), (theirs,) = both("bellman_ford", a, device, indices=[8, 9])
    assert_distances(ours, theirs, device=device)
    # shortest_path's own choice: "J" where few entries are edges, "FW" (its message) where many.
    for graph in (a, np.where(a == 0, 50, a)):
        with pytest.raises(NegativeCycleError) as ours:
            apsp_lab.shortest_path(graph, device=device)
        with pytest.raises(NegativeCycleError) as theirs:
            csgraph.shortest_path(graph)
        assert str(ours.value).split()[:3] == str(theirs.value).split()[:3]


@pytest.mark.parametrize("name", ["bellman_ford", "johnson"])
def test_negative_self_loops_and_undirected_negative_edges_are_cycles(name, device):
    loop = np.array([[0, 1, 0], [0, -1, 1], [0, 0, 0]], dtype=float)
    undirected = np.array([[0, -1, 0], [0, 0, 2], [0, 0, 0]], dtype=float)
    for graph, directed in ((loop, True), (undirected, False)):
        with pytest.raises(NegativeCycleError) as theirs:
            getattr(csgraph, name)(graph, directed=directed)
        with pytest.raises(NegativeCycleError) as ours:
            getattr(apsp_lab, name)(graph, directed=directed, device=device)
        if name == "bellman_ford":
            assert str(ours.value) == str(theirs.value)
    # floyd_warshall ignores the self loop, as SciPy's does.
    np.testing.assert_array_equal(
        apsp_lab.floyd_warshall(loop, device=device), csgraph.floyd_warshall(loop)
    )


def test_a_nan_distance_reaches_the_cycle():
    # The float64 solve may leave NaN (-inf + inf) in a row that reaches a negative cycle.
    from types import SimpleNamespace

    from apsp_lab._scipy import _reaching_source

    sol = SimpleNamespace(dist=np.array([[0, np.inf, np.inf], [np.inf, 0, np.nan]]))
    assert _reaching_source(sol, np.array([4, 7]), np.array([2])) == 7
    assert _reaching_source(sol, None, np.array([2])) == 1


def test_dijkstra_with_negative_weights_warns_and_answers_as_scipys(device):
    a = negative_graph(cycle=False)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        d = apsp_lab.dijkstra(a, indices=[0, 8], device=device)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        theirs = csgraph.dijkstra(a, indices=[0, 8])
    np.testing.assert_array_equal(d, theirs)
    # Unweighted: the same warning, hop counts.
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        d = apsp_lab.dijkstra(a, unweighted=True, device=device)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        np.testing.assert_array_equal(d, csgraph.dijkstra(a, unweighted=True))


def test_dijkstra_refuses_a_negative_cycle(device):
    # SciPy's dijkstra does not return on these graphs; ours warns as SciPy's, then raises.
    loop = negative_graph(cycle=False)
    loop[4, 4] = -2
    for graph, cycle in ((negative_graph(cycle=True), r"\[4 5\]"), (loop, r"\[4\]")):
        with pytest.warns(UserWarning, match="Graph has negative weights"):
            with pytest.raises(NegativeCycleError, match=r"Negative cycle in nodes " + cycle):
                apsp_lab.dijkstra(graph, device=device)


def test_no_warning_without_negative_weights(device):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        apsp_lab.dijkstra(random_dense(20, seed=1), indices=[0], device=device)


def test_scipys_errors():
    a = random_dense(6, seed=1)
    for name in METHODS:
        f = getattr(apsp_lab, name)
        with pytest.raises(ValueError, match=r"indices out of range 0\.\.\.N"):
            f(a, indices=[0, 6])
        with pytest.raises(ValueError, match=r"indices out of range 0\.\.\.N"):
            f(a, indices=-7)
        with pytest.raises(ValueError, match="graph should be a square array"):
            f(np.zeros((2, 3)))
        with pytest.raises(ValueError, match="graph should have two dimensions"):
            f(np.zeros(3))
        with pytest.raises(ValueError, match=r"compressed-sparse graph must be shape \(N, N\)"):
            f(sp.csr_matrix(np.ones((2, 3))))
    with pytest.raises(ValueError, match="Cannot specify indices with method == 'FW'."):
        apsp_lab.shortest_path(a, method="FW", indices=[0])
    with pytest.raises(ValueError, match="unrecognized method 'X'"):
        apsp_lab.shortest_path(a, method="X")
    with pytest.raises(ValueError, match="limit must be >= 0"):
        apsp_lab.dijkstra(a, limit=-1)


REFUSED = {
    "strings of numbers": np.array([["0", "1"], ["1", "0"]]),
    "strings": [["0", "a"], ["1", "0"]],
    "bytes": np.array([[b"0", b"1"], [b"1", b"0"]]),
    "objects": np.array([[0, 1], [1, 0]], dtype=object),
    "objects with None": np.array([[0, None], [1, 0]], dtype=object),
    "dates": np.array([[0, 1], [1, 0]], dtype="datetime64[s]"),
    "durations": np.array([[0, 1], [1, 0]], dtype="timedelta64[s]"),
}


@pytest.mark.parametrize("what", REFUSED)
@pytest.mark.parametrize("name", METHODS + ["floyd_warshall"])
def test_what_scipy_refuses_is_refused_alike(what, name):
    graph = REFUSED[what]
    with pytest.raises(Exception) as theirs:
        getattr(csgraph, name)(graph)
    with pytest.raises(type(theirs.value)) as ours:
        getattr(apsp_lab, name)(graph, device="cpu")
    assert str(ours.value) == str(theirs.value)


def test_masked_strings_are_read_as_scipy_reads_them():
    graph = np.ma.masked_array(np.array([["0", "2"], ["1", "0"]]), mask=[[0, 0], [1, 0]])
    np.testing.assert_array_equal(
        apsp_lab.floyd_warshall(graph, device="cpu"), csgraph.floyd_warshall(graph)
    )


def test_only_the_rows_asked_for_come_back():
    graph = random_dense(300, seed=12)
    sol_rows = apsp_lab.dijkstra(graph, indices=[299, 0])
    assert sol_rows.shape == (2, 300) and sol_rows.flags.c_contiguous
    np.testing.assert_array_equal(sol_rows, csgraph.dijkstra(graph, indices=[299, 0]))


class FakeDeviceArray:
    """A CUDA array as DLPack describes it, which must not be read (no device here)."""

    def __init__(self, dtype):
        self.dtype, self.shape = dtype, (3, 3)

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        raise AssertionError("the array was read")


@pytest.mark.parametrize("dtype", ["torch.bool", "bool", "complex64", "torch.complex128"])
def test_a_device_array_of_bool_or_complex_is_refused_before_it_is_read(dtype):
    with pytest.raises(TypeError, match="is not a graph's weights"):
        apsp_lab.floyd_warshall(FakeDeviceArray(dtype))


def test_device_result_dtypes():
    from apsp_lab._api import _device_result_dtype

    for floating in ("float16", "torch.bfloat16", "bfloat16", "float32", "torch.float64"):
        assert _device_result_dtype(FakeDeviceArray(floating)) == "float64"
    for integer in ("int8", "torch.int16", "int32", "int64", "uint8", "uint16", "uint64"):
        assert _device_result_dtype(FakeDeviceArray(integer)) == "int32"


class HostAsDevice:
    """A NumPy array posing as a CUDA one (DLPack's device 2), for what the entry points do
    around a device array's solve, which `on_host_as_device` answers on the host."""

    def __init__(self, a):
        self.a = np.asarray(a)

    shape = property(lambda self: self.a.shape)
    dtype = property(lambda self: self.a.dtype)
    T = property(lambda self: HostAsDevice(self.a.T))

    def __dlpack_device__(self):
        return (2, 0)

    def __array__(self, dtype=None, copy=None):
        return self.a if dtype is None else self.a.astype(dtype)

    def __getitem__(self, key):
        return HostAsDevice(self.a[key])

    def __lt__(self, other):
        return HostAsDevice(self.a < other)

    def __gt__(self, other):
        return HostAsDevice(self.a > other)

    def __and__(self, other):
        return HostAsDevice(self.a & other.a)

    def any(self):
        return self.a.any()

    def diagonal(self):
        return HostAsDevice(self.a.diagonal())

    def reshape(self, *shape):
        return HostAsDevice(self.a.reshape(*shape))


@pytest.fixture
def on_host_as_device(monkeypatch):
    """The device solve of a HostAsDevice, as docs/python.md has it: the float64 solve, into
    int32 (INF32: no path) for an integer dtype; never raising on a negative cycle."""
    solve = apsp_lab._api.solve

    def device_solve(x, directed, predecessors, unweighted):
        sol = solve(x.a, directed=directed, unweighted=unweighted, device="cpu")
        if x.dtype.kind in "iu":
            sol.dist = np.where(np.isposinf(sol.dist), apsp_lab.INF32, sol.dist).astype(np.int32)
        sol.dist = HostAsDevice(sol.dist)
        return sol

    monkeypatch.setattr(apsp_lab._api, "solve", device_solve)


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_negative_cycles_of_device_arrays_raise_as_on_the_host(on_host_as_device, dtype):
    loop = np.array([[0, 1, 0], [0, -1, 1], [0, 0, 0]], dtype=dtype)
    a = negative_graph(cycle=True).astype(dtype)
    cases = [("bellman_ford", loop, None), ("johnson", loop, None), ("bellman_ford", a, [2, 6])]
    cases += [("bellman_ford", a, None), ("johnson", a, [8])]
    for name, graph, indices in cases:
        with pytest.raises(NegativeCycleError) as theirs:
            getattr(csgraph, name)(graph, indices=indices)
        with pytest.raises(NegativeCycleError) as ours:
            getattr(apsp_lab, name)(HostAsDevice(graph), indices=indices)
        assert str(ours.value) == str(theirs.value)
    # Sources that reach no cycle answer.
    d = apsp_lab.bellman_ford(HostAsDevice(a), indices=[8, 9])
    theirs = csgraph.bellman_ford(a, indices=[8, 9])
    unreachable = apsp_lab.INF32 if d.dtype == np.int32 else np.inf
    np.testing.assert_array_equal(np.asarray(d), np.where(np.isinf(theirs), unreachable, theirs))


def test_dijkstra_on_a_device_array_with_negative_weights(on_host_as_device):
    for graph, refusal in (
        (negative_graph(cycle=False), NotImplementedError),
        (negative_graph(cycle=True), NegativeCycleError),
    ):
        with pytest.warns(UserWarning, match="Graph has negative weights"):
            with pytest.raises(refusal):
                apsp_lab.dijkstra(HostAsDevice(graph))
    a = negative_graph(cycle=False)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        d = apsp_lab.dijkstra(HostAsDevice(a), unweighted=True, indices=[0, 8])
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        np.testing.assert_array_equal(
            np.asarray(d), csgraph.dijkstra(a, True, [0, 8], unweighted=True)
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        apsp_lab.dijkstra(HostAsDevice(random_dense(8, seed=1)), indices=0)
