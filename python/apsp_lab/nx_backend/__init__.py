"""NetworkX backend "apsp_lab": all-pairs shortest path lengths from one dense solve.

NetworkX finds this package through two entry points of the ``apsp_lab`` package::

    [project.entry-points."networkx.backends"]
    apsp_lab = "apsp_lab.nx_backend:backend_interface"
    [project.entry-points."networkx.backend_info"]
    apsp_lab = "apsp_lab.nx_backend:get_info"

Use it per call (``nx.floyd_warshall_numpy(G, backend="apsp_lab")``) or for every call
NetworkX can send it (``nx.config.backend_priority = ["apsp_lab"]``, or the environment
variable ``NETWORKX_BACKEND_PRIORITY=apsp_lab`` before NetworkX is imported).

Implemented, with NetworkX 3.6's signatures and results:

- ``floyd_warshall_numpy(G, nodelist=None, weight="weight")``
- ``floyd_warshall(G, weight="weight")``
- ``all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight")``
- ``all_pairs_bellman_ford_path_length(G, weight="weight")``
- ``all_pairs_shortest_path_length(G, cutoff=None)``
- ``closeness_centrality(G, u=None, distance=None, wf_improved=True)``
- ``harmonic_centrality(G, nbunch=None, distance=None, sources=None)``
- ``eccentricity(G, v=None, sp=None, weight=None)``
- ``diameter``, ``radius``, ``center``, ``periphery`` ``(G, e=None, usebounds=False, weight=None)``
- ``average_shortest_path_length(G, weight=None, method=None)``
- ``wiener_index(G, weight=None)``

Each call converts the graph to an :class:`ApspGraph` (node list and edge arrays in
NumPy), makes exactly one ``apsp_lab.solve_edges`` call for the n x n distance matrix, and
builds NetworkX's return value from that matrix; the whole-graph functions
(``_whole_graph.py``) read per-vertex reductions of the distances instead
(``apsp_lab._core.reduce_edges``), made where the solve put them, so that no n x n matrix
comes back from a GPU. ``can_run`` turns down what this path would not answer exactly as
NetworkX does (callable or non-numeric weights, negative or non-finite weights, integer path
lengths past 2**53, ...), so that NetworkX falls back to its own implementation under
automatic dispatch.

Every function takes one extra keyword, ``device`` ("auto", "cpu" or "cuda"); its default
is ``nx.config.backends.apsp_lab.device`` ("auto").

Importing this package is cheap: NumPy and the compiled core are imported on first use,
because NetworkX imports this package (for ``get_info``) whenever NetworkX itself is imported.

The package, one job per module (a new function is one decorated definition in
``_functions.py``; nothing else lists the functions):

- ``_registry.py``: the implemented functions, each declared once with ``@implements``
  (NetworkX's parameters, its docs line, how its result is built)
- ``_weights.py``: an edge attribute's values classified once (exact integer path, what
  NetworkX would do differently)
- ``_graph.py``: :class:`ApspGraph` and the conversion from a NetworkX graph
- ``_cache.py``: the conversion ``can_run`` made, reused by ``convert_from_nx``
- ``_solve.py``: the one solve per call and NetworkX's rows from its matrix
- ``_functions.py``: the all-pairs functions
- ``_whole_graph.py``: the whole-graph functions
- ``_scalars.py``: NetworkX's number type of a path length, and the reductions
- ``_fw_types.py``: the number type of each of floyd_warshall's entries, and its key order
- ``_dispatch.py``: :class:`BackendInterface` (conversions, ``can_run``, ``should_run``)
- ``_info.py``: ``get_info``, the metadata entry point
"""

# The public names, re-exported (NetworkX's entry points name backend_interface and get_info).
from ._dispatch import BackendInterface, backend_interface
from ._functions import _inf as _inf  # floyd_warshall's default factory, as pickled before
from ._functions import all_pairs_bellman_ford_path_length as all_pairs_bellman_ford_path_length
from ._functions import all_pairs_dijkstra_path_length as all_pairs_dijkstra_path_length
from ._functions import all_pairs_shortest_path_length as all_pairs_shortest_path_length
from ._functions import floyd_warshall as floyd_warshall
from ._functions import floyd_warshall_numpy as floyd_warshall_numpy
from ._graph import ApspGraph
from ._info import get_info
from ._registry import BACKEND_NAME as BACKEND_NAME
from ._whole_graph import average_shortest_path_length as average_shortest_path_length
from ._whole_graph import center as center
from ._whole_graph import closeness_centrality as closeness_centrality
from ._whole_graph import diameter as diameter
from ._whole_graph import eccentricity as eccentricity
from ._whole_graph import harmonic_centrality as harmonic_centrality
from ._whole_graph import periphery as periphery
from ._whole_graph import radius as radius
from ._whole_graph import wiener_index as wiener_index

__all__ = ["ApspGraph", "BackendInterface", "backend_interface", "get_info"]
