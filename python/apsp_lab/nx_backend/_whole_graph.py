"""NetworkX's whole-graph answers from one solve: the centralities, the eccentricities and
what is made of them (diameter, radius, center, periphery), the average shortest path length
and the Wiener index.

All but harmonic_centrality read the per-vertex reductions of the solved distances
(``_scalars.reductions``): each vertex's eccentricity, how many vertices it reaches and is
reached by, and the exact integer sums of those distances, computed where the solve put the
distances, so that no n x n matrix comes back from a GPU. harmonic_centrality needs the sum
of 1/d in NetworkX's order of sources, which the reductions do not hold: it reads the n x n
matrix on the host and adds the rows in that order.

Each follows NetworkX 3.6 exactly: its results with their number types (``_scalars.py``),
its node order, its exceptions and their messages. ``check`` (the registry's) sends a call to
NetworkX where it would be answered otherwise: ``sp`` or ``e`` given (nothing to solve),
NetworkX's bounding algorithm on a weighted graph, weights whose sums NetworkX types path by
path, harmonic_centrality's transposed case (fewer nodes than sources).
"""

from __future__ import annotations

from ._registry import implements
from ._scalars import reductions, scalar_of
from ._solve import as_apsp, solve_matrix, weights_for


def _weights_scalar(AG, weight, name):
    w = weights_for(AG, weight, name)
    return w, scalar_of(w)


def _weight_check(w):
    """Why NetworkX must answer for these weights (None: they can be answered here)."""
    if w is None:
        return None
    try:
        scalar_of(w)
    except NotImplementedError as exc:
        return str(exc)
    return None


class _Nodes:
    """What NetworkX's Graph.nbunch_iter reads of a graph (``_adj`` and ``in``), so that a
    backend graph's nbunch is read with NetworkX's own code and messages."""

    def __init__(self, AG):
        self._adj = AG.node_index

    def __contains__(self, n):
        try:
            return n in self._adj
        except TypeError:
            return False


def _nbunch(AG, nbunch):
    import networkx as nx

    return nx.Graph.nbunch_iter(_Nodes(AG), nbunch)


def _not_reaching_message(AG):
    if AG.directed:
        return "Found infinite path length because the digraph is not strongly connected"
    return "Found infinite path length because the graph is not connected"


def _eccentricities(AG, ids, r, scalar):
    """NetworkX's eccentricity of each vertex id: max(length.values()), whose first maximum
    is the source's int 0 when nothing is farther."""
    import networkx as nx

    n = len(AG.nodes)
    reaches = r["reaches"]
    ecc = r["eccentricity"]
    out = []
    for i in ids:
        if reaches[i] != n - 1:
            raise nx.NetworkXError(_not_reaching_message(AG))
        out.append(0 if ecc[i] == 0 else scalar.one(ecc[i]))
    return out


def _check_eccentricity(bound, G, w):
    if bound.get("sp") is not None:
        return "sp given: NetworkX reads the lengths from it"
    return _weight_check(w)


@implements(
    (("G", None), ("v", None), ("sp", None), ("weight", None)),
    "Every eccentricity from one all-pairs solve, reduced where the distances are.",
    check=_check_eccentricity,
)
def eccentricity(G, v=None, sp=None, weight=None, *, device=None):
    """nx.eccentricity: {node: eccentricity} (or one value when v is a node)."""
    AG = as_apsp(G, weight)
    w, scalar = _weights_scalar(AG, weight, "eccentricity")
    nodes = list(_nbunch(AG, v))
    e = {}
    if nodes:
        index = AG.node_index
        ids = [index[u] for u in nodes]
        values = _eccentricities(AG, ids, reductions(AG, w, device), scalar)
        e = dict(zip(nodes, values))
    if v in AG:
        return e[v]
    return e


def _all_eccentricities(AG, weight, name, device):
    w, scalar = _weights_scalar(AG, weight, name)
    if not AG.nodes:
        return {}
    values = _eccentricities(AG, range(len(AG.nodes)), reductions(AG, w, device), scalar)
    return dict(zip(AG.nodes, values))


def _bounded(AG, weight, usebounds, e):
    """NetworkX's _extrema_bounding runs (usebounds on an undirected graph)."""
    return usebounds is True and e is None and not AG.directed


def _check_extremum(bound, G, w):
    if bound.get("e") is not None:
        return "e given: NetworkX reads the eccentricities from it"
    if bound.get("usebounds") is True and not G.is_directed() and bound.get("weight") is not None:
        return "usebounds=True with weights: NetworkX's bounding algorithm answers"
    return _weight_check(w)


def _bounding_eccentricities(AG, device):
    """The eccentricities NetworkX's bounding algorithm finds on an unweighted connected
    graph (the true ones), or its exceptions."""
    import networkx as nx

    if not AG.nodes:
        max({})  # NetworkX picks the node of highest degree first: max() of nothing
    r = reductions(AG, None, device)
    if (r["reaches"] != len(AG.nodes) - 1).any():
        raise nx.NetworkXError("Cannot compute metric because graph is not connected.")
    return dict(zip(AG.nodes, r["eccentricity"].tolist()))


