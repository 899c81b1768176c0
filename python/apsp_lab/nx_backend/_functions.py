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

# floyd_warshall's default factory, as pickled before (its inner dicts are defaultdicts).
from ._fw_types import _inf as _inf
from ._fw_types import plan, typed_rows

# The registry, filled by the definitions below: the dispatcher and get_info read it from here.
from ._registry import FUNCTIONS as FUNCTIONS
from ._registry import implements
from ._scalars import path_scalar
from ._solve import as_apsp, row_dicts, rows_matrix, solve_matrix, weights_for


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


def _check_floyd_warshall(bound, G, w):
    """can_run's check: weights whose entries NetworkX types by its loop order."""
    if w is None:
        return None
    try:
        plan(None, w)
    except NotImplementedError as exc:
        return str(exc)
    return None


@implements(
    (("G", None), ("weight", "weight")),
    "One all-pairs solve; the dicts are built from the matrix, each entry typed as NetworkX's.",
    dict_result=True,
    check=_check_floyd_warshall,
)
def floyd_warshall(G, weight="weight", *, device=None):
    """nx.floyd_warshall: {u: defaultdict(inf, {v: length for every node v})}."""
    AG = as_apsp(G, weight)
    w = weights_for(AG, weight, "floyd_warshall")
    D = solve_matrix(AG, w, device)
    return typed_rows(AG, w, D, device)


def _check_paths(bound, G, w):
    """can_run's check: weights whose path lengths NetworkX types path by path."""
    try:
        path_scalar(w)
    except NotImplementedError as exc:
        return str(exc)
    return None


@implements(
    (("G", None), ("cutoff", None), ("weight", "weight")),
    "One all-pairs solve instead of n Dijkstra runs; each row's dict is built when asked, in "
    "the order NetworkX's Dijkstra settles the nodes.",
    dict_result=True,
    streaming=True,
    check=_check_paths,
)
def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight", *, device=None):
    """nx.all_pairs_dijkstra_path_length: yields (node, {reachable node: length})."""
    AG = as_apsp(G, weight)
    w = weights_for(AG, weight, "all_pairs_dijkstra_path_length")
    scalar = path_scalar(w)
    D = rows_matrix(AG, w, device)
    yield from row_dicts(
        AG,
        D,
        scalar=scalar,
        method="dijkstra",
        weights=_adjacency_weights(AG, weight),
        cutoff=cutoff,
    )


@implements(
    (("G", None), ("weight", "weight")),
    "One all-pairs solve; negative weights fall back to NetworkX. Each row's dict is built "
    "when asked, in the order NetworkX's Bellman-Ford first reaches the nodes.",
    dict_result=True,
    streaming=True,
    check=_check_paths,
)
def all_pairs_bellman_ford_path_length(G, weight="weight", *, device=None):
    """nx.all_pairs_bellman_ford_path_length: yields (node, {reachable node: length})."""
    AG = as_apsp(G, weight)
    w = weights_for(AG, weight, "all_pairs_bellman_ford_path_length")
    scalar = path_scalar(w)
    D = rows_matrix(AG, w, device)
    yield from row_dicts(
        AG, D, scalar=scalar, method="bellman_ford", weights=_adjacency_weights(AG, weight)
    )


@implements(
    (("G", None), ("cutoff", None)),
    "One all-pairs solve with unit weights; each row's dict is built when asked, in "
    "NetworkX's breadth-first order.",
    streaming=True,
)
def all_pairs_shortest_path_length(G, cutoff=None, *, device=None):
    """nx.all_pairs_shortest_path_length: yields (node, {reachable node: hop count})."""
    AG = as_apsp(G, None)
    D = rows_matrix(AG, None, device)
    yield from row_dicts(AG, D, scalar=path_scalar(None), method="bfs", cutoff=cutoff)


def _adjacency_weights(AG, weight):
    """The weight of each adjacency entry NetworkX's searches read (1 for weight=None)."""
    import numpy as np

    if AG.adjacency is None:
        return None
    if weight is None:
        return np.ones(len(AG.adjacency[1]))
    return AG.adjacency_weights(weight)


# The whole-graph functions (centralities, eccentricity and its extrema, the average shortest
# path length, the Wiener index) register themselves after the all-pairs ones.
from . import _whole_graph  # noqa: E402, F401
