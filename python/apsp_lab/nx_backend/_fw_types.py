"""The number type of each entry of NetworkX's floyd_warshall, which is not one type a graph.

NetworkX's floyd_warshall starts from ``0`` (an int) on the diagonal and each edge's own
weight (``1.0`` where the attribute is missing, and the smallest of parallel edges), and
replaces an entry only by a strictly shorter sum ``d[u][w] + d[w][v]``. So an entry is the
edge's own value where no path is shorter (a bool stays a bool), a sum otherwise (True + True
is the int 2), and where int and float weights meet, an int exactly where every shortest path
has int weights only. :func:`typed_rows` finds that out with the solves it needs and builds
the rows; what cannot be told without NetworkX's loop order (shortest paths of both kinds,
a zero-weight self loop beside other types) raises NotImplementedError.
"""

from __future__ import annotations

from collections import defaultdict

INF = float("inf")


def _inf():
    """Default factory of floyd_warshall's inner dicts (a named function: picklable)."""
    return INF


def _types_of(w):
    """The set of value types of the edges (a missing weight is NetworkX's 1.0)."""
    if w is None:
        return {float}
    types = set(w.types)
    if w.n_missing:
        types.add(float)
    return types


def _zero_self_loops(AG, w):
    """Vertex ids with a self loop of weight 0 (NetworkX's diagonal takes that value)."""
    import numpy as np

    if w is None:
        return np.zeros(0, dtype=np.int64)
    loops = (AG.src == AG.dst) & (w.values == 0)
    return np.unique(AG.src[loops]).astype(np.int64)


def plan(AG, w):
    """How the entries are typed: ("one", Scalar), ("bool", None) or ("int_float", None);
    raises NotImplementedError for what is decided by NetworkX's loop order. AG None: the
    weights alone are judged (can_run's check, before the self loops are read)."""
    import numpy as np

    from ._scalars import INT, Scalar

    types = _types_of(w)
    zero_loops = AG is not None and len(_zero_self_loops(AG, w)) > 0
    if types <= {int}:
        return "one", INT
    if types == {float}:
        return "one", Scalar("float")
    if types == {bool}:
        return "bool", None
    if len(types) == 1 and issubclass(t := next(iter(types)), (np.integer, np.float64)):
        return "one", Scalar("numpy", t)
    if types == {int, float} and not zero_loops:
        return "int_float", None
    names = ", ".join(sorted(t.__name__ for t in types))
    raise NotImplementedError(
        f"edge weights of types {names}: which type each of NetworkX's floyd_warshall "
        "entries has depends on its loop order"
    )


def _key_orders(AG):
    """(ptr, cols): row i's keys after i itself, in the order NetworkX's floyd_warshall first
    touches them: its edges in G.edges order (an undirected edge enters both rows); the
    rest follow in node order (its first pass over the matrix)."""
    import numpy as np

    n = len(AG.nodes)
    src, dst = AG.src.astype(np.int64), AG.dst.astype(np.int64)
    pos = np.arange(len(src))
    if not AG.directed:
        src, dst, pos = np.r_[src, dst], np.r_[dst, src], np.r_[pos, pos]
    by_row = np.lexsort((pos, src))
    src, dst = src[by_row], dst[by_row]
    _, first = np.unique(src * n + dst, return_index=True)
    keep = np.sort(first)
    keep = keep[src[keep] != dst[keep]]
    rows, cols = src[keep], dst[keep]
    ptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=n))]
    return ptr, cols


def _row_order(i, n, ptr, cols):
    import numpy as np

    seq = cols[ptr[i] : ptr[i + 1]]
    rest = np.ones(n, dtype=bool)
    rest[i] = False
    rest[seq] = False
    return np.r_[i, seq, np.flatnonzero(rest)]


def _object_row(row, finite, converted):
    import numpy as np

    obj = np.full(len(row), INF, dtype=object)
    obj[finite] = converted
    return obj.tolist()


def typed_rows(AG, w, D, device):
    """NetworkX's floyd_warshall result {u: defaultdict(inf, {v: d(u, v)})} from the matrix
    D (float64, inf where no path), every entry typed as NetworkX's (above)."""
    import numpy as np

    kind, scalar = plan(AG, w)
    nodes = AG.nodes
    n = len(nodes)
    zeros = set(_zero_self_loops(AG, w).tolist())
    zero = scalar.one(0) if kind == "one" else False
    is_int = None
    if kind == "int_float":
        D, is_int = _int_float_entries(AG, w, D, device)
    direct = _direct_bool_entries(AG, w, D) if kind == "bool" else None
    ptr, cols = _key_orders(AG)
    labels = AG.node_array
    out = {}
    for i, u in enumerate(nodes):
        order = _row_order(i, n, ptr, cols)
        row = D[i, order]
        finite = row != np.inf
        if kind == "one":
            if finite.all():
                vals = scalar.many(row)
            else:
                vals = _object_row(row, finite, scalar.many(row[finite]))
        elif kind == "bool":
            obj = np.full(n, INF, dtype=object)
            obj[finite] = row[finite].astype(np.int64).tolist()
            mine = direct[i, order]
            obj[mine] = (row[mine] != 0).tolist()
            vals = obj.tolist()
        else:
            ints = finite & is_int[i, order]
            floats = finite & ~is_int[i, order]
            obj = np.full(n, INF, dtype=object)
            obj[ints] = row[ints].astype(np.int64).tolist()
            obj[floats] = row[floats].tolist()
            vals = obj.tolist()
        d = defaultdict(_inf, zip(labels[order].tolist(), vals))
        d[u] = zero if i in zeros else 0
        out[u] = d
    return out


