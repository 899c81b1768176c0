"""shortest_path, dijkstra, bellman_ford and johnson: SciPy's other entry points, answered by the
all-pairs solve.

Each takes what its SciPy namesake takes and returns the same shapes and dtypes; `indices` picks
rows of the result (only those rows leave the solve: harness/solve/array_solve.hpp's rows). The
methods differ in SciPy only where the weights are negative, so that is where these differ from
each other too: dijkstra hands negative weights to SciPy's own dijkstra (whose result is the
order its heap met the vertices in, not a shortest path), bellman_ford raises for a negative cycle
reachable from a source, johnson for any negative cycle, both with SciPy's message.
"""

import warnings

import numpy as np

from . import _api

_NO_PREDECESSOR = -9999
_DIJKSTRA_NEGATIVE = (
    "Graph has negative weights: dijkstra will give inaccurate results if the graph contains "
    "negative cycles. Consider johnson or bellman_ford."
)


def _order(csgraph):
    """The graph's vertex count, after SciPy's checks of its shape (validate_graph's)."""
    if _api._is_scipy_sparse(csgraph):
        if csgraph.ndim != 2:
            raise ValueError("compressed-sparse graph must be 2-D")
        if csgraph.shape[0] != csgraph.shape[1]:
            raise ValueError("compressed-sparse graph must be shape (N, N)")
        return int(csgraph.shape[0])
    shape = tuple(csgraph.shape) if hasattr(csgraph, "shape") else np.shape(csgraph)
    if len(shape) != 2:
        raise ValueError("graph should have two dimensions")
    if shape[0] != shape[1]:
        raise ValueError("graph should be a square array")
    return int(shape[0])


def _rows_asked(indices, n):
    """SciPy's reading of `indices`: the rows (negative ones counted from the end) and the shape
    of the result (indices' shape + (n,)); ValueError for one out of range."""
    if indices is None:
        return None, (n, n)
    rows = np.array(indices, order="C", dtype=np.int32, copy=True)
    shape = rows.shape + (n,)
    rows = np.atleast_1d(rows).reshape(-1)
    rows[rows < 0] += n
    if np.any(rows < 0) or np.any(rows >= n):
        raise ValueError("indices out of range 0...N")
    return rows, shape


def _edge_values(csgraph):
    """Every entry SciPy reads as an edge, self loops included (as a float64 array)."""
    if _api._is_scipy_sparse(csgraph):
        return np.asarray(csgraph.tocoo().data, dtype=np.float64)
    if np.ma.isMaskedArray(csgraph):
        return np.asarray(csgraph.compressed(), dtype=np.float64)
    a = np.asarray(csgraph, dtype=np.float64)
    return a[np.isfinite(a) & (a != 0)]


def _negative_self_loops(csgraph):
    """The vertices with a self loop of negative weight: the solve ignores self loops (SciPy's
    floyd_warshall does), SciPy's other methods take each as a negative cycle."""
    if _api._is_scipy_sparse(csgraph):
        coo = csgraph.tocoo()
        data = np.asarray(coo.data, dtype=np.float64)
        loops = (coo.row == coo.col) & (data < 0) & np.isfinite(data)
        return np.unique(coo.row[loops])
    if np.ma.isMaskedArray(csgraph):
        diagonal = np.ma.getdata(csgraph).diagonal().astype(np.float64)
        diagonal[np.ma.getmaskarray(csgraph).diagonal()] = 0
    else:
        diagonal = np.asarray(np.diagonal(np.asarray(csgraph)), dtype=np.float64)
    return np.flatnonzero((diagonal < 0) & np.isfinite(diagonal))


def _solve_rows(csgraph, rows, directed, predecessors, unweighted, device, threads):
    """The solve (the float64 result) of `rows` only (None: every row); does not raise on a
    negative cycle (the Solution says)."""
    _api._check_device(device)
    args = (bool(directed), bool(predecessors), bool(unweighted))
    chosen = () if rows is None else rows.tolist()
    if np.ma.isMaskedArray(csgraph):
        # SciPy's methods but floyd_warshall read every entry not masked as an edge, zeros too
        # (csgraph_from_masked), as the sparse conventions do.
        i, j = np.nonzero(~np.ma.getmaskarray(csgraph))
        values = np.asarray(np.ma.getdata(csgraph)[i, j], dtype=np.float64)
        n = csgraph.shape[0]
        return _api._edges(n, i, j, values, *args, device, "float64", "auto", threads, chosen)
    if _api._is_scipy_sparse(csgraph):
        return _api._solve_sparse(csgraph, *args, device, "float64", "auto", threads, chosen)
    return _api._solve_dense(csgraph, *args, False, device, "float64", "auto", threads, chosen)


