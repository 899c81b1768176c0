"""test_floyd_warshall.py's tests on the GPU (device="cuda"), and what only the GPU path does:
sizes past the tiles of every variant, the 16-bit path's proof and its fallback, "auto"."""

import apsp_lab
import numpy as np
import pytest
from scipy.sparse.csgraph import floyd_warshall as scipy_fw
from test_floyd_warshall import *  # noqa: F401,F403 (the same tests, device = "cuda" below)
from test_floyd_warshall import assert_same, random_dense


@pytest.fixture
def device():
    return "cuda"


@pytest.mark.parametrize("n", [129, 257, 1000])
def test_sizes_past_the_tiles(n):
    a = random_dense(n, seed=n, density=0.05, wmax=1000)
    sol = apsp_lab.solve(a, device="cuda")
    assert sol.solved_with != "cpu"
    assert_same(sol.dist, scipy_fw(a), "cuda")


def test_auto_takes_the_gpu_and_16_bits_where_they_prove_it():
    a = random_dense(300, seed=21, density=0.3, wmax=3)
    sol = apsp_lab.solve(a)
    assert sol.solved_with.startswith("sm90_u16") and sol.precision == "u16x2"
    assert_same(sol.dist, scipy_fw(a), "cuda")
    # Distances past 16 bits: the proof fails, the solve runs again in int32.
    n = 400
    chain = np.zeros((n, n), dtype=np.int64)
    chain[np.arange(n - 1), np.arange(1, n)] = 200
    sol = apsp_lab.solve(chain)
    assert sol.precision == "int32", sol.log
    assert sol.dist[0, n - 1] == 200 * (n - 1)


def test_float64_on_the_gpu_is_the_blocked_64_bit_kernel():
    rng = np.random.default_rng(22)
    f = rng.random((333, 333))
    f[rng.random(f.shape) > 0.05] = 0
    sol = apsp_lab.solve(f, device="cuda")
    assert sol.precision == "float64" and sol.solved_with.startswith("blocked_i64")
    assert_same(sol.dist, scipy_fw(f), "cuda", floats=True)
