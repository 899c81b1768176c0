"""Device arrays of every numeric dtype (CuPy, PyTorch, JAX) solved on their GPU with SciPy's
conventions: integer dtypes into int32 (INF32: no path), floating ones into float64 (inf: no
path), exactly where every weight is an integer in [0, INF32), else on the float64 path (negative
weights and cycles too, and wide integers' weights past INF32); bool and complex refused with one
TypeError. Against SciPy, and the host's solve, on a host copy."""

import apsp_lab
import numpy as np
import pytest
from scipy.sparse.csgraph import NegativeCycleError
from scipy.sparse.csgraph import bellman_ford as scipy_bellman_ford
from scipy.sparse.csgraph import floyd_warshall as scipy_fw
from test_floyd_warshall import FLOAT_RTOL, random_dense
from test_scipy_entry_points import negative_graph

INF = apsp_lab.INF32
INTEGERS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]


@pytest.fixture(params=["cupy", "torch", "jax"])
def xp(request):
    module = pytest.importorskip(request.param)
    if request.param == "jax" and module.default_backend() != "gpu":
        pytest.skip("JAX without its CUDA backend")
    return module


def to_device(xp, a, dtype):
    name = xp.__name__
    if name == "torch":
        if not hasattr(xp, dtype) or dtype in ("uint16", "uint32", "uint64"):
            pytest.skip(f"torch's {dtype} is missing or a shell dtype (no conversions)")
        return xp.tensor(a.astype(np.float64), device="cuda").to(getattr(xp, dtype))
    if name == "jax":
        import jax.numpy as jnp

        if dtype == "bfloat16":
            return jnp.asarray(a, dtype=jnp.bfloat16)
        return jnp.asarray(a, dtype=dtype)
    if dtype == "bfloat16":
        pytest.skip("CuPy has no bfloat16")
    return xp.asarray(a, dtype=dtype)


def to_host(x):
    if hasattr(x, "cpu"):
        return x.cpu().numpy()
    if hasattr(x, "get"):
        return x.get()
    return np.asarray(x)


def dtype_name(x):
    return str(x.dtype).rsplit(".", 1)[-1]


@pytest.mark.parametrize("dtype", INTEGERS)
@pytest.mark.parametrize("directed", [True, False])
def test_integer_dtypes_solve_exactly_into_int32(xp, dtype, directed):
    a = random_dense(90, seed=3, wmax=20)
    x = to_device(xp, a, dtype)
    d = apsp_lab.floyd_warshall(x, directed=directed)
    assert dtype_name(d) == "int32" and tuple(d.shape) == (90, 90)
    theirs = scipy_fw(a, directed=directed)
    np.testing.assert_array_equal(to_host(d), np.where(np.isinf(theirs), INF, theirs))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("directed", [True, False])
def test_floating_dtypes_with_integer_weights_solve_exactly_into_float64(xp, dtype, directed):
    a = random_dense(90, seed=4, wmax=20).astype(np.float64)
    a[0, 1], a[2, 3] = np.nan, np.inf  # no edges, as SciPy reads them
    x = to_device(xp, a, dtype)
    sol = apsp_lab.solve(x, directed=directed)
    assert dtype_name(sol.dist) == "float64" and sol.precision != "float64"
    np.testing.assert_array_equal(to_host(sol.dist), scipy_fw(a, directed=directed))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fractional_and_negative_weights_take_the_float64_path(xp, dtype):
    rng = np.random.default_rng(5)
    a = random_dense(120, seed=5, wmax=20).astype(np.float64)
    a = np.where(a > 0, a + rng.random(a.shape), 0)  # every weight at least 1, most fractional
    a[3, 4] = -0.5  # negative, on no negative cycle: every other edge weighs at least 1
    a = a.astype(dtype).astype(np.float64)  # the values the device array holds
    sol = apsp_lab.solve(to_device(xp, a, dtype))
    assert sol.precision == "float64" and dtype_name(sol.dist) == "float64"
    theirs = scipy_fw(a)
    ours = to_host(sol.dist)
    assert np.array_equal(np.isinf(ours), np.isinf(theirs))
    np.testing.assert_allclose(ours, theirs, rtol=FLOAT_RTOL, atol=1e-12)


def test_a_negative_cycle_raises(xp):
    a = np.array([[0, 1.5, 0], [0, 0, -2.0], [0, 0.25, 0]])
    with pytest.raises(NegativeCycleError):
        apsp_lab.floyd_warshall(to_device(xp, a, "float64"))


def test_float64_in_place_and_other_dtypes_into_new_arrays(xp):
    if xp.__name__ == "jax":
        pytest.skip("JAX arrays are never changed in place")
    a = random_dense(70, seed=6, wmax=9).astype(np.float64)
    x = to_device(xp, a, "float64")
    assert apsp_lab.floyd_warshall(x, overwrite=True) is x
    np.testing.assert_array_equal(to_host(x), scipy_fw(a))
    y = to_device(xp, a, "float32")
    d = apsp_lab.floyd_warshall(y, overwrite=True)
    assert d is not y and dtype_name(d) == "float64"
    np.testing.assert_array_equal(to_host(y), a.astype(np.float32))


