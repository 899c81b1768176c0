"""All-pairs shortest paths on the GPU, from Python: the APSP kernel lab's solver.

    >>> import numpy as np, apsp_lab
    >>> apsp_lab.floyd_warshall(np.array([[0, 4, 7], [0, 0, 1], [0, 0, 0]]))
    array([[ 0.,  4.,  5.],
           [inf,  0.,  1.],
           [inf, inf,  0.]])

- ``floyd_warshall``: a drop-in for ``scipy.sparse.csgraph.floyd_warshall`` (same inputs,
  conventions, dtypes and errors), exact for integer weights, on the GPU when there is one.
- ``shortest_path``, ``dijkstra``, ``bellman_ford``, ``johnson``: SciPy's other entry points,
  answered by the same solve (``indices``: only those rows leave it).
- ``solve``: the same solve, returning a ``Solution`` that also says how it was solved.
- Device arrays (CuPy, PyTorch, JAX; anything with ``__dlpack__``) of int32 are solved on
  their GPU, in place or into a new array, without a copy through the host.
- ``floyd_warshall_batch``: many small graphs at once (PyG's ``edge_index`` and ``ptr``, or a
  list of matrices), distances in the narrowest exact integer dtype.
- ``bench``, ``variants``, ``read_results``: the lab's benchmark harness.
- A NetworkX backend, ``backend="apsp_lab"`` (``apsp_lab.nx_backend``).

Reference: docs/python.md in the repository. Importing this package loads neither the compiled
core nor CUDA: the first call that needs them does.
"""

from ._api import (
    INF32,
    INF64,
    Solution,
    cuda_available,
    device_info,
    floyd_warshall,
    solve,
    solve_edges,
)
from ._batch import floyd_warshall_batch
from ._bench import bench, read_results, variants
from ._scipy import bellman_ford, dijkstra, johnson, shortest_path

__all__ = [
    "INF32",
    "INF64",
    "NegativeCycleError",
    "Solution",
    "bellman_ford",
    "bench",
    "cuda_available",
    "device_info",
    "dijkstra",
    "floyd_warshall",
    "floyd_warshall_batch",
    "johnson",
    "read_results",
    "shortest_path",
    "solve",
    "solve_edges",
    "variants",
]

__version__ = "0.1.0"


def __getattr__(name):
    # SciPy's NegativeCycleError when SciPy is installed (so that `except` clauses written for
    # SciPy catch ours), made on first use: importing SciPy takes longer than this package.
    if name == "NegativeCycleError":
        from ._api import negative_cycle_error

        return negative_cycle_error()
    raise AttributeError(f"module 'apsp_lab' has no attribute {name!r}")
