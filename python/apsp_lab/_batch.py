"""Many small graphs at once: apsp_lab.floyd_warshall_batch (docs/python.md, "Batches")."""

import numpy as np

from ._api import _capsule, _core, _framework, _like, _on_cuda, _stream_of

MAX_NODES = 512  # the largest graph a batch takes (core/graph_batch.hpp)


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

    The dtype is the narrowest that holds every distance exactly, known before the solve: uint8
    for hop distances of graphs up to 255 vertices, then int16, then int32. A pair with no path
    holds ``unreachable`` (default: the dtype's maximum, or 2^30 - 1 for int32; Graphormer uses
    510), which may not be a possible distance.

    Raises ValueError (a malformed batch, a graph over 512 vertices, negative weights) or
    TypeError (a non-integer dtype where one is required) before any work.
    """
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
    if padded and num_nodes is not None and not 0 < num_nodes <= MAX_NODES:
        raise ValueError(f"num_nodes must lie in 1..{MAX_NODES}")
    s = _stream_of(edge_index, stream) if device else 0
    arrays = [vertex_ptr, src, dst, weight]
    if device:
        arrays = [a if a is None else _capsule(a, s) for a in arrays]
    dist, offsets, _, _ = _core().solve_batch(
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
    )
    if device:
        dist = _like(edge_index, dist)
        offsets = None if offsets is None else _like(edge_index, offsets)
    return dist if padded else (dist, offsets)
