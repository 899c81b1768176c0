"""The backend graph: a NetworkX graph converted to a node list and NumPy edge arrays,
with each kept edge attribute classified once (``_weights.py``)."""

from __future__ import annotations

import itertools

from ._registry import BACKEND_NAME
from ._weights import MISSING, classify


class ApspGraph:
    """A graph as this backend keeps it: the node list and the edge arrays.

    ``nodes`` is the node list in ``G.nodes`` order; vertex ``i`` of the arrays is
    ``nodes[i]``. ``src`` and ``dst`` hold one entry per edge (per parallel edge of a
    multigraph; once per undirected edge), ``weights`` maps each converted edge attribute
    to its classified values. ``adjacency`` is (ptr, nbr): vertex i's neighbours in the order
    ``G._adj`` lists them, each once (NetworkX's searches visit them in that order), or None
    when unknown. Build one with :meth:`from_networkx` (or let NetworkX's
    dispatch do it); :meth:`to_networkx` goes back.
    """

    __networkx_backend__ = BACKEND_NAME

    def __init__(
        self,
        nodes,
        src,
        dst,
        *,
        directed,
        multigraph=False,
        weights=None,
        graph=None,
        default=1,
        adjacency=None,
    ):
        self.nodes = list(nodes)
        self.adjacency = adjacency
        self._adjacency_weights = {}
        self.src = src
        self.dst = dst
        self.directed = bool(directed)
        self.multigraph = bool(multigraph)
        self.weights = {} if weights is None else dict(weights)
        self.graph = {} if graph is None else dict(graph)
        self.default = default
        self._index = None
        self._node_array = None
        self._positions = None

    @classmethod
    def from_networkx(cls, G, weight="weight", *, preserve_graph_attrs=False):
        """Convert a NetworkX graph, keeping edge attribute ``weight`` (None: none)."""
        attrs = () if weight is None else (weight,)
        return convert(G, attrs, default=1, preserve_graph_attrs=preserve_graph_attrs)

    # The small part of the graph API that NetworkX's checks and users may touch.
    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    def number_of_nodes(self):
        return len(self.nodes)

    def number_of_edges(self):
        return len(self.src)

    def __len__(self):
        return len(self.nodes)

    def __iter__(self):
        return iter(self.nodes)

    def __contains__(self, node):
        try:
            return node in self.node_index
        except TypeError:
            return False

    def __repr__(self):
        kind = ("Multi" if self.multigraph else "") + ("DiGraph" if self.directed else "Graph")
        return (
            f"<ApspGraph ({kind}) with {len(self.nodes)} nodes, {len(self.src)} edges, "
            f"weights {sorted(map(repr, self.weights))}>"
        )

    @property
    def node_index(self):
        """dict node -> vertex id."""
        if self._index is None:
            self._index = dict(zip(self.nodes, range(len(self.nodes))))
        return self._index

    @property
    def labels_are_positions(self):
        """Whether node i is the int i (its label list is the index list itself)."""
        if self._positions is None:
            n = len(self.nodes)
            self._positions = all(type(u) is int for u in self.nodes) and self.nodes == list(
                range(n)
            )
        return self._positions

    @property
    def node_array(self):
        """The nodes as a 1-D NumPy object array (fast fancy indexing of labels)."""
        if self._node_array is None:
            import numpy as np

            self._node_array = np.fromiter(self.nodes, dtype=object, count=len(self.nodes))
        return self._node_array

    def adjacency_weights(self, attr):
        """float64, one per ``adjacency`` entry: the weight NetworkX's searches read for it
        (``d.get(attr, 1)``; a multigraph's smallest parallel one), from ``weights[attr]``."""
        cached = self._adjacency_weights.get(attr)
        if cached is not None:
            return cached
        import numpy as np

        n = len(self.nodes)
        ptr, nbr = self.adjacency
        rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(ptr))
        cols = nbr.astype(np.int64)
        src, dst = self.src.astype(np.int64), self.dst.astype(np.int64)
        if not self.directed:
            src, dst = np.minimum(src, dst), np.maximum(src, dst)
            rows, cols = np.minimum(rows, cols), np.maximum(rows, cols)
        keys = src * n + dst
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if len(keys) else keys
        smallest = (
            np.minimum.reduceat(self.weights[attr].values[order], first) if len(keys) else keys
        )
        out = smallest[np.searchsorted(keys[first], rows * n + cols)].astype(np.float64)
        self._adjacency_weights[attr] = out
        return out

    def to_networkx(self):
        """A NetworkX graph of the same class kind with the converted attributes."""
        import networkx as nx

        if self.multigraph:
            G = nx.MultiDiGraph() if self.directed else nx.MultiGraph()
        else:
            G = nx.DiGraph() if self.directed else nx.Graph()
        G.graph.update(self.graph)
        G.add_nodes_from(self.nodes)
        nodes = self.nodes
        us = [nodes[i] for i in self.src.tolist()]
        vs = [nodes[i] for i in self.dst.tolist()]
        datas = [{} for _ in range(len(us))]
        for attr, w in self.weights.items():
            vals = w.values.astype("int64").tolist() if w.int_valued else w.values.tolist()
            if w.present is None:
                for d, x in zip(datas, vals):
                    d[attr] = x
            else:
                for d, x, p in zip(datas, vals, w.present.tolist()):
                    if p:
                        d[attr] = x
        G.add_edges_from(zip(us, vs, datas))
        return G