def _on_device(csgraph, rows, shape, predecessors, directed, unweighted, method):
    """A device array: the device solve (docs/python.md: integer dtypes into int32, floating
    ones into float64), `method`'s rule for negative weights and cycles as on the host, with
    SciPy's messages, the rows chosen where the result is."""
    if predecessors:
        raise ValueError("return_predecessors: not for device arrays (solve a host array)")
    negative = method == "dijkstra" and _device_has_negative(csgraph)
    if negative:
        warnings.warn(_DIJKSTRA_NEGATIVE, stacklevel=3)
    sol = _api.solve(csgraph, directed, False, unweighted)
    cycle = np.zeros(0, dtype=np.int64)
    if not unweighted:
        found = np.asarray(sol.negative_cycle, dtype=np.int64)
        cycle = np.union1d(found, _device_negative_self_loops(csgraph))
    if method == "bellman_ford":
        source = _device_reaching_source(sol.dist, rows, cycle)
        if source is not None:
            raise _api.negative_cycle_error()(f"Negative cycle detected on node {source}")
    elif method == "johnson" and len(cycle):
        raise _api.negative_cycle_error()(f"Negative cycle detected on node {int(cycle[0])}")
    elif negative and not unweighted:
        _refuse_negative_cycle(cycle)
        raise NotImplementedError(
            "dijkstra with negative weights on a device array: SciPy's result is the order its "
            "heap met the vertices in, which only SciPy's own dijkstra gives (on a host copy), "
            "not a shortest path; johnson or bellman_ford answer these graphs"
        )
    if rows is None:
        return sol.dist
    return _take_rows(sol.dist, rows).reshape(shape)


def _device_host(x):
    """A small device array (a diagonal, a few columns of a result) as NumPy float64."""
    framework = _api._framework(x)
    if framework == "torch":
        import torch

        return x.detach().to(torch.float64).cpu().numpy()
    if framework == "cupy":
        return x.astype("float64").get()
    return np.asarray(x).astype(np.float64)


def _unsigned(x):
    return _api._dtype_name(x).startswith("uint")


def _device_negative_self_loops(x):
    """_negative_self_loops of a device array, from a host copy of its diagonal alone."""
    if _unsigned(x):
        return np.zeros(0, dtype=np.int64)
    diagonal = _device_host(x.diagonal())
    return np.flatnonzero((diagonal < 0) & np.isfinite(diagonal))


def _device_has_negative(x):
    """Whether SciPy's dijkstra sees a negative weight in a device array (a reduction there)."""
    return not _unsigned(x) and bool(((x < 0) & (x > -np.inf)).any())


def _device_reaching_source(dist, rows, cycle):
    """_reaching_source on a device result (int32 ones: INF32 for no path), from a host copy of
    its columns `cycle` in the rows asked."""
    if not len(cycle):
        return None
    chosen = dist if rows is None else _take_rows(dist, rows)
    columns = _device_host(_take_rows(chosen.T, cycle)).T
    if _api._dtype_name(dist) == "int32":
        columns[columns == _api.INF32] = np.inf
    return _first_reaching(columns, rows)


def _take_rows(dist, rows):
    """dist[rows] on the device, the index an array of dist's own framework."""
    framework = _api._framework(dist)
    if framework == "torch":
        import torch

        return dist[torch.as_tensor(rows, dtype=torch.int64, device=dist.device)]
    if framework == "cupy":
        import cupy

        return dist[cupy.asarray(rows)]
    if framework in ("jax", "jaxlib"):
        import jax.numpy as jnp

        return dist[jnp.asarray(rows)]
    return dist[rows]


