"""The NetworkX functions this backend implements, with NetworkX 3.6's signatures and
results plus the keyword ``device``.

To add one: write it here with NetworkX's name and signature, decorated with
``@implements`` (its positional parameters, its line in NetworkX's docs, and whether its
result is dicts NetworkX sums in Python or rows it streams); build it from ``_solve.py``
(``as_apsp``, ``weights_for``, ``solve_matrix``, ``row_dicts``). The dispatcher and the
metadata pick it up from the registry; add its tests to tests/python/test_nx_backend.py's
FUNCS.

The generator functions must be generators (NetworkX's are: nothing runs before the
first next()); their checks therefore also run lazily, as NetworkX's own do.
"""

from __future__ import annotations

from collections import defaultdict

# The registry, filled by the definitions below: the dispatcher and get_info read it from here.
from ._registry import FUNCTIONS as FUNCTIONS
from ._registry import implements
from ._solve import as_apsp, row_dicts, solve_matrix, weights_for


def _inf():
    """Default factory of floyd_warshall's inner dicts (a named function: picklable)."""
    return float("inf")


@implements(
    (("G", None), ("nodelist", None), ("weight", "weight")),
    "One all-pairs solve by blocked Floyd-Warshall.",
)
def floyd_warshall_numpy(G, nodelist=None, weight="weight", *, device=None):
    """nx.floyd_warshall_numpy: the distance matrix in ``nodelist`` order (default
    G.nodes), float64, inf where there is no path."""
    import networkx as nx

    AG = as_apsp(G, weight)
    w = weights_for(AG, weight, "floyd_warshall_numpy")
    order = None
    if nodelist is not None:
        # The checks and messages of nx.floyd_warshall_numpy and nx.to_numpy_array.
        if not (len(nodelist) == len(AG) == len(set(nodelist))):
            raise nx.NetworkXError(
                "nodelist must contain every node in G with no repeats."
                "If you wanted a subgraph of G use G.subgraph(nodelist)"
            )
        nodeset = set(nodelist)
        if nodeset - set(AG):
            raise nx.NetworkXError(f"Nodes {nodeset - set(AG)} in nodelist is not in G")
        index = AG.node_index
        order = [index[v] for v in nodelist]
    return solve_matrix(AG, w, device, order)


@implements(
    (("G", None), ("weight", "weight")),
    "One all-pairs solve; the dicts are built from the matrix.",
    dict_result=True,
)
def floyd_warshall(G, weight="weight", *, device=None):
    """nx.floyd_warshall: {u: defaultdict(inf, {v: length for every node v})}."""
    import numpy as np

    AG = as_apsp(G, weight)
    w = weights_for(AG, weight, "floyd_warshall")
    D = solve_matrix(AG, w, device)
    # NetworkX's floyd_warshall takes a missing weight (and weight=None) as 1.0.
    as_int = w is not None and w.int_valued and w.n_missing == 0
    nodes = AG.nodes
    out = {}
    for i, u in enumerate(nodes):
        row = D[i]
        if as_int:
            finite = row != np.inf
            if finite.all():
                vals = row.astype(np.int64).tolist()
            else:
                obj = np.where(finite, row, 0.0).astype(np.int64).astype(object)
                obj[~finite] = float("inf")
                vals = obj.tolist()
        else:
            vals = row.tolist()
        d = defaultdict(_inf, zip(nodes, vals))
        d[u] = 0
        out[u] = d
    return out


@implements(
    (("G", None), ("cutoff", None), ("weight", "weight")),
    "One all-pairs solve instead of n Dijkstra runs; rows are yielded lazily "
    "from the n x n matrix.",
    dict_result=True,
    streaming=True,
)
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight", *, device=None):
    """nx.all_pairs_dijkstra_path_length: yields (node, {reachable node: length})."""
    AG = as_apsp(G, weight)
    w = weights_for(AG, weight, "all_pairs_dijkstra_path_length")
    D = solve_matrix(AG, w, device)
    as_int = w is None or w.int_valued  # NetworkX: missing weight -> 1
    yield from row_dicts(AG, D, as_int=as_int, cutoff=cutoff)


@implements(
    (("G", None), ("weight", "weight")),
    "One all-pairs solve; negative weights fall back to NetworkX.",
    dict_result=True,
    streaming=True,
)
def all_pairs_bellman_ford_path_length(G, weight="weight", *, device=None):
    """nx.all_pairs_bellman_ford_path_length: yields (node, {reachable node: length})."""
    AG = as_apsp(G, weight)
    w = weights_for(AG, weight, "all_pairs_bellman_ford_path_length")
    D = solve_matrix(AG, w, device)
    as_int = w is None or w.int_valued
    yield from row_dicts(AG, D, as_int=as_int)


@implements(
    (("G", None), ("cutoff", None)),
    "One all-pairs solve with unit weights.",
    streaming=True,
)
def all_pairs_shortest_path_length(G, cutoff=None, *, device=None):
    """nx.all_pairs_shortest_path_length: yields (node, {reachable node: hop count})."""
    AG = as_apsp(G, None)
    D = solve_matrix(AG, None, device)
    yield from row_dicts(AG, D, as_int=True, cutoff=cutoff, hops=True)


# The whole-graph functions (centralities, eccentricity and its extrema, the average shortest
# path length, the Wiener index) register themselves after the all-pairs ones.
from . import _whole_graph  # noqa: E402, F401
