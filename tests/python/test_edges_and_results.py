"""apsp_lab.solve_edges (the lab's edge-list conventions), variants(), read_results() on the
checked-in results files, and bench()'s refusals; all without a GPU."""

import os

import apsp_lab
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures")


def reference(n, src, dst, w):
    """SciPy's distances of the edges: the smallest weight of each, zeros kept as edges."""
    d = np.full((n, n), np.inf)
    np.minimum.at(d, (src, dst), w)
    i, j = np.nonzero(np.isfinite(d) & ~np.eye(n, dtype=bool))
    return scipy_fw(sp.csr_matrix((d[i, j], (i, j)), shape=(n, n)))


def test_solve_edges_keeps_the_smallest_duplicate_and_ignores_self_loops():
    rng = np.random.default_rng(3)
    n, m = 70, 600
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0, 30, m)  # zero weights too
    d = apsp_lab.solve_edges(n, src, dst, w, device="cpu")
    assert (w == 0).any() and (src == dst).any()
    np.testing.assert_array_equal(d, reference(n, src, dst, w))
    und = apsp_lab.solve_edges(n, src, dst, w, directed=False, device="cpu")
    np.testing.assert_array_equal(und, reference(n, np.r_[src, dst], np.r_[dst, src], np.r_[w, w]))
    ones = apsp_lab.solve_edges(n, src, dst, device="cpu")  # weight None: every edge 1
    np.testing.assert_array_equal(ones, reference(n, src, dst, np.ones(m)))
    d32 = apsp_lab.solve_edges(n, src, dst, w, device="cpu", dtype=np.int32)
    np.testing.assert_array_equal(np.where(d32 == apsp_lab.INF32, np.inf, d32), d)


def test_solve_edges_refusals():
    with pytest.raises(ValueError, match="outside"):
        apsp_lab.solve_edges(3, [0, 3], [1, 0], [1, 1])
    with pytest.raises(ValueError):
        apsp_lab.solve_edges(3, [0, 1], [1], [1, 1])
    with pytest.raises(ValueError):
        apsp_lab.solve_edges(-1, [], [])
    with pytest.raises(apsp_lab.NegativeCycleError):
        apsp_lab.solve_edges(2, [0, 1], [1, 0], [1, -2])


def test_variants_are_the_registry():
    vs = apsp_lab.variants()
    names = [v["name"] for v in vs]
    assert names[0] == "naive" and "sm90" in names and "blocked_i64" in names
    sm90 = next(v for v in vs if v["name"] == "sm90")
    assert sm90["precision"] == "int32" and sm90["multi_gpu"]
    assert set(sm90["defaults"]) == set(sm90["space"])
    assert sm90["default_config"].startswith("sm90[")


def test_read_results_as_dicts_and_as_a_frame():
    path = os.path.join(FIXTURES, "h200_bench.json")
    runs = apsp_lab.read_results(path, frame=False)
    assert len(runs) == 18 and runs.context["device"]["name"] == "NVIDIA H200"
    assert {"variant", "n", "median_ms", "speedup_vs_naive"} <= set(runs[0])
    pd = pytest.importorskip("pandas")
    df = apsp_lab.read_results(path, frame=True)
    assert isinstance(df, pd.DataFrame) and len(df) == 18
    assert df.attrs["context"]["device"]["name"] == "NVIDIA H200"


def test_read_results_refuses_what_apsp_report_refuses(tmp_path):
    with pytest.raises(RuntimeError, match="corrupt_n.json"):
        apsp_lab.read_results(os.path.join(FIXTURES, "corrupt_n.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(RuntimeError, match="bad.json"):
        apsp_lab.read_results(bad)


def test_bench_without_a_device_or_with_bad_options():
    with pytest.raises(ValueError):
        apsp_lab.bench([1000, 1000], variants="sm90")  # a size twice
    with pytest.raises(ValueError):
        apsp_lab.bench([1000], variants="no_such_variant")
    if not apsp_lab.cuda_available():
        with pytest.raises(RuntimeError, match="no CUDA device"):
            apsp_lab.bench([100], variants="sm90")
