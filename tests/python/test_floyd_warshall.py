"""apsp_lab.floyd_warshall against scipy.sparse.csgraph.floyd_warshall, on the CPU path.

Seeded random graphs with unreachable pairs, zero weights, duplicate entries and self loops;
every input SciPy takes (dense arrays of every dtype and order, masked arrays, each sparse
format, lists); directed and undirected, weighted and unweighted; the predecessors; negative
weights and cycles; SciPy's errors. Integer weights must agree exactly; other weights too on the
CPU (SciPy's order of operations), within FLOAT_RTOL on the GPU (test_floyd_warshall_gpu.py runs
these tests there with device = "cuda").
"""

import apsp_lab
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import NegativeCycleError
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

# On the GPU, float64 sums are taken in the blocked kernel's order: docs/python.md's tolerance.
FLOAT_RTOL = 1e-12


@pytest.fixture
def device():
    return "cpu"


def exact(device):
    """Whether float results must equal SciPy's bit for bit on this device."""
    return device == "cpu"


def random_dense(n, seed, density=0.2, wmax=20, zeros=0.0, dtype=np.int64):
    """A dense SciPy graph: 0 = no edge; components that cannot reach each other (unreachable
    pairs); `zeros` of the edges of weight 0 are written as explicit zeros only in sparse form."""
    rng = np.random.default_rng(seed)
    a = rng.integers(1, wmax + 1, size=(n, n)).astype(dtype)
    a[rng.random((n, n)) > density] = 0
    parts = rng.integers(0, 3, size=n)
    a[parts[:, None] > parts[None, :]] = 0  # part 2 cannot reach 0 or 1, and so on
    np.fill_diagonal(a, rng.integers(0, 5, size=n))  # self loops, ignored
    return a


def random_sparse(n, seed, density=0.1, wmax=20, fmt="csr", floats=False):
    """Sparse entries with explicit zeros and duplicates (which csgraph keeps as the minimum)."""
    rng = np.random.default_rng(seed)
    m = int(density * n * n)
    row = rng.integers(0, n, size=m)
    col = rng.integers(0, n, size=m)
    w = rng.random(m) * wmax if floats else rng.integers(0, wmax + 1, size=m).astype(np.float64)
    w[rng.random(m) < 0.1] = 0  # explicit zeros: edges of weight 0
    # Duplicates: the first 20 entries again with other weights.
    row = np.concatenate([row, row[:20]])
    col = np.concatenate([col, col[:20]])
    w = np.concatenate([w, w[:20] + 3])
    # Built from CSR parts directly, so that the duplicates stay (a COO -> CSR conversion sums
    # them).
    order = np.lexsort((col, row))
    row, col, w = row[order], col[order], w[order]
    indptr = np.searchsorted(row, np.arange(n + 1))
    g = sp.csr_matrix((w, col, indptr), shape=(n, n))
    return {"csr": g, "csc": g.tocsc(), "lil": g.tolil(), "csr_array": sp.csr_array(g)}[fmt]


def assert_same(ours, theirs, device, floats=False):
    assert ours.dtype == theirs.dtype == np.float64
    assert ours.shape == theirs.shape
    if floats and not exact(device):
        np.testing.assert_allclose(ours, theirs, rtol=FLOAT_RTOL, atol=0)
        assert np.array_equal(np.isinf(ours), np.isinf(theirs))
    else:
        np.testing.assert_array_equal(ours, theirs)


def check_predecessors(dist, pred, graph_dense):
    """Every predecessor is an edge that closes a shortest path; -9999 exactly where SciPy's."""
    n = dist.shape[0]
    assert pred.dtype == np.int32 and pred.shape == (n, n)
    none = pred == -9999
    assert np.array_equal(none, np.isinf(dist) | np.eye(n, dtype=bool))
    i, j = np.nonzero(~none)
    p = pred[i, j]
    w = graph_dense[p, j]
    assert np.all(np.isfinite(w))
    np.testing.assert_allclose(dist[i, p] + w, dist[i, j], rtol=1e-12)


def weights_of(csgraph):
    """The smallest weight of each edge as a dense float matrix, inf where none (for checks)."""
    if sp.issparse(csgraph):
        coo = sp.coo_matrix(csgraph)
        w = np.full(coo.shape, np.inf)
        np.minimum.at(w, (coo.row, coo.col), coo.data)
        return w
    a = np.asarray(csgraph, dtype=np.float64)
    return np.where((a == 0) | ~np.isfinite(a), np.inf, a)


@pytest.mark.parametrize("n", [1, 2, 37, 130])
@pytest.mark.parametrize("directed", [True, False])
def test_dense_integers_equal_scipy(n, directed, device):
    a = random_dense(n, seed=n)
    assert_same(
        apsp_lab.floyd_warshall(a, directed=directed, device=device),
        scipy_fw(a, directed=directed),
        device,
    )


