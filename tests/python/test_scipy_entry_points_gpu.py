"""test_scipy_entry_points.py's tests on the GPU (device="cuda"), and the rows of a host array
solved there: only the rows asked for leave the GPU (harness/solve/array_solve.cpp's
rows_from_device), which must be the rows SciPy gives, in the order and shape asked."""

import apsp_lab
import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from apsp_lab._scipy import _rows_asked, _solve_rows
from test_floyd_warshall import random_dense
from test_scipy_entry_points import *  # noqa: F401,F403 (the same tests, on the GPU below)


@pytest.fixture
def device():
    return "cuda"


ROWS = [[999, 0, 0, 517], np.array([[5, 1], [998, 3]]), -1, 7, []]


@pytest.mark.parametrize("indices", ROWS, ids=["list", "2-D", "negative", "scalar", "empty"])
@pytest.mark.parametrize("name", ["dijkstra", "bellman_ford", "johnson", "shortest_path"])
def test_the_rows_of_a_host_array_solved_on_the_gpu(name, indices):
    graph = random_dense(1000, seed=21, wmax=50)
    ours = getattr(apsp_lab, name)(graph, indices=indices, device="cuda")
    theirs = getattr(csgraph, name)(graph, indices=indices)
    assert type(ours) is np.ndarray and ours.dtype == np.float64 and ours.flags.c_contiguous
    np.testing.assert_array_equal(ours, theirs)


def test_the_rows_come_from_the_result_on_the_gpu():
    # Integer weights: the Solver's int32 result, which stays on the GPU but for the rows asked.
    graph = random_dense(700, seed=22, wmax=50)
    rows, _ = _rows_asked([699, 3, 3, 0], 700)
    sol = _solve_rows(graph, rows, True, False, False, "cuda", 0)
    assert sol.precision != "float64" and sol.solved_with != "cpu"
    assert sol.dist.shape == (4, 700)
    np.testing.assert_array_equal(sol.dist, csgraph.floyd_warshall(graph)[[699, 3, 3, 0]])
    # Undirected and unweighted on the same path.
    for kw in ({"directed": False}, {"unweighted": True}):
        ours = apsp_lab.dijkstra(graph, indices=[10, 600], device="cuda", **kw)
        np.testing.assert_array_equal(ours, csgraph.dijkstra(graph, indices=[10, 600], **kw))
