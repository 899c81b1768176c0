"""floyd_warshall, solve and solve_edges: SciPy's conventions on the lab's solver.

What SciPy does with an input, this module does too, and it raises SciPy's errors on bad shapes;
the solve itself is the compiled core's (harness/solve/array_solve.hpp in the repository).
"""

import warnings
from dataclasses import dataclass, field

import numpy as np

INF32 = 1073741823  # "no path" in int32 results (the lab's unreachable value, 2^30 - 1)
INF64 = (1 << 62) - 1  # and in int64 ones

_DEVICES = ("auto", "cpu", "cuda")
_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13  # DLPack device types whose memory a kernel reads


def _core():
    from . import _core as core

    return core


def cuda_available():
    """Whether a CUDA device is present (asks the driver; makes no CUDA context)."""
    return _core().device_count() > 0


def device_info():
    """The first CUDA device's name, compute capability, SMs and memory; None without one."""
    return _core().device_info()


_negative_cycle_error = None


def negative_cycle_error():
    """SciPy's NegativeCycleError where SciPy is installed, else a class of the same name."""
    global _negative_cycle_error
    if _negative_cycle_error is None:
        try:
            from scipy.sparse.csgraph import NegativeCycleError
        except ImportError:

            class NegativeCycleError(Exception):
                """A negative cycle: no shortest paths exist (as SciPy's)."""

        _negative_cycle_error = NegativeCycleError
    return _negative_cycle_error


@dataclass
class Solution:
    """What solve() returns: the distances, and how they were found.

    dist: n x n, float64 with inf where there is no path (dtype=None), or int32 / int64 with
        INF32 / INF64 there; a device array for a device input.
    predecessors: n x n int32, -9999 for none (SciPy's), or None when not asked for.
    precision: the precision the distances were solved and proven in ("u16x2", "int32",
        "int64", "float64").
    solved_with: the variant and config, "cpu", or blocked_i64 for the 64-bit and float64 paths.
    negative_cycle: vertices on a negative cycle (then floyd_warshall raises).
    timing_ms: (step, milliseconds) pairs; log: the solver's lines for the user.
    """

    dist: object
    predecessors: object = None
    precision: str = ""
    solved_with: str = ""
    negative_cycle: list = field(default_factory=list)
    timing_ms: list = field(default_factory=list)
    log: list = field(default_factory=list)


def _result_dtype(dtype):
    if dtype is None:
        return "float64"
    name = np.dtype(dtype).name
    if name not in ("float64", "int32", "int64"):
        raise ValueError(f"dtype must be None (float64), numpy.int32 or numpy.int64, not {name}")
    return name


def _check_device(device):
    if device not in _DEVICES:
        raise ValueError(f"device must be one of {', '.join(map(repr, _DEVICES))}, not {device!r}")


def _is_scipy_sparse(x):
    return type(x).__module__.startswith("scipy.sparse") and hasattr(x, "tocoo")


def _on_cuda(x):
    if isinstance(x, np.ndarray) or not hasattr(x, "__dlpack_device__"):
        return False
    try:
        kind, _ = x.__dlpack_device__()
    except Exception:
        return False
    return int(kind) in (_KDL_CUDA, _KDL_CUDA_MANAGED)


def _readable(a):
    """a as an array of a dtype the core reads (bool, integers, float32, float64)."""
    if a.dtype.kind == "c":
        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            np.exceptions.ComplexWarning if hasattr(np, "exceptions") else RuntimeWarning,
            stacklevel=4,
        )
        a = a.real
    if a.dtype.kind not in "biuf" or a.dtype == np.float16 or a.dtype.itemsize > 8:
        a = a.astype(np.float64)
    return a


def _info(sol, info):
    sol.precision = info["precision"]
    sol.solved_with = info["solved_with"]
    sol.negative_cycle = list(info["negative_cycle"])
    sol.timing_ms = [tuple(s) for s in info["timing_ms"]]
    sol.log = list(info["log"])
    return sol


def _refuse_as_scipy(a):
    """Raises what SciPy's csgraph_masked_from_dense raises for a dense array of no number
    dtype (strings, bytes, objects, dates): the same NumPy operations on it."""
    if a.dtype.kind in "biufc":
        return
    masked = np.ma.masked_values(a, np.float64(0), copy=False)
    masked.mask |= np.isinf(masked)
    masked.mask |= np.isnan(masked)


def _solve_dense(
    csgraph, directed, predecessors, unweighted, overwrite, device, dtype, variant, threads, rows=()
):
    mask = None
    if np.ma.isMaskedArray(csgraph):
        mask = np.ma.getmaskarray(csgraph)
        a = np.asarray(csgraph.data)
    else:
        a = np.asarray(csgraph)
    if a.ndim != 2:
        raise ValueError("graph should have two dimensions")
    if a.shape[0] != a.shape[1]:
        raise ValueError("graph should be a square array")
    if mask is None:
        _refuse_as_scipy(a)
    a = _readable(a)
    # SciPy's overwrite: a dense, C-ordered float64 array may hold the result.
    out = None
    if (
        overwrite
        and mask is None
        and isinstance(csgraph, np.ndarray)
        and a is csgraph
        and dtype == "float64"
        and not len(rows)
        and a.dtype == np.float64
        and a.flags.c_contiguous
        and a.flags.writeable
    ):
        out = a
    dist, pred, info = _core().solve_dense(
        a,
        mask,
        out,
        directed,
        unweighted,
        predecessors,
        device,
        variant,
        dtype,
        threads,
        list(rows),
    )
    return _info(Solution(a if out is not None else dist, pred), info)