def _shaped(sol, shape, predecessors):
    dist = sol.dist.reshape(shape)
    if predecessors:
        return dist, sol.predecessors.reshape(shape)
    return dist


def _cycle_vertices(sol, csgraph, unweighted):
    """The vertices on negative cycles: the solve's, and those of negative self loops."""
    if unweighted:
        return np.zeros(0, dtype=np.int64)
    found = np.asarray(sol.negative_cycle, dtype=np.int64)
    return np.union1d(found, _negative_self_loops(csgraph))


def _reaching_source(sol, rows, cycle):
    """The first source (in the order asked) from which a vertex of `cycle` is reachable; None."""
    if not len(cycle):
        return None
    dist = sol.dist
    if dist.ndim == 1:
        dist = dist[None, :]
    return _first_reaching(dist[:, cycle], rows)


def _first_reaching(columns, rows):
    """The source of the first row of `columns` (distances to a cycle's vertices) with an entry
    not +inf; None."""
    # Not +inf: a negative cycle's entries may be NaN (-inf + inf), which reach it too.
    reaches = np.any(~np.isposinf(columns), axis=1)
    if not reaches.any():
        return None
    k = int(np.argmax(reaches))
    return k if rows is None else int(rows[k])


def _empty(shape, predecessors):
    dist = np.full(shape, np.inf)
    if predecessors:
        return dist, np.full(shape, _NO_PREDECESSOR, dtype=np.int32)
    return dist


def bellman_ford(
    csgraph,
    directed=True,
    indices=None,
    return_predecessors=False,
    unweighted=False,
    *,
    device="auto",
    threads=0,
):
    """scipy.sparse.csgraph.bellman_ford, on the all-pairs solve.

    SciPy's arguments, shapes and dtypes. Raises NegativeCycleError ("Negative cycle detected on
    node s", s the first of the sources that reaches one) when a negative cycle is reachable from
    a source asked for; a negative self loop is such a cycle, as in SciPy. `device`, `threads`:
    as floyd_warshall's.
    """
    n = _order(csgraph)
    rows, shape = _rows_asked(indices, n)
    if _api._on_cuda(csgraph):
        return _on_device(
            csgraph, rows, shape, return_predecessors, directed, unweighted, "bellman_ford"
        )
    if rows is not None and rows.size == 0:
        return _empty(shape, return_predecessors)
    sol = _solve_rows(csgraph, rows, directed, return_predecessors, unweighted, device, threads)
    source = _reaching_source(sol, rows, _cycle_vertices(sol, csgraph, unweighted))
    if source is not None:
        raise _api.negative_cycle_error()(f"Negative cycle detected on node {source}")
    return _shaped(sol, shape, return_predecessors)


def johnson(
    csgraph,
    directed=True,
    indices=None,
    return_predecessors=False,
    unweighted=False,
    *,
    device="auto",
    threads=0,
):
    """scipy.sparse.csgraph.johnson, on the all-pairs solve.

    SciPy's arguments, shapes and dtypes. Raises NegativeCycleError ("Negative cycle detected on
    node v") for a negative cycle anywhere in the graph, a negative self loop included; v is the
    smallest vertex on one (SciPy names the vertex its Bellman-Ford pass stopped at). With
    unweighted=True, dijkstra answers, as in SciPy. `device`, `threads`: as floyd_warshall's.
    """
    if unweighted:
        return dijkstra(
            csgraph,
            directed,
            indices,
            return_predecessors,
            unweighted,
            device=device,
            threads=threads,
        )
    n = _order(csgraph)
    rows, shape = _rows_asked(indices, n)
    if _api._on_cuda(csgraph):
        return _on_device(
            csgraph, rows, shape, return_predecessors, directed, unweighted, "johnson"
        )
    if rows is not None and rows.size == 0:
        _raise_for_any_cycle(
            _solve_rows(csgraph, None, directed, False, False, device, threads), csgraph
        )
        return _empty(shape, return_predecessors)
    sol = _solve_rows(csgraph, rows, directed, return_predecessors, False, device, threads)
    _raise_for_any_cycle(sol, csgraph)
    return _shaped(sol, shape, return_predecessors)


