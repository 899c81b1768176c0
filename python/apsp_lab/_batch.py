"""Many small graphs at once: apsp_lab.floyd_warshall_batch (docs/python.md, "Batches")."""

import numpy as np

from ._api import _capsule, _core, _framework, _like, _on_cuda, _stream_of

MAX_NODES = 512  # the largest graph a batch takes (core/graph_batch.hpp)
MAX_DIST = MAX_NODES - 1  # no shortest path of a batch has more edges


def _is_integral(x):
    if _framework(x) == "torch":
        import torch

        return not (x.dtype.is_floating_point or x.dtype.is_complex or x.dtype == torch.bool)
    return np.dtype(x.dtype).kind in "iu"


def _as_int(x, bits, name):
    """x (1-D, any framework) as a contiguous array of int{bits}; TypeError unless integral."""
    if not _is_integral(x):
        raise TypeError(f"{name} must have an integer dtype, not {x.dtype}")
    if _framework(x) == "torch":
        import torch

        return x.to(getattr(torch, f"int{bits}")).contiguous()
    if isinstance(x, np.ndarray):
        return np.ascontiguousarray(x, dtype=f"int{bits}")
    return x.astype(f"int{bits}")  # CuPy, JAX: a contiguous copy


def _ptr_from_batch(batch, num_graphs):
    """PyG's ptr from its batch vector (each vertex's graph, in order)."""
    if batch.shape[0] > 1 and not bool((batch[1:] >= batch[:-1]).all()):
        raise ValueError("batch must list each vertex's graph in order, as a PyG Batch does")
    if _framework(batch) == "torch":
        import torch

        counts = torch.bincount(batch, minlength=num_graphs or 0)
        zero = torch.zeros(1, dtype=counts.dtype, device=counts.device)
        return torch.cat([zero, torch.cumsum(counts, 0)])
    if isinstance(batch, np.ndarray):
        xp = np
    elif _framework(batch) == "cupy":
        import cupy as xp
    else:
        import jax.numpy as xp
    counts = xp.bincount(batch, minlength=num_graphs or 0)
    return xp.concatenate([xp.zeros(1, dtype=counts.dtype), xp.cumsum(counts)])


def _check_weights(w):
    low, high = w.min(), w.max()
    if bool(low < 0) or bool(high >= 2**30 - 1):
        raise ValueError(f"edge_weight must lie in 0..{2**30 - 2}; found {int(low)}..{int(high)}")


def _from_matrices(graphs):
    """The edge lists of dense arrays or SciPy sparse matrices (nonzero entries are edges)."""
    sizes, srcs, dsts, weights = [0], [], [], []
    for k, g in enumerate(graphs):
        if hasattr(g, "tocoo"):
            coo = g.tocoo()
            rows, cols, vals = coo.row, coo.col, coo.data
        else:
            g = np.asarray(g)
            rows, cols = np.nonzero(g)
            vals = g[rows, cols]
        if len(g.shape) != 2 or g.shape[0] != g.shape[1]:
            raise ValueError(f"graph {k} should be a square array, not of shape {g.shape}")
        vals = np.asarray(vals)
        if vals.dtype.kind == "f" and not np.all(vals == np.floor(vals)):
            raise TypeError(f"graph {k} has non-integer weights; the batched solve is exact")
        if vals.dtype.kind not in "biuf":
            raise TypeError(f"graph {k} has a {vals.dtype} dtype; weights must be integers")
        srcs.append(rows.astype(np.int64) + sizes[-1])
        dsts.append(cols.astype(np.int64) + sizes[-1])
        weights.append(vals.astype(np.int64))
        sizes.append(sizes[-1] + g.shape[0])
    cat = (lambda parts: np.concatenate(parts)) if srcs else (lambda parts: np.zeros(0, np.int64))
    w = cat(weights)
    return np.asarray(sizes, np.int64), np.stack([cat(srcs), cat(dsts)]), w


def _max_dist_of(max_dist):
    """max_dist as the core takes it (0: no edge paths); TypeError or ValueError when it is no
    count of edges a path can have."""
    if max_dist is None:
        return 0
    if isinstance(max_dist, bool) or not isinstance(max_dist, (int, np.integer)):
        raise TypeError(f"max_dist must be an integer or None, not {type(max_dist).__name__}")
    if not 1 <= max_dist <= MAX_DIST:
        raise ValueError(
            f"max_dist must lie in 1..{MAX_DIST} (None: no edge paths), not {max_dist}"
        )
    return int(max_dist)


def _read_batch(edge_index, ptr, batch, edge_weight, graphs, num_graphs):
    """floyd_warshall_batch's batch, checked, as the core reads it: (edge_index, whether it is
    on a GPU, [vertex_ptr int64, src int64, dst int64, weight int32 or None])."""
    if graphs is not None:
        if edge_index is not None or ptr is not None or batch is not None:
            raise ValueError("give either graphs or edge_index with ptr (or batch), not both")
        ptr, edge_index, edge_weight = _from_matrices(graphs)
        if edge_weight.size and np.all(edge_weight == 1):
            edge_weight = None
    if edge_index is None:
        raise ValueError("a batch needs edge_index with ptr (or batch), or graphs")
    if ptr is None:
        if batch is None:
            raise ValueError("edge_index needs ptr or batch to say which vertices are whose")
        ptr = _ptr_from_batch(_as_int(batch, 64, "batch"), num_graphs)
    if len(edge_index.shape) != 2 or edge_index.shape[0] != 2:
        raise ValueError(f"edge_index must have shape [2, E], not {tuple(edge_index.shape)}")
    device = _on_cuda(edge_index)
    if device != _on_cuda(ptr) or (edge_weight is not None and device != _on_cuda(edge_weight)):
        raise ValueError("edge_index, ptr and edge_weight must all be on the host or one GPU")
    src = _as_int(edge_index[0], 64, "edge_index")
    dst = _as_int(edge_index[1], 64, "edge_index")
    vertex_ptr = _as_int(ptr, 64, "ptr")
    weight = None
    if edge_weight is not None:
        if not _is_integral(edge_weight):
            raise TypeError(f"edge_weight must have an integer dtype, not {edge_weight.dtype}")
        if edge_weight.shape[0]:
            _check_weights(edge_weight)
        weight = _as_int(edge_weight, 32, "edge_weight")
    return edge_index, device, [vertex_ptr, src, dst, weight]