def _solve_sparse(
    csgraph, directed, predecessors, unweighted, device, dtype, variant, threads, rows=()
):
    if csgraph.ndim != 2 or csgraph.shape[0] != csgraph.shape[1]:
        raise ValueError("csgraph should be a square matrix")
    coo = csgraph.tocoo()
    values = _readable(np.asarray(coo.data))
    return _edges(
        csgraph.shape[0],
        coo.row,
        coo.col,
        values,
        directed,
        predecessors,
        unweighted,
        device,
        dtype,
        variant,
        threads,
        rows,
    )


def _indices(x):
    x = np.ascontiguousarray(x)
    if x.size == 0:
        return np.zeros(0, dtype=np.int32)
    if x.dtype.kind not in "iu":
        raise ValueError("vertex indices must be integers")
    return x.astype(
        np.int64 if x.dtype.itemsize > 4 or x.dtype == np.uint32 else np.int32, copy=False
    )


_MAX_N = 1 << 20  # the most vertices any of the lab's solves takes


def _edges(
    n,
    row,
    col,
    values,
    directed,
    predecessors,
    unweighted,
    device,
    dtype,
    variant,
    threads,
    rows=(),
):
    if not 0 <= int(n) <= _MAX_N:
        raise ValueError(f"n must be in [0, {_MAX_N}], not {n}")
    row, col = _indices(row), _indices(col)
    if row.dtype != col.dtype:
        row, col = row.astype(np.int64), col.astype(np.int64)
    values = np.ascontiguousarray(values)
    dist, pred, info = _core().solve_sparse(
        int(n),
        row,
        col,
        values,
        directed,
        unweighted,
        predecessors,
        device,
        variant,
        dtype,
        threads,
        list(rows),
    )
    return _info(Solution(dist, pred), info)


def _framework(x):
    """The top-level package of x's type ("torch", "cupy", "jax", "numpy", ...)."""
    return type(x).__module__.split(".")[0]


def _capsule(x, stream):
    """x's DLPack capsule, taken on `stream` (DLPack's numbering)."""
    try:
        return x.__dlpack__(stream=stream)
    except TypeError:  # a producer without the stream keyword: ready on any stream
        return x.__dlpack__()


def _stream_of(x, stream):
    """The CUDA stream handle (DLPack's numbering: 1 the legacy default stream) to take x on:
    the caller's, else the producer's current one where its framework says, else the legacy
    default stream."""
    if stream is not None:
        for attr in ("cuda_stream", "ptr", "handle"):
            if hasattr(stream, attr):
                stream = getattr(stream, attr)
                break
        stream = int(stream)
    else:
        framework = _framework(x)
        stream = 1
        if framework == "torch":
            import torch

            stream = torch.cuda.current_stream(x.device).cuda_stream
        elif framework == "cupy":
            import cupy

            stream = cupy.cuda.get_current_stream().ptr
    return stream if stream not in (0, None) else 1  # 0 is the legacy default stream's handle


def _like(x, array):
    """The device array `array` (ours, with __dlpack__) as x's framework's array, no copy."""
    framework = _framework(x)
    if framework == "torch":
        import torch

        return torch.from_dlpack(array)
    if framework == "cupy":
        import cupy

        return cupy.from_dlpack(array)
    if framework in ("jax", "jaxlib"):
        import jax.numpy as jnp

        return jnp.from_dlpack(array)
    return array


def _dtype_name(x):
    """x's dtype as its framework names it, without the framework ("float16", "bfloat16")."""
    return str(x.dtype).rsplit(".", 1)[-1]


def _device_result_dtype(x):
    """A device array's distances: int32 for integer dtypes, float64 for floating ones (SciPy's
    conventions on either); TypeError for bool and complex."""
    name = _dtype_name(x)
    if name.startswith(("float", "bfloat")) or name in ("half", "double"):
        return "float64"
    if name.startswith(("bool", "complex")) or name in ("cfloat", "cdouble"):
        raise TypeError(
            f"csgraph: a device array of {name} is not a graph's weights (an integer or floating "
            "dtype is)"
        )
    return "int32"