def _raise_for_any_cycle(sol, csgraph):
    cycle = _cycle_vertices(sol, csgraph, False)
    if len(cycle):
        raise _api.negative_cycle_error()(f"Negative cycle detected on node {int(cycle[0])}")


def _has_negative_edge(sol, csgraph, unweighted):
    """Whether SciPy's dijkstra sees a negative weight (it looks at self loops too)."""
    if len(_negative_self_loops(csgraph)):
        return True
    # The integer path takes weights in [0, 2^31 - 1] only: a negative one went the float path
    # (unless unweighted, where every weight was 1).
    if sol.precision != "float64" and not unweighted:
        return False
    return bool(np.any(_edge_values(csgraph) < 0))


def _within_limit(dist, pred, rows, limit):
    """SciPy's `limit`: a distance above it is inf (no predecessor); a source stays 0."""
    beyond = ~(dist <= limit)
    dist[beyond] = np.inf
    if pred is not None:
        pred[beyond] = _NO_PREDECESSOR
    dist[np.arange(len(rows)), rows] = 0


def _nearest_source(dist, pred, rows, n, predecessors):
    """min_only: each vertex's distance from the nearest source, and with predecessors the
    predecessor on that path and the source (a source is its own, with no predecessor)."""
    nearest = np.argmin(dist, axis=0) if len(rows) else np.zeros(n, dtype=np.intp)
    best = dist[nearest, np.arange(n)] if len(rows) else np.full(n, np.inf)
    best[rows] = 0
    if not predecessors:
        return best
    reached = best < np.inf
    source = np.where(reached, rows[nearest] if len(rows) else 0, _NO_PREDECESSOR)
    before = np.where(reached, pred[nearest, np.arange(n)] if len(rows) else 0, _NO_PREDECESSOR)
    source[rows] = rows
    before[rows] = _NO_PREDECESSOR
    return best, before.astype(np.int32), source.astype(np.int32)


def dijkstra(
    csgraph,
    directed=True,
    indices=None,
    return_predecessors=False,
    unweighted=False,
    limit=np.inf,
    min_only=False,
    *,
    device="auto",
    threads=0,
):
    """scipy.sparse.csgraph.dijkstra, on the all-pairs solve.

    SciPy's arguments, shapes and dtypes, `limit` (distances above it are inf) and `min_only`
    (the distance from the nearest source; with return_predecessors also each vertex's
    predecessor and source) included. Negative weights: SciPy's warning, then SciPy's own
    dijkstra answers (its result with them is the order its heap met the vertices in; without
    SciPy, NotImplementedError); with unweighted=True the warning only. `device`, `threads`: as
    floyd_warshall's.
    """
    n = _order(csgraph)
    all_rows = indices is None
    rows, shape = _rows_asked(indices, n)
    if rows is None:
        rows = np.arange(n, dtype=np.int32)
    if min_only:
        shape = (n,)
    if float(limit) < 0:
        raise ValueError("limit must be >= 0")
    if _api._on_cuda(csgraph):
        if min_only or limit != np.inf:
            raise NotImplementedError("limit and min_only: not for device arrays")
        chosen = None if all_rows else rows
        return _on_device(
            csgraph, chosen, shape, return_predecessors, directed, unweighted, "dijkstra"
        )
    want_pred = bool(return_predecessors)
    if rows.size:
        sol = _solve_rows(
            csgraph, None if all_rows else rows, directed, want_pred, unweighted, device, threads
        )
        if _has_negative_edge(sol, csgraph, unweighted):
            warnings.warn(_DIJKSTRA_NEGATIVE, stacklevel=2)
            if not unweighted:
                _refuse_negative_cycle(_cycle_vertices(sol, csgraph, False))
                return _scipy_dijkstra(
                    csgraph, directed, indices, return_predecessors, limit, min_only
                )
        dist, pred = sol.dist, sol.predecessors
    else:
        dist = np.zeros((0, n))
        pred = np.zeros((0, n), dtype=np.int32) if want_pred else None
    if limit != np.inf:
        _within_limit(dist, pred, rows, limit)
    if min_only:
        return _nearest_source(dist, pred, rows, n, want_pred)
    if want_pred:
        return dist.reshape(shape), pred.reshape(shape)
    return dist.reshape(shape)


