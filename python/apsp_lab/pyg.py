"""apsp_lab.pyg: shortest paths as a PyTorch Geometric transform (docs/python.md, "Batches").

Importable only where torch_geometric is installed; ``import apsp_lab`` imports neither it nor
torch. The work is apsp_lab.floyd_warshall_batch's (through _shortest_path_attributes, which is
tested without PyG); this class only reads a Data or Batch and stores what it returns.
"""

import copy

import torch
from torch_geometric.transforms import BaseTransform

from ._batch import _max_dist_of, _shortest_path_attributes


def _where_solved(x):
    """A device tensor as it is (solved on its GPU); a host tensor as NumPy (the CPU path)."""
    return x if x is None or x.is_cuda else x.numpy()


class AddShortestPaths(BaseTransform):
    """Adds every pair's shortest-path distance to a ``Data`` or ``Batch`` (``shortest_dist``),
    and when asked the predecessors (``shortest_pred``, ``return_predecessors=True``) and the
    first ``max_dist`` edges of each path (``shortest_path_edges``).

    A ``Batch`` is solved whole, on its device (its ``ptr`` says which vertices are whose); a
    ``Data`` is one graph. Ragged by default: flat, graph after graph, each graph's n x n block
    row-major (n x n x max_dist for the edges), so that PyG collates transformed ``Data`` into
    the same layout a transformed ``Batch`` has. ``padded=True``: [B, N, N] (a ``Data``: [1, N,
    N]; give ``num_nodes`` so that every graph pads alike). Edge ids index the object's own
    ``edge_index`` and ``edge_attr`` (-1: none); collating transformed ``Data`` keeps each
    graph's ids its own. ``weight_attr`` names integer edge weights (none: hop counts);
    ``unreachable`` is the no-path value (Graphormer: 510).
    """

    def __init__(
        self,
        max_dist=None,
        return_predecessors=False,
        unreachable=None,
        padded=False,
        num_nodes=None,
        weight_attr=None,
        variant="auto",
    ):
        _max_dist_of(max_dist)  # refused here, not at the first graph
        self.weight_attr = weight_attr
        self.options = dict(
            max_dist=max_dist,
            return_predecessors=return_predecessors,
            unreachable=unreachable,
            padded=padded,
            num_nodes=num_nodes,
            variant=variant,
        )

    def __call__(self, data):
        return self.forward(copy.copy(data))

    def forward(self, data):
        edge_index = data.edge_index
        ptr = getattr(data, "ptr", None)
        if ptr is None:
            ptr = torch.tensor([0, data.num_nodes], dtype=torch.int64, device=edge_index.device)
        weight = data[self.weight_attr] if self.weight_attr else None
        found = _shortest_path_attributes(
            _where_solved(edge_index), _where_solved(ptr), _where_solved(weight), **self.options
        )
        for name, value in found.items():
            data[name] = value if isinstance(value, torch.Tensor) else torch.from_numpy(value)
        return data

    def __repr__(self):
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items() if v not in (None, False))
        return f"{type(self).__name__}({shown})"