@pytest.mark.parametrize(
    "dtype",
    [
        np.int8,
        np.int16,
        np.int32,
        np.uint8,
        np.uint16,
        np.uint32,
        np.uint64,
        np.float16,
        np.float32,
        np.float64,
        bool,
    ],
)
def test_every_dtype(dtype, device):
    a = random_dense(45, seed=4, wmax=5 if dtype in (np.int8, np.uint8) else 20).astype(dtype)
    assert_same(apsp_lab.floyd_warshall(a, device=device), scipy_fw(a), device)


def test_fortran_order_and_views(device):
    a = random_dense(50, seed=7)
    assert_same(apsp_lab.floyd_warshall(np.asfortranarray(a), device=device), scipy_fw(a), device)
    big = random_dense(120, seed=8)
    view = big[10:90:2, 5:85:2]  # strided, not contiguous
    assert_same(
        apsp_lab.floyd_warshall(view, device=device), scipy_fw(np.ascontiguousarray(view)), device
    )
    assert_same(apsp_lab.floyd_warshall(a.tolist(), device=device), scipy_fw(a), device)


def test_nan_and_inf_entries_are_no_edges(device):
    a = random_dense(40, seed=9).astype(np.float64)
    a[3, 4] = np.nan
    a[5, 6] = np.inf
    a[7, 8] = -np.inf
    assert_same(apsp_lab.floyd_warshall(a, device=device), scipy_fw(a), device)


def test_masked_arrays(device):
    a = random_dense(40, seed=10)
    rng = np.random.default_rng(1)
    m = np.ma.masked_array(a, mask=rng.random(a.shape) < 0.3)
    assert_same(apsp_lab.floyd_warshall(m, device=device), scipy_fw(m), device)


@pytest.mark.parametrize("fmt", ["csr", "csc", "lil", "csr_array"])
@pytest.mark.parametrize("directed", [True, False])
def test_sparse_with_explicit_zeros_and_duplicates(fmt, directed, device):
    g = random_sparse(90, seed=11, fmt=fmt)
    assert_same(
        apsp_lab.floyd_warshall(g, directed=directed, device=device),
        scipy_fw(g, directed=directed),
        device,
    )


def test_coo_input_keeps_its_entries():
    """SciPy refuses COO; we take its entries as stored (duplicates: the minimum), as for CSR."""
    g = random_sparse(60, seed=12)
    coo = g.tocoo()
    assert_same(apsp_lab.floyd_warshall(coo, device="cpu"), scipy_fw(g), "cpu")