def _refuse_negative_cycle(cycle):
    # SciPy's dijkstra may never return on a negative cycle (a negative self loop is one); no
    # distance exists there anyway.
    if len(cycle):
        raise _api.negative_cycle_error()(
            f"Negative cycle in nodes {cycle}: dijkstra gives no shortest paths here (SciPy's "
            "may not finish); johnson and bellman_ford raise this too"
        )


def _scipy_dijkstra(csgraph, directed, indices, return_predecessors, limit, min_only):
    try:
        from scipy.sparse.csgraph import dijkstra as scipy_dijkstra
    except ImportError:  # pragma: no cover (SciPy is installed wherever the tests run)
        raise NotImplementedError(
            "dijkstra with negative weights: its result is the order Dijkstra's heap met the "
            "vertices in, which only SciPy's own dijkstra gives (install SciPy), not a "
            "shortest path; johnson or bellman_ford answer these graphs"
        ) from None
    return scipy_dijkstra(
        csgraph,
        directed=directed,
        indices=indices,
        return_predecessors=return_predecessors,
        limit=limit,
        min_only=min_only,
    )


def _scipy_auto_method(csgraph):
    """SciPy's choice for method='auto', on the same counts of edges."""
    if _api._is_scipy_sparse(csgraph):
        n, edges = csgraph.shape[0], np.asarray(csgraph.tocoo().data)
        count = csgraph.nnz
    else:
        n = _order(csgraph)
        edges = _edge_values(csgraph)
        count = edges.size
    if count < n * n / 4:
        return "J" if np.any(edges < 0) else "D"
    return "FW"


def shortest_path(
    csgraph,
    method="auto",
    directed=True,
    return_predecessors=False,
    unweighted=False,
    overwrite=False,
    indices=None,
    *,
    device="auto",
    threads=0,
):
    """scipy.sparse.csgraph.shortest_path, on the all-pairs solve.

    method 'FW' is floyd_warshall, 'D' dijkstra, 'BF' bellman_ford, 'J' johnson (each as its
    function here); 'auto' chooses as SciPy does where the choice changes the answer (overwrite,
    negative weights), so that the result, warnings and errors are SciPy's. indices with 'FW'
    raise SciPy's ValueError. `device`, `threads`: as floyd_warshall's.
    """
    _order(csgraph)
    keywords = {"device": device, "threads": threads}
    if method == "auto":
        method, answer = _auto_method(
            csgraph, indices, overwrite, unweighted, directed, return_predecessors, keywords
        )
        if answer is not None:
            return answer
    if method == "FW":
        if indices is not None:
            raise ValueError("Cannot specify indices with method == 'FW'.")
        return _api.floyd_warshall(
            csgraph, directed, return_predecessors, unweighted, overwrite, **keywords
        )
    if method == "D":
        return dijkstra(csgraph, directed, indices, return_predecessors, unweighted, **keywords)
    if method == "BF":
        return bellman_ford(csgraph, directed, indices, return_predecessors, unweighted, **keywords)
    if method == "J":
        return johnson(csgraph, directed, indices, return_predecessors, unweighted, **keywords)
    raise ValueError(f"unrecognized method '{method}'")


def _auto_method(csgraph, indices, overwrite, unweighted, directed, predecessors, keywords):
    """(method, None) where SciPy's choice changes the answer, else (None, the answer): without
    negative weights every method answers alike, and the solve already made is returned."""
    if indices is not None:
        return "J", None  # SciPy's "D" or "J", which answer alike where "D" is chosen
    if _api._on_cuda(csgraph):
        return "FW", None
    masked = np.ma.isMaskedArray(csgraph)  # whose zeros only floyd_warshall reads as no edge
    if overwrite or unweighted or masked or len(_negative_self_loops(csgraph)):
        return _scipy_auto_method(csgraph), None
    sol = _solve_rows(csgraph, None, directed, predecessors, False, **keywords)
    if sol.precision == "float64" and np.any(_edge_values(csgraph) < 0):
        return _scipy_auto_method(csgraph), None
    return None, (sol.dist, sol.predecessors) if predecessors else sol.dist
