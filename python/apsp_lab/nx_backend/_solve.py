"""What every implemented function does around its one solve: take the graph and its
weights as the backend holds them, make the one ``apsp_lab.solve_edges`` call for the
n x n matrix, and build NetworkX's rows from it."""

from __future__ import annotations

from ._graph import ApspGraph, convert
from ._registry import BACKEND_NAME, FUNCTIONS


def weights_for(AG, weight, name):
    """The _Weights for ``weight`` of AG (None for weight=None); raises
    NotImplementedError with the reason when this function cannot use them."""
    if weight is None:
        return None
    w = AG.weights.get(weight)
    if w is None:
        raise NotImplementedError(f"graph was converted without edge attribute {weight!r}")
    if w.reason is not None:
        raise NotImplementedError(w.reason)
    if FUNCTIONS[name].dict_result and w.dict_reason is not None:
        raise NotImplementedError(w.dict_reason)
    return w


def as_apsp(G, weight):
    """G itself if it is an ApspGraph, else its conversion (direct calls of the backend
    functions with NetworkX graphs)."""
    if isinstance(G, ApspGraph):
        return G
    import networkx as nx

    if not isinstance(G, nx.Graph):
        raise TypeError(f"expected a NetworkX graph or an ApspGraph, got {type(G).__name__}")
    return convert(G, () if weight is None else (weight,))


def resolve_device(device):
    if device is None:
        import networkx as nx

        try:
            device = nx.config.backends[BACKEND_NAME].device
        except (AttributeError, KeyError):
            device = "auto"
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device must be 'auto', 'cpu' or 'cuda', not {device!r}")
    return device


def solve_matrix(AG, w, device, order=None, dtype=None):
    """The distance matrix (float64, inf where unreachable; dtype "int64": integral weights'
    exact lengths, unreachable entries past every length); rows and columns follow ``order``
    (a permutation of vertex ids) when given, else AG.nodes."""
    import numpy as np

    n = len(AG.nodes)
    if n == 0:
        return np.zeros((0, 0), dtype=dtype or np.float64)
    src, dst = AG.src, AG.dst
    if order is not None:
        pos = np.empty(n, dtype=src.dtype)
        pos[order] = np.arange(n, dtype=src.dtype)
        src = pos[src]
        dst = pos[dst]
    import apsp_lab

    D = apsp_lab.solve_edges(
        n,
        src,
        dst,
        None if w is None else w.core,
        directed=AG.directed,
        device=resolve_device(device),
        dtype=dtype,
    )
    return np.ascontiguousarray(D, dtype=dtype or np.float64)


def rows_matrix(AG, w, device):
    """The matrix row_dicts reads: int64 where the lengths are integers and the rows follow
    the adjacency (no float conversion on the way to Python ints), else float64."""
    exact = w is None or w.core.dtype.kind == "i"
    return solve_matrix(AG, w, device, dtype="int64" if exact and AG.adjacency else None)


# Sources whose orders one settle_orders call finds (over the CPU's threads) ahead of the rows
# asked for.
ROWS_PER_ORDER_CALL = 256


def _cutoff_value(cutoff):
    """cutoff as the float64 NetworkX's comparisons amount to (None: no cutoff)."""
    if cutoff is None:
        return float("inf")
    try:
        return float(cutoff)
    except OverflowError:  # an int past float's range
        return float("inf") if cutoff > 0 else float("-inf")


def row_dicts(AG, D, *, scalar, method, weights=None, cutoff=None):
    """Yield (node, {reached node: length}) per row of D, as NetworkX's all_pairs_* do.

    method: "dijkstra", "bfs" or "bellman_ford", whose order of first reaching the nodes
    (``apsp_lab._core.settle_orders`` on AG.adjacency, with ``weights`` per adjacency entry)
    is the order of NetworkX's dict, and whose cutoff rule (Dijkstra: keep length <= cutoff;
    BFS: reach level k when k - 1 < cutoff) it applies. The source's 0 is NetworkX's int 0;
    the other lengths are typed by ``scalar`` (``_scalars.Scalar``). Each row's dict is built
    when the generator is asked for it.
    """
    if AG.adjacency is None:
        yield from _sorted_row_dicts(AG, D, scalar=scalar, cutoff=cutoff, hops=method == "bfs")
        return
    from concurrent.futures import ThreadPoolExecutor

    from .. import _core

    labels = AG.node_array
    nodes = AG.nodes
    ptr, nbr = AG.adjacency
    limit = _cutoff_value(cutoff)
    firsts = range(0, len(nodes), ROWS_PER_ORDER_CALL)

    def orders_from(first):
        count = min(ROWS_PER_ORDER_CALL, len(nodes) - first)
        return _core.settle_orders(method, ptr, nbr, weights, first, count, limit, 0)

    # The next block's orders are found (without the GIL) while this block's dicts are built.
    with ThreadPoolExecutor(max_workers=1) as ahead:
        coming = ahead.submit(orders_from, firsts[0]) if firsts else None
        for k, first in enumerate(firsts):
            orders, lengths = coming.result()
            if k + 1 < len(firsts):
                coming = ahead.submit(orders_from, firsts[k + 1])
            for r, length in enumerate(lengths.tolist()):
                i = first + r
                idx = orders[r, :length]
                keys = idx.tolist() if AG.labels_are_positions else labels[idx].tolist()
                d = dict(zip(keys, scalar.many(D[i, idx])))
                d[nodes[i]] = 0
                yield nodes[i], d


def _sorted_row_dicts(AG, D, *, scalar, cutoff=None, hops=False):
    """row_dicts for a graph whose adjacency order is unknown (an ApspGraph built by hand):
    the source first, then nondecreasing length, ties in node order."""
    import numpy as np

    nodes = AG.nodes
    labels = AG.node_array
    cutoff = _cutoff_value(cutoff)
    if cutoff != cutoff and not hops:  # nan: NetworkX's `dist > nan` never cuts
        cutoff = float("inf")
    for i, node in enumerate(nodes):
        row = D[i]
        if cutoff == float("inf"):
            mask = row != np.inf
        elif hops:
            mask = (row - 1.0) < cutoff
        else:
            mask = row <= cutoff
        mask[i] = True
        idx = np.flatnonzero(mask)
        vals = row[idx]
        if len(idx) > 1:
            key = vals.copy()
            key[np.searchsorted(idx, i)] = -1  # the source first, as in NetworkX
            order = np.argsort(key, kind="stable")
            idx = idx[order]
        d = dict(zip(labels[idx].tolist(), scalar.many(D[i, idx])))
        d[node] = 0
        yield node, d