@pytest.mark.parametrize("directed", [True, False])
def test_unweighted(directed, device):
    a = random_dense(70, seed=13)
    assert_same(
        apsp_lab.floyd_warshall(a, directed=directed, unweighted=True, device=device),
        scipy_fw(a, directed=directed, unweighted=True),
        device,
    )
    g = random_sparse(70, seed=14)
    assert_same(
        apsp_lab.floyd_warshall(g, directed=directed, unweighted=True, device=device),
        scipy_fw(g, directed=directed, unweighted=True),
        device,
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_float_weights(seed, device):
    rng = np.random.default_rng(seed)
    a = rng.random((80, 80)) * 10
    a[rng.random(a.shape) > 0.15] = 0
    assert_same(apsp_lab.floyd_warshall(a, device=device), scipy_fw(a), device, floats=True)
    g = random_sparse(80, seed=seed, floats=True)
    assert_same(apsp_lab.floyd_warshall(g, device=device), scipy_fw(g), device, floats=True)


def test_negative_weights_without_a_cycle(device):
    rng = np.random.default_rng(5)
    n = 60
    # A DAG (i < j only) with negative weights: no cycle at all.
    a = np.triu(rng.integers(-10, 20, size=(n, n)), 1).astype(np.float64)
    a[rng.random(a.shape) > 0.3] = 0
    ours, theirs = apsp_lab.floyd_warshall(a, device=device), scipy_fw(a)
    assert_same(ours, theirs, device)  # integer values: exact on every path


def test_negative_cycle_raises_scipys_error(device):
    a = np.array([[0, 1, 0], [0, 0, -3], [1, 0, 0]])  # the cycle 0 -> 1 -> 2 -> 0 weighs -1
    with pytest.raises(NegativeCycleError):
        apsp_lab.floyd_warshall(a, device=device)
    assert apsp_lab.NegativeCycleError is NegativeCycleError
    with pytest.raises(NegativeCycleError):  # an undirected negative edge is a cycle
        apsp_lab.floyd_warshall(np.array([[0, -1], [0, 0]]), directed=False, device=device)


@pytest.mark.parametrize("directed", [True, False])
def test_predecessors(directed, device):
    a = random_dense(64, seed=15)
    dist, pred = apsp_lab.floyd_warshall(
        a, directed=directed, return_predecessors=True, device=device
    )
    sd, spred = scipy_fw(a, directed=directed, return_predecessors=True)
    assert_same(dist, sd, device)
    w = weights_of(a)
    check_predecessors(dist, pred, w if directed else np.minimum(w, w.T))
    # Unique shortest paths (random real weights): the same predecessors as SciPy's.
    rng = np.random.default_rng(16)
    f = rng.random((50, 50))
    f[rng.random(f.shape) > 0.2] = 0
    d2, p2 = apsp_lab.floyd_warshall(f, return_predecessors=True, device=device)
    np.testing.assert_array_equal(p2, scipy_fw(f, return_predecessors=True)[1])


def test_predecessors_with_zero_weight_cycles(device):
    g = sp.csr_matrix(
        (np.array([1.0, 0, 0, 2, 0]), (np.array([0, 1, 2, 2, 3]), np.array([1, 2, 1, 3, 2]))),
        shape=(5, 5),
    )
    dist, pred = apsp_lab.floyd_warshall(g, return_predecessors=True, device=device)
    assert_same(dist, scipy_fw(g), device)
    check_predecessors(dist, pred, weights_of(g))


def test_integer_results_and_their_unreachable_value(device):
    a = random_dense(50, seed=17)
    want = scipy_fw(a)
    d32 = apsp_lab.floyd_warshall(a, dtype=np.int32, device=device)
    assert d32.dtype == np.int32
    np.testing.assert_array_equal(np.where(d32 == apsp_lab.INF32, np.inf, d32), want)
    d64 = apsp_lab.floyd_warshall(a, dtype=np.int64, device=device)
    assert d64.dtype == np.int64
    np.testing.assert_array_equal(np.where(d64 == apsp_lab.INF64, np.inf, d64), want)
    with pytest.raises(ValueError, match="integer weights"):
        apsp_lab.floyd_warshall(a + 0.5, dtype=np.int32, device=device)


def test_distances_past_int32(device):
    """A chain of weights 2^31 - 1: the distances need 64 bits, which the solver proves."""
    n = 6
    a = np.zeros((n, n), dtype=np.int64)
    for i in range(n - 1):
        a[i, i + 1] = 2**31 - 1
    sol = apsp_lab.solve(a, dtype=np.int64, device=device)
    assert sol.precision == "int64"
    assert sol.dist[0, n - 1] == (n - 1) * (2**31 - 1)
    assert_same(apsp_lab.floyd_warshall(a, device=device), scipy_fw(a), device)
    with pytest.raises(OverflowError):
        apsp_lab.floyd_warshall(a, dtype=np.int32, device=device)


def test_overwrite_writes_into_a_float64_c_array(device):
    a = random_dense(30, seed=18).astype(np.float64)
    want = scipy_fw(a)
    out = apsp_lab.floyd_warshall(a, overwrite=True, device=device)
    assert out is a
    assert_same(a, want, device)
    b = random_dense(30, seed=18)  # not float64: a new array, the input untouched
    kept = b.copy()
    assert apsp_lab.floyd_warshall(b, overwrite=True, device=device) is not b
    np.testing.assert_array_equal(b, kept)


def test_empty_graph(device):
    assert apsp_lab.floyd_warshall(np.zeros((0, 0)), device=device).shape == (0, 0)


def test_scipys_errors_on_bad_shapes():
    with pytest.raises(ValueError, match="graph should be a square array"):
        apsp_lab.floyd_warshall(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="graph should have two dimensions"):
        apsp_lab.floyd_warshall(np.zeros(3))
    with pytest.raises(ValueError, match="graph should have two dimensions"):
        apsp_lab.floyd_warshall(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="csgraph should be a square matrix"):
        apsp_lab.floyd_warshall(sp.csr_matrix(np.ones((2, 3))))
    with pytest.raises(TypeError):  # SciPy's: NumPy's comparison of strings with 0.0
        apsp_lab.floyd_warshall(np.array([["a", "b"], ["c", "d"]]))
    with pytest.raises(ValueError, match="device"):
        apsp_lab.floyd_warshall(np.zeros((2, 2)), device="tpu")
    with pytest.raises(ValueError, match="dtype"):
        apsp_lab.floyd_warshall(np.zeros((2, 2)), dtype=np.float32)


def test_solution_says_how_it_was_solved(device):
    sol = apsp_lab.solve(random_dense(20, seed=19), device=device)
    assert sol.precision in ("u16x2", "int32")
    assert sol.solved_with
    assert all(isinstance(ms, float) for _, ms in sol.timing_ms)
    f = apsp_lab.solve(np.array([[0, 0.5], [0.25, 0]]), device=device)
    assert f.precision == "float64"
