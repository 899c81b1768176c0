"""Edge weights of a converted graph, classified once: which functions may use them, and
whether the core solves them on its exact integer path."""

from __future__ import annotations

import numbers

# Integer path lengths stay exact in the float64 matrix the core returns while below this.
EXACT_INT_LIMIT = 2**53


class _Missing:
    """Marks an edge without the weight attribute during a scan."""

    __slots__ = ()

    def __repr__(self):
        return "<missing>"


MISSING = _Missing()


class Weights:
    """One edge attribute of an ApspGraph, classified once at conversion.

    values      float64 array, one per edge (missing attribute -> the default, 1)
    core        the array handed to solve_edges: int64 when every value is integral and
                path lengths stay below 2**53 (the core's exact path), else ``values``
    int_valued  every present value is an int (Python or NumPy integer, or bool): NetworkX's
                sums are ints, so ours are returned as ints too
    n_missing   edges without the attribute (NetworkX: 1 in the Dijkstra family,
                1.0 in floyd_warshall, so those results become floats there)
    present     bool array of edges having the attribute (None when all have it)
    types       the Python types of the present values (a frozenset; missing ones are not
                counted: each function gives them its own default)
    int_mask    bool array of the edges whose value is a Python int, where ints are mixed
                with other types or missing values (else None)
    reason      why no function of this backend can use these weights (or None)
    dict_reason why the dict-returning functions cannot (NetworkX would sum them in an
                arithmetic other than float64/exact int), or None
    """

    __slots__ = (
        "values",
        "core",
        "int_valued",
        "n_missing",
        "present",
        "reason",
        "dict_reason",
        "types",
        "int_mask",
    )

    def __init__(
        self, values, core, int_valued, n_missing, present, reason, dict_reason, types=frozenset()
    ):
        self.values = values
        self.core = core
        self.int_valued = int_valued
        self.n_missing = n_missing
        self.present = present
        self.reason = reason
        self.dict_reason = dict_reason
        self.types = types
        self.int_mask = None


def _is_intlike(t):
    import numpy as np

    return issubclass(t, (int, np.integer, np.bool_))


def _fill_missing(raw, default):
    """(raw with MISSING replaced by ``default``, their types, present, n_missing)."""
    import numpy as np

    types = set(map(type, raw))
    if _Missing not in types:
        return raw, types, None, 0
    types.discard(_Missing)
    types.add(type(default))
    m = len(raw)
    present = np.fromiter((w is not MISSING for w in raw), dtype=bool, count=m)
    raw = [default if w is MISSING else w for w in raw]
    return raw, types, present, m - int(present.sum())


def _judge_types(types):
    """(int_valued, narrow, reason, dict_reason) from the weights' Python types; narrow is
    the smallest max of a fixed-width NumPy integer type among them (or None)."""
    import numpy as np

    int_valued = True
    narrow = None
    dict_reason = None
    for t in types:
        if _is_intlike(t):
            if issubclass(t, np.integer):
                top = int(np.iinfo(t).max)
                narrow = top if narrow is None else min(narrow, top)
            continue
        int_valued = False
        if issubclass(t, float):  # float, np.float64 (and float subclasses)
            continue
        if issubclass(t, numbers.Real):  # Fraction, np.float32, np.float16, longdouble...
            dict_reason = (
                f"edge weights of type {t.__name__}: NetworkX sums them in that type's "
                "own arithmetic, this backend in float64"
            )
            continue
        return False, narrow, f"non-numeric edge weights (type {t.__name__})", None
    return int_valued, narrow, None, dict_reason


def _judge_values(values, n, int_valued, narrow):
    """(core, reason, dict_reason) from the float64 values (at least one) and n."""
    import numpy as np

    if not np.isfinite(values).all():
        return values, "non-finite edge weights (inf or nan)", None
    if values.min() < 0:
        return values, "negative edge weights", None
    bound = float(values.max()) * max(n - 1, 1)
    if bound == float("inf"):
        return values, "path lengths may overflow float64", None
    if int_valued and bound >= EXACT_INT_LIMIT:
        return values, "integer path lengths may exceed 2**53 (not exact in float64)", None
    dict_reason = None
    if narrow is not None and bound > narrow:
        dict_reason = (
            "fixed-width NumPy integer weights whose sums may overflow in NetworkX's arithmetic"
        )
    if bound < EXACT_INT_LIMIT and (int_valued or np.array_equal(values, np.floor(values))):
        # Integral values: the core's exact integer path (same results as NetworkX's float
        # sums, which are exact below 2**53).
        return values.astype(np.int64), None, dict_reason
    return values, None, dict_reason


def classify(raw, n, default=1):
    """Turn one attribute's raw values (MISSING where an edge lacks it) of a graph of n
    nodes into a Weights (see its docstring)."""
    import numpy as np

    m = len(raw)
    present_types = frozenset(map(type, raw)) - {_Missing}
    int_mask = None
    if int in present_types and (len(present_types) > 1 or any(x is MISSING for x in raw)):
        int_mask = np.fromiter((type(x) is int for x in raw), dtype=bool, count=m)
    raw, types, present, n_missing = _fill_missing(raw, default)
    int_valued, narrow, reason, dict_reason = _judge_types(types)
    if reason is not None:
        return Weights(None, None, False, n_missing, present, reason, None, present_types)
    try:
        values = np.array(raw, dtype=np.float64) if m else np.zeros(0)
    except (TypeError, ValueError, OverflowError) as exc:
        reason = f"edge weights not convertible to float64 ({exc})"
        return Weights(None, None, False, n_missing, present, reason, None, present_types)
    core = values
    if m:
        core, reason, bound_dict_reason = _judge_values(values, n, int_valued, narrow)
        dict_reason = bound_dict_reason or dict_reason
    w = Weights(values, core, int_valued, n_missing, present, reason, dict_reason, present_types)
    w.int_mask = int_mask
    return w
