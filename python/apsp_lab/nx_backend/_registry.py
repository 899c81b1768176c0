"""The implemented NetworkX functions, declared once.

Each function of ``_functions.py`` registers itself with :func:`implements`, saying what
the dispatcher and the metadata need to know about it: its positional parameters and
defaults exactly as NetworkX declares them, the line NetworkX shows in its docs, and how
its result is built. ``BackendInterface``, ``can_run``, ``should_run`` and ``get_info``
read :data:`FUNCTIONS`, so a new function is one decorated definition and nothing else.
"""

from __future__ import annotations

BACKEND_NAME = "apsp_lab"


class Implemented:
    """One NetworkX function this backend answers.

    func         the implementation (NetworkX's signature plus the keyword ``device``)
    params       (name, default) of each positional parameter from G on, as NetworkX's
    doc          the backend's line in NetworkX's docs of the function
    dict_result  the result is Python dicts whose lengths NetworkX sums in Python
                 (weights it would sum in another arithmetic are turned down), as opposed
                 to a float64 matrix
    streaming    NetworkX yields the rows one at a time in O(n) memory where this backend
                 needs the n x n matrix (``should_run`` sends huge graphs back)
    check        None, or check(bound, AG) -> why this call must go to NetworkX (or None):
                 what ``can_run`` asks beyond the weights (bound: the call's arguments by
                 name; AG: the converted graph)
    """

    __slots__ = ("func", "params", "doc", "dict_result", "streaming", "check")

    def __init__(self, func, params, doc, dict_result, streaming, check=None):
        self.func = func
        self.params = params
        self.doc = doc
        self.dict_result = dict_result
        self.streaming = streaming
        self.check = check

    @property
    def weight_name(self):
        """The parameter naming the edge attribute ("weight", or closeness's "distance")."""
        for name, _ in self.params:
            if name in ("weight", "distance"):
                return name
        return None

    @property
    def weighted(self):
        return self.weight_name is not None


# name -> Implemented, in the order the functions are defined.
FUNCTIONS: dict[str, Implemented] = {}


def implements(params, doc, *, dict_result=False, streaming=False, check=None):
    """Register the decorated function under its own name (NetworkX's name for it)."""

    def register(func):
        FUNCTIONS[func.__name__] = Implemented(func, params, doc, dict_result, streaming, check)
        return func

    return register
