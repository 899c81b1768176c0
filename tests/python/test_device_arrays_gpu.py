"""Device arrays (DLPack: CuPy, PyTorch, JAX) solved on their GPU, in place or into a new array
of their framework, against SciPy on a host copy; the producer's stream; the refusals."""

import apsp_lab
import numpy as np
import pytest
from scipy.sparse.csgraph import floyd_warshall as scipy_fw
from test_floyd_warshall import random_dense

INF = apsp_lab.INF32


def expected(a, **kw):
    d = scipy_fw(np.where(a >= INF, 0, a), **kw)  # entries >= INF32: no edge, as 0
    return np.where(np.isinf(d), INF, d).astype(np.int32)


@pytest.fixture(params=["cupy", "torch"])
def xp(request):
    return pytest.importorskip(request.param)


def to_device(xp, a):
    if xp.__name__ == "torch":
        return xp.tensor(a, dtype=xp.int32, device="cuda")
    return xp.asarray(a, dtype=xp.int32)


def to_host(x):
    return x.cpu().numpy() if hasattr(x, "cpu") else x.get()


@pytest.mark.parametrize("n", [1, 77, 300, 1025])
@pytest.mark.parametrize("directed", [True, False])
def test_new_array_of_the_same_framework(xp, n, directed):
    a = random_dense(n, seed=n, dtype=np.int32)
    a[0, -1] = INF  # the unreachable value reads as no edge
    x = to_device(xp, a)
    d = apsp_lab.floyd_warshall(x, directed=directed)
    assert type(d) is type(x) and d.dtype == x.dtype and tuple(d.shape) == (n, n)
    np.testing.assert_array_equal(to_host(d), expected(a, directed=directed))
    np.testing.assert_array_equal(to_host(x), a)  # the input untouched


def test_in_place(xp):
    a = random_dense(513, seed=5, dtype=np.int32)
    x = to_device(xp, a)
    assert apsp_lab.floyd_warshall(x, overwrite=True) is x
    np.testing.assert_array_equal(to_host(x), expected(a))
    assert_unweighted = apsp_lab.floyd_warshall(to_device(xp, a), unweighted=True)
    np.testing.assert_array_equal(to_host(assert_unweighted), expected(a, unweighted=True))


def test_a_view_with_rows_farther_apart(xp):
    big = random_dense(400, seed=6, dtype=np.int32)
    x = to_device(xp, big)[:300, :300]  # rows 400 apart
    np.testing.assert_array_equal(to_host(apsp_lab.floyd_warshall(x)), expected(big[:300, :300]))


def test_the_producers_current_stream():
    torch = pytest.importorskip("torch")
    a = random_dense(700, seed=7, dtype=np.int32)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        # Made on s: the solve must wait for it on s, not on the default stream.
        x = torch.tensor(a, device="cuda").to(torch.int32) * 1
        d = apsp_lab.floyd_warshall(x)
    np.testing.assert_array_equal(d.cpu().numpy(), expected(a))
    cupy = pytest.importorskip("cupy")
    cs = cupy.cuda.Stream(non_blocking=True)
    with cs:
        y = cupy.asarray(a) * 1
    np.testing.assert_array_equal(apsp_lab.floyd_warshall(y, stream=cs).get(), expected(a))


def test_jax_arrays():
    jnp = pytest.importorskip("jax.numpy")
    a = random_dense(200, seed=8, dtype=np.int32)
    x = jnp.asarray(a)
    if x.devices().pop().platform != "gpu":
        pytest.skip("JAX has no GPU here")
    d = apsp_lab.floyd_warshall(x)
    np.testing.assert_array_equal(np.asarray(d), expected(a))


def test_refusals(xp):
    x = to_device(xp, np.array([[0, -1], [2, 0]], dtype=np.int32))
    # Not a refusal: a negative weight takes the float64 path (test_device_dtypes_gpu.py).
    np.testing.assert_array_equal(to_host(apsp_lab.floyd_warshall(x)), [[0, -1], [2, 0]])
    y = to_device(xp, np.zeros((3, 3), dtype=np.int32))
    with pytest.raises(ValueError, match="predecessors"):
        apsp_lab.floyd_warshall(y, return_predecessors=True)
    with pytest.raises(ValueError, match="cpu"):
        apsp_lab.floyd_warshall(y, device="cpu")
    b = y.bool() if hasattr(y, "bool") else y.astype("bool")
    with pytest.raises(TypeError, match="bool"):
        apsp_lab.floyd_warshall(b)  # other dtypes: test_device_dtypes_gpu.py