def test_bool_and_complex_are_refused(xp):
    a = np.zeros((3, 3))
    x = to_device(xp, a, "float32")
    flags = x.bool() if hasattr(x, "bool") else x.astype("bool")
    with pytest.raises(TypeError, match="bool"):
        apsp_lab.floyd_warshall(flags)
    z = x.to(xp.complex64) if hasattr(x, "to") else x.astype("complex64")
    with pytest.raises(TypeError, match="complex"):
        apsp_lab.floyd_warshall(z)


def test_shortest_path_rows_of_a_device_array(xp):
    a = random_dense(60, seed=7, wmax=9).astype(np.float32)
    x = to_device(xp, a, "float32")
    d = apsp_lab.shortest_path(x, indices=[5, 0])
    assert tuple(d.shape) == (2, 60)
    np.testing.assert_array_equal(to_host(d), scipy_fw(a)[[5, 0]])
    d = apsp_lab.dijkstra(x, indices=3)
    assert tuple(d.shape) == (60,)


def to_device_exactly(xp, a, dtype):
    x = to_device(xp, a, dtype)
    if dtype_name(x) != dtype:
        pytest.skip(f"{xp.__name__} holds {dtype} as {dtype_name(x)} (JAX without x64)")
    return x


def as_int32(scipys):
    return np.where(np.isinf(scipys), INF, scipys)


@pytest.mark.parametrize("dtype", ["int64", "uint32", "uint64"])
def test_wide_integer_weights_past_inf32_are_weights_as_on_the_host(xp, dtype):
    a = np.zeros((6, 6), dtype=np.int64)
    a[0, 1], a[0, 2], a[2, 1], a[1, 3] = 2**31, 3, 4, 1  # 0 -> 1 through 2: 7, not 2^31
    a[0, 3], a[4, 5] = INF, 2  # 0 -> 3 through 1: 8, not INF32
    d = apsp_lab.floyd_warshall(to_device_exactly(xp, a, dtype))
    assert dtype_name(d) == "int32"
    np.testing.assert_array_equal(to_host(d), as_int32(scipy_fw(a)))
    # A weight past INF32 that a shortest path takes: past int32's distances, as on the host.
    for u, v, w in ((3, 4, INF), (3, 4, 2**31)):
        b = a.copy()
        b[u, v] = w
        assert np.isfinite(scipy_fw(b)[u, v])
        with pytest.raises(OverflowError):
            apsp_lab.floyd_warshall(to_device_exactly(xp, b, dtype))
        with pytest.raises((OverflowError, ValueError)):
            apsp_lab.floyd_warshall(b, device="cpu", dtype=np.int32)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_negative_integer_weights_take_the_float64_path(xp, dtype):
    a = negative_graph(cycle=False)
    sol = apsp_lab.solve(to_device_exactly(xp, a, dtype))
    assert sol.precision == "float64" and dtype_name(sol.dist) == "int32"
    np.testing.assert_array_equal(to_host(sol.dist), as_int32(scipy_fw(a)))
    cycle = negative_graph(cycle=True)
    with pytest.raises(NegativeCycleError):
        apsp_lab.floyd_warshall(to_device_exactly(xp, cycle, dtype))
    with pytest.raises(NegativeCycleError) as theirs:
        scipy_bellman_ford(cycle, indices=[2, 6])
    with pytest.raises(NegativeCycleError) as ours:
        apsp_lab.bellman_ford(to_device_exactly(xp, cycle, dtype), indices=[2, 6])
    assert str(ours.value) == str(theirs.value)
    d = apsp_lab.bellman_ford(to_device_exactly(xp, cycle, dtype), indices=[8, 9])
    np.testing.assert_array_equal(to_host(d), as_int32(scipy_bellman_ford(cycle, indices=[8, 9])))


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_the_entry_points_negative_rules_on_device_arrays(xp, dtype):
    loop = np.array([[0, 1, 0], [0, -1, 1], [0, 0, 0]])
    for name in ("bellman_ford", "johnson"):  # the host's messages (bellman_ford's are SciPy's)
        with pytest.raises(NegativeCycleError) as on_host:
            getattr(apsp_lab, name)(loop, device="cpu")
        with pytest.raises(NegativeCycleError) as ours:
            getattr(apsp_lab, name)(to_device_exactly(xp, loop, dtype))
        assert str(ours.value) == str(on_host.value)
    x = to_device_exactly(xp, negative_graph(cycle=False), dtype)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        with pytest.raises(NotImplementedError, match="device array"):
            apsp_lab.dijkstra(x)
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        apsp_lab.dijkstra(x, unweighted=True)