def _solve_device(
    x, directed, predecessors, unweighted, overwrite, device, dtype, variant, stream, threads
):
    if predecessors:
        raise ValueError("return_predecessors: not for device arrays (solve a host array)")
    if device == "cpu":
        raise ValueError("device='cpu': this array is in CUDA device memory")
    if dtype not in ("int32", "float64"):
        raise ValueError(
            "a device array is solved into int32 distances (integer dtypes) or float64 ones "
            "(floating dtypes): dtype=None"
        )
    shape = tuple(x.shape)
    if len(shape) != 2:
        raise ValueError("graph should have two dimensions")
    if shape[0] != shape[1]:
        raise ValueError("graph should be a square array")
    result = _device_result_dtype(x)
    s = _stream_of(x, stream)
    capsule = _capsule(x, s)
    device_id = int(x.__dlpack_device__()[1])
    in_place = overwrite and _framework(x) not in ("jax", "jaxlib") and _dtype_name(x) == result
    out = None if in_place else _core().device_empty(shape[0], device_id, result)
    info = _core().solve_device(capsule, out, s, directed, unweighted, variant, threads)
    return _info(Solution(x if in_place else _like(x, out)), info)


def solve(
    csgraph,
    directed=True,
    return_predecessors=False,
    unweighted=False,
    overwrite=False,
    *,
    device="auto",
    dtype=None,
    variant="auto",
    stream=None,
    threads=0,
):
    """All-pairs shortest paths of csgraph, with floyd_warshall's arguments; returns a Solution.

    device: "auto" (the GPU when there is one), "cpu" or "cuda".
    dtype: None for float64 distances (inf: no path), numpy.int32 or numpy.int64 for the integer
        distances themselves (INF32 / INF64: no path; integer weights >= 0 only), skipping the
        float conversion.
    variant: the lab's variant or config for integer weights ("auto": chosen for the GPU and n).
    stream: for a device array, the CUDA stream its data is ready on (an int handle, or a
        CuPy / PyTorch stream); by default the framework's current stream.
    threads: CPU threads for the host's work (0: all cores).
    """
    _check_device(device)
    dtype_name = _result_dtype(dtype)
    if _on_cuda(csgraph):
        return _solve_device(
            csgraph,
            bool(directed),
            bool(return_predecessors),
            bool(unweighted),
            bool(overwrite),
            device,
            dtype_name,
            variant,
            stream,
            int(threads),
        )
    if _is_scipy_sparse(csgraph):
        return _solve_sparse(
            csgraph,
            bool(directed),
            bool(return_predecessors),
            bool(unweighted),
            device,
            dtype_name,
            variant,
            int(threads),
        )
    return _solve_dense(
        csgraph,
        bool(directed),
        bool(return_predecessors),
        bool(unweighted),
        bool(overwrite),
        device,
        dtype_name,
        variant,
        int(threads),
    )


def _raise_on_negative_cycle(sol):
    if sol.negative_cycle:
        raise negative_cycle_error()(f"Negative cycle in nodes {np.array(sol.negative_cycle)}")


def floyd_warshall(
    csgraph,
    directed=True,
    return_predecessors=False,
    unweighted=False,
    overwrite=False,
    *,
    device="auto",
    dtype=None,
    variant="auto",
    stream=None,
    threads=0,
):
    """scipy.sparse.csgraph.floyd_warshall, on the lab's solver.

    Takes what SciPy's takes (dense arrays, where 0, inf and NaN off the diagonal mean no edge;
    SciPy sparse matrices and arrays, where every stored entry is an edge; masked arrays) and
    returns the same: float64 distances, inf where there is no path, and with
    return_predecessors an int32 predecessor matrix (-9999 for none). Integer weights are solved
    exactly; other weights, and negative ones, in float64 (docs/python.md says how close to
    SciPy). A negative cycle raises NegativeCycleError. Device arrays (any integer or floating
    dtype on a CUDA device, any DLPack producer) are solved there, integer dtypes into int32
    distances, floating ones into float64: in place with overwrite=True where the input has the
    result's dtype, else into a new array of their framework. Keywords beyond SciPy's: see solve().
    """
    sol = solve(
        csgraph,
        directed,
        return_predecessors,
        unweighted,
        overwrite,
        device=device,
        dtype=dtype,
        variant=variant,
        stream=stream,
        threads=threads,
    )
    _raise_on_negative_cycle(sol)
    return (sol.dist, sol.predecessors) if return_predecessors else sol.dist


def solve_edges(
    n, src, dst, weight=None, *, directed=True, device="auto", dtype=None, variant="auto", threads=0
):
    """The distance matrix of n vertices and the edges src[e] -> dst[e] of weight weight[e].

    Duplicate edges keep the smallest weight, self loops are ignored, weight=None weighs every
    edge 1, directed=False takes every edge both ways. Returns float64 distances (inf: no path),
    or int32 / int64 ones with dtype; NegativeCycleError for a negative cycle.
    """
    _check_device(device)
    src, dst = np.asarray(src), np.asarray(dst)
    if src.shape != dst.shape or src.ndim != 1:
        raise ValueError("src and dst must be 1-D arrays of the same length")
    values = np.ones(len(src), dtype=np.int32) if weight is None else _readable(np.asarray(weight))
    if values.shape != src.shape:
        raise ValueError("weight must have one value per edge")
    sol = _edges(
        n,
        src,
        dst,
        values,
        bool(directed),
        False,
        False,
        device,
        _result_dtype(dtype),
        variant,
        int(threads),
    )
    _raise_on_negative_cycle(sol)
    return sol.dist