def _adjacency_edges(G, nodes, index, itype, with_data):
    """src, dst, the edge data dicts (or None) and the adjacency (ptr, nbr) of a Graph /
    DiGraph, read from its adjacency dicts {u: {v: data}}; undirected ones hold each edge
    twice, the copy with src <= dst is kept (self loops appear once)."""
    import numpy as np

    n = len(nodes)
    adj = G._adj
    nbr_dicts = [adj[u] for u in nodes]
    counts = np.fromiter(map(len, nbr_dicts), dtype=np.int64, count=n)
    total = int(counts.sum())
    dst = np.fromiter(
        map(index.__getitem__, itertools.chain.from_iterable(nbr_dicts)),
        dtype=itype,
        count=total,
    )
    src = np.repeat(np.arange(n, dtype=itype), counts)
    datas = None
    if with_data:
        datas = list(itertools.chain.from_iterable(d.values() for d in nbr_dicts))
    adjacency = (np.r_[0, np.cumsum(counts)], dst.astype(np.int32))
    if not G.is_directed():
        keep = src <= dst
        src = src[keep]
        dst = dst[keep]
        if datas is not None:
            datas = np.fromiter(datas, dtype=object, count=total)[keep].tolist()
    return src, dst, datas, adjacency


def _adjacency_of(G, nodes, index):
    """(ptr, nbr) of G's adjacency as NetworkX's searches read it (``G._adj``), or None."""
    from collections.abc import Mapping

    import numpy as np

    adj = getattr(G, "_adj", None)  # what NetworkX's searches read (views too)
    if not isinstance(adj, Mapping) or len(nodes) >= 2**31:
        return None
    nbr_dicts = [adj[u] for u in nodes]
    counts = np.fromiter(map(len, nbr_dicts), dtype=np.int64, count=len(nodes))
    nbr = np.fromiter(
        map(index.__getitem__, itertools.chain.from_iterable(nbr_dicts)),
        dtype=np.int32,
        count=int(counts.sum()),
    )
    return np.r_[0, np.cumsum(counts)], nbr


def _edge_view_edges(G, index, itype, with_data):
    """src, dst and the edge data dicts (or None) from the public edge view: multigraphs
    (one row per parallel edge) and anything else."""
    import numpy as np

    if with_data:
        triples = list(G.edges(data=True))
        us = [t[0] for t in triples]
        vs = [t[1] for t in triples]
        datas = [t[2] for t in triples]
    else:
        pairs = list(G.edges())
        us = [t[0] for t in pairs]
        vs = [t[1] for t in pairs]
        datas = None
    m = len(us)
    src = np.fromiter(map(index.__getitem__, us), dtype=itype, count=m)
    dst = np.fromiter(map(index.__getitem__, vs), dtype=itype, count=m)
    return src, dst, datas


def scan(G, attrs):
    """Nodes, src, dst, the raw values of each attribute in ``attrs`` (missing -> MISSING),
    one entry per edge, and the adjacency (ApspGraph.adjacency)."""
    import numpy as np

    nodes = list(G)
    n = len(nodes)
    index = dict(zip(nodes, range(n)))
    itype = np.int32 if n < 2**31 else np.int64
    if not G.is_multigraph() and isinstance(getattr(G, "_adj", None), dict) and n < 2**31:
        src, dst, datas, adjacency = _adjacency_edges(G, nodes, index, itype, bool(attrs))
    else:
        src, dst, datas = _edge_view_edges(G, index, itype, bool(attrs))
        adjacency = _adjacency_of(G, nodes, index)
    raw = {}
    for attr in attrs:
        raw[attr] = [d.get(attr, MISSING) for d in datas]
    return nodes, src, dst, raw, adjacency


def convert(G, attrs, *, default=1, preserve_graph_attrs=False):
    """G as an ApspGraph keeping the edge attributes ``attrs`` (missing -> ``default``)."""
    nodes, src, dst, raw, adjacency = scan(G, attrs)
    n = len(nodes)
    weights = {attr: classify(raw[attr], n, default) for attr in attrs}
    return ApspGraph(
        nodes,
        src,
        dst,
        directed=G.is_directed(),
        multigraph=G.is_multigraph(),
        weights=weights,
        graph=G.graph if preserve_graph_attrs else None,
        default=default,
        adjacency=adjacency,
    )