def _extremum_eccentricities(G, usebounds, weight, name, device):
    AG = as_apsp(G, weight)
    if _bounded(AG, weight, usebounds, None):
        return _bounding_eccentricities(AG, device)
    return _all_eccentricities(AG, weight, name, device)


_EXTREMUM_PARAMS = (("G", None), ("e", None), ("usebounds", False), ("weight", None))


@implements(
    _EXTREMUM_PARAMS,
    "The largest eccentricity, from one all-pairs solve reduced where the distances are.",
    check=_check_extremum,
)
def diameter(G, e=None, usebounds=False, weight=None, *, device=None):
    """nx.diameter: the largest eccentricity."""
    if e is None:
        e = _extremum_eccentricities(G, usebounds, weight, "diameter", device)
    return max(e.values())


@implements(
    _EXTREMUM_PARAMS,
    "The smallest eccentricity, from one all-pairs solve reduced where the distances are.",
    check=_check_extremum,
)
def radius(G, e=None, usebounds=False, weight=None, *, device=None):
    """nx.radius: the smallest eccentricity."""
    if e is None:
        e = _extremum_eccentricities(G, usebounds, weight, "radius", device)
    return min(e.values())


@implements(
    _EXTREMUM_PARAMS,
    "The nodes of smallest eccentricity, from one all-pairs solve.",
    check=_check_extremum,
)
def center(G, e=None, usebounds=False, weight=None, *, device=None):
    """nx.center: the nodes whose eccentricity is the radius, in G's node order."""
    import networkx as nx

    if e is None:
        AG = as_apsp(G, weight)
        tree_test = weight is None and not AG.directed and not _bounded(AG, weight, usebounds, e)
        if tree_test and not AG.nodes:
            # NetworkX tries nx.tree.center first, and nx.is_tree raises on the null graph.
            raise nx.NetworkXPointlessConcept("G has no nodes.")
        e = _extremum_eccentricities(AG, usebounds, weight, "center", device)
    radius = min(e.values())
    return [v for v in e if e[v] == radius]


@implements(
    _EXTREMUM_PARAMS,
    "The nodes of largest eccentricity, from one all-pairs solve.",
    check=_check_extremum,
)
def periphery(G, e=None, usebounds=False, weight=None, *, device=None):
    """nx.periphery: the nodes whose eccentricity is the diameter, in G's node order."""
    if e is None:
        e = _extremum_eccentricities(G, usebounds, weight, "periphery", device)
    diameter = max(e.values())
    return [v for v in e if e[v] == diameter]


def _check_closeness(bound, G, w):
    u = bound.get("u")
    if u is not None and u not in G:
        return "u is not a node of G: NetworkX raises"
    return _weight_check(w)


