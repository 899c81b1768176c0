"""The number type NetworkX's Dijkstra and BFS sums come out in, for a weight attribute, and
the per-vertex reductions (``apsp_lab._core.reduce_edges``) the whole-graph functions read.

NetworkX starts every source at ``0`` (an int) and adds each edge's weight (``1`` where the
attribute is missing), so a path's length has the type of ``0 + w1 + w2 + ...``: int for int
(and bool) weights, float for floats, the NumPy type for weights all of one NumPy type. Where
the types are mixed, which type a length has depends on the path NetworkX happens to find,
so such weights go to NetworkX. Only integral values are taken: their sums are exact in every
one of these types (below 2**53), so they do not depend on the order of the additions either.
"""

from __future__ import annotations

# The reductions binding takes int32 edge weights.
MAX_REDUCED_WEIGHT = 2**31 - 1


class Scalar:
    """How a path length of this graph is typed as NetworkX would type it.

    kind  "int" (Python int), "float" (Python float) or "numpy" (``numpy_type``)
    """

    __slots__ = ("kind", "numpy_type")

    def __init__(self, kind, numpy_type=None):
        self.kind = kind
        self.numpy_type = numpy_type

    def one(self, x):
        """The length x (an integer) as NetworkX's sum gives it."""
        if self.kind == "int":
            return int(x)
        if self.kind == "float":
            return float(x)
        return self.numpy_type(x)

    def many(self, arr):
        """The lengths of an integer array, each as above (a list)."""
        if self.kind == "int":
            return arr.tolist() if arr.dtype.kind == "i" else arr.astype("int64").tolist()
        if self.kind == "float":
            return arr.astype("float64").tolist()
        return list(arr.astype(self.numpy_type))

    def quotient(self, x):
        """``float / length`` of this type: float, or np.float64 for NumPy lengths."""
        if self.kind == "numpy":
            import numpy as np

            return np.float64(x)
        return float(x)


INT = Scalar("int")


def path_scalar(w, missing=int):
    """The Scalar of a path length over the Weights ``w`` (None: unweighted) where a
    missing weight is ``missing`` (int 1 in Dijkstra, Bellman-Ford and BFS), or raise
    NotImplementedError saying why NetworkX must answer instead (mixed types)."""
    import numpy as np

    if w is None:
        return INT
    if w.reason is not None:
        raise NotImplementedError(w.reason)
    types = set(w.types)
    if w.n_missing:
        types.add(missing)
    if not types or types <= {int, bool}:
        return INT
    if types == {float}:
        return Scalar("float")
    if len(types) == 1 and issubclass(t := next(iter(types)), (np.integer, np.float64)):
        if w.dict_reason is not None:
            raise NotImplementedError(w.dict_reason)
        return Scalar("numpy", t)
    names = ", ".join(sorted(t.__name__ for t in types))
    raise NotImplementedError(
        f"edge weights of mixed types ({names}): the type of each NetworkX result "
        "depends on the path it finds"
    )


def scalar_of(w):
    """The Scalar of the Weights ``w`` (None: unweighted) for the whole-graph functions,
    which take integral weights up to 2**31 - 1 only; or raise NotImplementedError saying
    why NetworkX must answer instead."""
    scalar = path_scalar(w)
    if w is None:
        return scalar
    core = w.core
    if len(core) and core.dtype.kind != "i":
        raise NotImplementedError(
            "edge weights that are not all integers: Floyd-Warshall's float sums may round "
            "differently from NetworkX's path by path"
        )
    if len(core) and int(core.max()) > MAX_REDUCED_WEIGHT:
        raise NotImplementedError("edge weights past 2**31 - 1")
    return scalar


def reductions(AG, w, device):
    """Each vertex's eccentricity, reaches, out_sum, reached_by and in_sum (NumPy arrays),
    reduced where the solve put the distances (nothing n x n comes to the host from a GPU).
    A graph the solver refuses (too large for this machine) raises NotImplementedError, so
    that NetworkX's dispatch can answer it itself."""
    import numpy as np

    from ._solve import resolve_device

    n = len(AG.nodes)
    if n == 0:
        zeros = np.zeros(0, dtype=np.int64)
        return {k: zeros for k in ("eccentricity", "reaches", "out_sum", "reached_by", "in_sum")}
    from .. import _core

    device = resolve_device(device)
    weight = np.ones(len(AG.src), dtype=np.int64) if w is None else w.core.astype(np.int64)
    try:
        return _core.reduce_edges(n, AG.src, AG.dst, weight, AG.directed, device, "auto", 0)
    except ValueError as exc:  # a refusal: the graph does not fit this machine
        raise NotImplementedError(str(exc)) from exc