def floyd_warshall_batch(
    edge_index=None,
    ptr=None,
    *,
    batch=None,
    edge_weight=None,
    graphs=None,
    num_graphs=None,
    unreachable=None,
    padded=False,
    num_nodes=None,
    pad_value=None,
    return_predecessors=False,
    max_dist=None,
    variant="auto",
    threads=0,
    stream=None,
):
    """All-pairs shortest paths of many small graphs at once, each of up to 512 vertices.

    The batch, one of two ways:

    - ``edge_index`` [2, E] with ``ptr`` [B + 1] (or ``batch`` [V], each vertex's graph, in
      order), and optionally ``edge_weight`` [E] of integers, as a PyTorch Geometric ``Batch``
      holds them; edges grouped by graph. NumPy arrays are solved on the CPU's threads; device
      arrays (PyTorch, CuPy, JAX) on their GPU, where they are, on ``stream`` (default: their
      framework's current stream).
    - ``graphs``: a list of square dense arrays or SciPy sparse matrices; nonzero entries are
      edges, their values integer weights.

    Returns ``(dist, offsets)``: graph g's n x n distances, row-major, are
    ``dist[offsets[g]:offsets[g + 1]]``; or with ``padded=True`` one array [B, N, N] (N:
    ``num_nodes``, default the largest graph), ``pad_value`` (default: ``unreachable``) outside
    each graph's n x n corner. Both in the framework the batch came in.

    The paths, appended in this order when asked (the same whichever variant or device solved):

    - ``return_predecessors=True``: int16 in the distances' layout, the vertex before j on the
      shortest path from i (numbered in its graph), -1 for none (i = j, no path, padding). The
      rule of ``floyd_warshall``'s integer path: the smallest such vertex over the lightest edges,
      in rounds across zero-weight edges.
    - ``max_dist=K`` (1..511): int32, each path's first K edges from i, as ids in the batch's own
      edge order (``edge_attr[ids]`` gathers their features), -1 past the path's end, for none
      and in the padding; ragged ``[offsets[-1] * K]`` (graph g's at ``offsets[g] * K``) or
      padded [B, N, N, K]. Of parallel edges the path takes the lowest id among the lightest.

    The dtype is the narrowest that holds every distance exactly, known before the solve: uint8
    for hop distances of graphs up to 255 vertices, then int16, then int32. A pair with no path
    holds ``unreachable`` (default: the dtype's maximum, or 2^30 - 1 for int32; Graphormer uses
    510), which may not be a possible distance.

    Raises ValueError (a malformed batch, a graph over 512 vertices, negative weights, max_dist
    outside 1..511) or TypeError (a non-integer dtype where one is required) before any work.
    """
    path_edges = _max_dist_of(max_dist)
    edge_index, device, arrays = _read_batch(
        edge_index, ptr, batch, edge_weight, graphs, num_graphs
    )
    if padded and num_nodes is not None and not 0 < num_nodes <= MAX_NODES:
        raise ValueError(f"num_nodes must lie in 1..{MAX_NODES}")
    s = _stream_of(edge_index, stream) if device else 0
    if device:
        arrays = [a if a is None else _capsule(a, s) for a in arrays]
    dist, offsets, _, _, pred, edges = _core().solve_batch(
        arrays[0],
        None,
        arrays[1],
        arrays[2],
        arrays[3],
        unreachable,
        (num_nodes or 0) if padded else None,
        pad_value,
        variant,
        threads,
        s,
        bool(return_predecessors),
        path_edges,
    )
    out = [dist] if padded else [dist, offsets]
    out += ([pred] if return_predecessors else []) + ([edges] if path_edges else [])
    if device:
        out = [_like(edge_index, a) for a in out]
    return out[0] if len(out) == 1 else tuple(out)


def _shortest_path_attributes(edge_index, ptr, edge_weight=None, **options):
    """What apsp_lab.pyg.AddShortestPaths attaches to a graph or a batch, by name:
    ``shortest_dist``, and ``shortest_pred`` and ``shortest_path_edges`` when asked; ragged
    (flat, graph after graph) or padded, as floyd_warshall_batch returns them, in the batch's
    framework; options are floyd_warshall_batch's. Written over any array framework, so that it
    is tested without PyG."""
    out = floyd_warshall_batch(edge_index, ptr, edge_weight=edge_weight, **options)
    out = list(out) if isinstance(out, tuple) else [out]
    if not options.get("padded"):
        del out[1]  # the offsets: a graph's block follows from ptr
    names = ["shortest_dist"] + (["shortest_pred"] if options.get("return_predecessors") else [])
    names += ["shortest_path_edges"] if options.get("max_dist") is not None else []
    return dict(zip(names, out))