@implements(
    (("G", None), ("u", None), ("distance", None), ("wf_improved", True)),
    "Every vertex's incoming distances summed where the distances are (one all-pairs solve); "
    "the same double as NetworkX.",
    check=_check_closeness,
)
def closeness_centrality(G, u=None, distance=None, wf_improved=True, *, device=None):
    """nx.closeness_centrality: {node: closeness} from the distances into each node (or
    the one value of node u)."""
    import numpy as np

    AG = as_apsp(G, distance)
    w, scalar = _weights_scalar(AG, distance, "closeness_centrality")
    n = len(AG.nodes)
    if n == 0:
        return {}
    r = reductions(AG, w, device)
    # NetworkX: (len(sp) - 1.0) / totsp, times (len(sp) - 1.0) / (len(G) - 1); 0.0 when
    # totsp is 0 or G has one node. The same operations in float64, so the same doubles.
    reached = r["reached_by"].astype(np.float64)
    total = r["in_sum"]
    positive = (total > 0) & (n > 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(positive, reached / total.astype(np.float64), 0.0)
        if wf_improved:
            c = c * (reached / (n - 1))
    values = [scalar.quotient(x) for x in c.tolist()] if scalar.kind == "numpy" else c.tolist()
    for i in np.flatnonzero(~positive).tolist():
        values[i] = 0.0  # NetworkX's own 0.0, whatever the weights' type
    if u is not None:
        return values[AG.node_index[u]]
    return dict(zip(AG.nodes, values))


def _check_harmonic(bound, G, w):
    import networkx as nx

    try:
        nodes = G if isinstance(G, nx.Graph) else _Nodes(G)
        nbunch, sources = bound.get("nbunch"), bound.get("sources")
        count_nbunch = len(set(nx.Graph.nbunch_iter(nodes, nbunch))) if nbunch is not None else None
        count_sources = (
            len(set(nx.Graph.nbunch_iter(nodes, sources))) if sources is not None else None
        )
    except Exception as exc:  # NetworkX raises its own
        return f"nbunch or sources not read ({type(exc).__name__})"
    n = len(G)
    if (n if count_nbunch is None else count_nbunch) < (
        n if count_sources is None else count_sources
    ):
        return "fewer nodes than sources: NetworkX transposes and sums in its own path order"
    return _weight_check(w)


@implements(
    (("G", None), ("nbunch", None), ("distance", None), ("sources", None)),
    "One all-pairs solve; the sums of 1/d are added on the host in NetworkX's order.",
    check=_check_harmonic,
    streaming=True,
)
def harmonic_centrality(G, nbunch=None, distance=None, sources=None, *, device=None):
    """nx.harmonic_centrality: {node: sum of 1/d(v, node) over the sources v}."""
    import numpy as np

    AG = as_apsp(G, distance)
    w, scalar = _weights_scalar(AG, distance, "harmonic_centrality")
    nbunch = set(_nbunch(AG, nbunch) if nbunch is not None else AG.nodes)
    sources = set(_nbunch(AG, sources) if sources is not None else AG.nodes)
    if len(nbunch) < len(sources):
        raise NotImplementedError("fewer nodes than sources: NetworkX's transposed sums")
    centrality = dict.fromkeys(nbunch, 0)
    if not nbunch or not sources:
        return centrality
    index = AG.node_index
    targets = np.fromiter((index[u] for u in nbunch), dtype=np.int64, count=len(nbunch))
    D = solve_matrix(AG, w, device)
    total = np.zeros(len(targets))
    touched = np.zeros(len(targets), dtype=bool)
    # NetworkX adds 1/d for each source in the iteration order of its set of sources; the
    # same additions in the same order give the same doubles.
    for v in sources:
        row = D[index[v], targets]
        hit = (row != 0) & (row != np.inf)
        total[hit] += 1.0 / row[hit]
        touched |= hit
    values = total.tolist()
    for u, x, t in zip(nbunch, values, touched.tolist()):
        if t:
            centrality[u] = scalar.quotient(x)
    return centrality


def _connected(AG, r):
    return bool((r["reaches"] == len(AG.nodes) - 1).all())


def _distance_total(r):
    """The exact sum of every finite distance (a Python int)."""
    return sum(r["out_sum"].tolist())


_SUPPORTED_METHODS = ("unweighted", "dijkstra", "bellman-ford", "floyd-warshall")


def _check_average(bound, G, w):
    method = bound.get("method")
    if method == "floyd-warshall-numpy":
        return "method floyd-warshall-numpy: NetworkX sums the float64 matrix itself"
    if method == "unweighted":
        return None
    reason = _weight_check(w)
    if reason is None and method == "floyd-warshall" and w is not None:
        if scalar_of(w).kind == "numpy" or w.n_missing:
            return "method floyd-warshall: NetworkX's own types (a missing weight is 1.0)"
    return reason


@implements(
    (("G", None), ("weight", None), ("method", None)),
    "The exact sum of every distance, reduced where the distances are (one all-pairs solve).",
    check=_check_average,
)
def average_shortest_path_length(G, weight=None, method=None, *, device=None):
    """nx.average_shortest_path_length: the sum of d(u, v) over ordered pairs / n(n - 1)."""
    import networkx as nx

    all_methods = _SUPPORTED_METHODS + ("floyd-warshall-numpy",)
    if method is None:
        method = "unweighted" if weight is None else "dijkstra"
    if method not in all_methods:
        raise ValueError(f"method not supported: {method}")
    if method == "unweighted":
        weight = None
    AG = as_apsp(G, weight)
    n = len(AG.nodes)
    if n == 0:
        raise nx.NetworkXPointlessConcept(
            "the null graph has no paths, thus there is no average shortest path length"
        )
    if n == 1:
        return 0
    if method == "floyd-warshall-numpy":
        raise NotImplementedError("method floyd-warshall-numpy: NetworkX's float64 matrix sum")
    w, scalar = _weights_scalar(AG, weight, "average_shortest_path_length")
    r = reductions(AG, w, device)
    if not _connected(AG, r):
        if AG.directed:
            raise nx.NetworkXError("Graph is not strongly connected.")
        raise nx.NetworkXError("Graph is not connected.")
    total = _distance_total(r)
    if scalar.kind != "int" and total >= 2**53:
        raise NotImplementedError("a sum of distances past 2**53 in NetworkX's float arithmetic")
    if scalar.kind == "numpy":
        return scalar.one(total) / (n * (n - 1))
    return total / (n * (n - 1))


def _check_wiener(bound, G, w):
    return _weight_check(w)


@implements(
    (("G", None), ("weight", None)),
    "The exact sum of every distance, reduced where the distances are (one all-pairs solve).",
    check=_check_wiener,
)
def wiener_index(G, weight=None, *, device=None):
    """nx.wiener_index: the sum of the distances between pairs (inf if disconnected)."""
    import networkx as nx

    AG = as_apsp(G, weight)
    if not AG.nodes:
        raise nx.NetworkXPointlessConcept("Connectivity is undefined for the null graph.")
    w, scalar = _weights_scalar(AG, weight, "wiener_index")
    r = reductions(AG, w, device)
    if not _connected(AG, r):
        return float("inf")
    total = _distance_total(r)
    if scalar.kind != "int" and total >= 2**53:
        raise NotImplementedError("a sum of distances past 2**53 in NetworkX's float arithmetic")
    if len(AG.nodes) == 1:
        total_value = 0  # NetworkX's sum of the one source's int 0
    else:
        total_value = scalar.one(total)
    return total_value if AG.directed else total_value / 2