def _direct_bool_entries(AG, w, D):
    """n x n bool: (u, v) keeps its edge's own bool (an edge u -> v weighing D[u][v])."""
    import numpy as np

    n = len(AG.nodes)
    out = np.zeros((n, n), dtype=bool)
    src, dst = AG.src.astype(np.int64), AG.dst.astype(np.int64)
    tight = D[src, dst] == w.values
    out[src[tight], dst[tight]] = True
    if not AG.directed:
        tight_back = D[dst, src] == w.values
        out[dst[tight_back], src[tight_back]] = True
    np.fill_diagonal(out, False)
    return out


# The largest graph whose int and float entries are told apart by replaying NetworkX's loop
# (n steps of n x n NumPy operations), where one solve cannot tell them.
MAX_REPLAYED = 1000


def _int_float_entries(AG, w, D, device):
    """(D, n x n bool: the entry is NetworkX's int) for int weights beside float ones.

    Integral weights: one solve tells the entries apart (``_int_entries``) unless some pair
    has shortest paths of both kinds. Then, and for non-integral floats (whose sums NetworkX
    rounds in its own order), NetworkX's loop is replayed (``_replayed``), up to
    MAX_REPLAYED vertices; past that NotImplementedError."""
    if w.core.dtype.kind == "i":
        is_int = _int_entries(AG, w, device)
        if is_int is not None:
            return D, is_int
    if len(AG.nodes) > MAX_REPLAYED:
        raise NotImplementedError(
            "int weights beside float ones on more than "
            f"{MAX_REPLAYED} nodes: NetworkX's floyd_warshall types its entries by its loop "
            "order, which is replayed only up to that size"
        )
    return _replayed(AG, w)


def _replayed(AG, w):
    """NetworkX's floyd_warshall on the matrix, with each entry's int-ness beside it: the
    same float64 sums in the same order (one step w is the same whether its (u, v) pairs are
    taken one by one or at once: row and column w do not change in step w)."""
    import numpy as np

    n = len(AG.nodes)
    D = np.full((n, n), INF)
    is_int = np.ones((n, n), dtype=bool)
    np.fill_diagonal(D, 0.0)
    directed = AG.directed
    # Each edge in G.edges order: d[u][v] = min(weight, d[u][v]) keeps the later of equals.
    for u, v, x, i in zip(AG.src.tolist(), AG.dst.tolist(), w.values.tolist(), w.int_mask.tolist()):
        for a, b in ((u, v), (v, u)) if not directed else ((u, v),):
            if not D[a, b] < x:
                D[a, b] = x
                is_int[a, b] = i
    for k in range(n):
        through = D[:, k, None] + D[None, k, :]
        shorter = through < D
        D = np.where(shorter, through, D)
        is_int = np.where(shorter, is_int[:, k, None] & is_int[None, k, :], is_int)
    return D, is_int


def _int_entries(AG, w, device):
    """n x n bool: every shortest u -> v path has int weights only; None where some
    shortest paths do and others do not (NetworkX's loop order decides there).

    One solve of a 2n-vertex graph: layer 0 holds the int edges only, a float edge leads
    from layer 0 to layer 1 (and within it), so d(u0, v0) is the shortest all-int path and
    d(u0, v1) the shortest path with a float edge."""
    import numpy as np

    import apsp_lab

    from ._solve import resolve_device

    n = len(AG.nodes)
    src, dst = AG.src.astype(np.int64), AG.dst.astype(np.int64)
    values = w.core
    floats = ~w.int_mask
    if not AG.directed:
        src, dst = np.r_[src, dst], np.r_[dst, src]
        values = np.r_[values, values]
        floats = np.r_[floats, floats]
    ints = ~floats
    s = np.r_[src[ints], src[ints] + n, src[floats], src[floats] + n]
    d = np.r_[dst[ints], dst[ints] + n, dst[floats] + n, dst[floats] + n]
    wl = np.r_[values[ints], values[ints], values[floats], values[floats]]
    L = apsp_lab.solve_edges(2 * n, s, d, wl, directed=True, device=resolve_device(device))
    only_int, with_float = L[:n, :n], L[:n, n:]
    tie = (only_int == with_float) & (only_int != np.inf)
    np.fill_diagonal(tie, False)
    if tie.any():
        return None
    return only_int < with_float
