"""apsp_lab.floyd_warshall_batch on the CPU path, graph by graph against SciPy's shortest_path:
PyG's edge_index and ptr (or batch), a list of matrices, ragged and padded results, the narrowest
exact dtype and the chosen unreachable value, and every refusal before any work. The same
batches on the GPU, from PyTorch and CuPy arrays: test_batch_gpu.py."""

import apsp_lab
import numpy as np
import pytest
from scipy.sparse import csr_array
from scipy.sparse.csgraph import shortest_path


def random_graph(n, rng, max_w):
    """About 2n edges with weights in [1, max_w] (0: hop counts), self loops, duplicates and
    vertices left isolated among them."""
    m = 2 * n
    src = rng.integers(0, n, m)
    dst = rng.integers(0, n, m)
    keep = (src % 7 != 3) & (dst % 7 != 3)
    w = rng.integers(0 if max_w else 1, (max_w or 1) + 1, m)
    return src[keep], dst[keep], w[keep]


def make_batch(sizes, max_w=0, seed=0):
    rng = np.random.default_rng(seed)
    ptr, srcs, dsts, ws = [0], [], [], []
    for n in sizes:
        s, d, w = random_graph(n, rng, max_w) if n else ([], [], [])
        srcs.append(np.asarray(s, np.int64) + ptr[-1])
        dsts.append(np.asarray(d, np.int64) + ptr[-1])
        ws.append(np.asarray(w, np.int64))
        ptr.append(ptr[-1] + n)
    edge_index = np.stack([np.concatenate(srcs), np.concatenate(dsts)])
    return edge_index, np.asarray(ptr, np.int64), (np.concatenate(ws) if max_w else None)


def expected(edge_index, ptr, weight, g, unreachable):
    """Graph g's distances by NumPy's own Floyd-Warshall (duplicate edges: the smallest)."""
    lo, hi = ptr[g], ptr[g + 1]
    n = hi - lo
    keep = (edge_index[0] >= lo) & (edge_index[0] < hi)
    s, d = edge_index[0][keep] - lo, edge_index[1][keep] - lo
    w = weight[keep] if weight is not None else np.ones(len(s), np.int64)
    dist = np.full((n, n), np.inf)
    np.minimum.at(dist, (s, d), w)
    np.fill_diagonal(dist, 0)
    for k in range(n):
        dist = np.minimum(dist, dist[:, k : k + 1] + dist[k : k + 1, :])
    return np.where(np.isinf(dist), unreachable, dist).astype(np.int64)


def test_reference_agrees_with_scipy():
    """The reference above against SciPy, on graphs without zero weights (which SciPy's dense
    form cannot hold)."""
    edge_index, ptr, w = make_batch([9, 30], max_w=7, seed=9)
    keep = w > 0
    edge_index, w = edge_index[:, keep], w[keep]
    for g in range(2):
        lo, n = ptr[g], ptr[g + 1] - ptr[g]
        inside = (edge_index[0] >= lo) & (edge_index[0] < lo + n)
        dense = np.zeros((n, n))
        for a, b, x in zip(edge_index[0][inside] - lo, edge_index[1][inside] - lo, w[inside]):
            if a != b and (dense[a, b] == 0 or x < dense[a, b]):
                dense[a, b] = x
        want = shortest_path(dense, method="FW")
        want = np.where(np.isinf(want), -1, want).astype(np.int64)
        np.testing.assert_array_equal(expected(edge_index, ptr, w, g, -1), want)


SIZES = list(range(0, 40)) + [64, 100, 255]


@pytest.mark.parametrize("padded", [False, True])
def test_hop_distances_in_uint8(padded):
    edge_index, ptr, _ = make_batch(SIZES, seed=1)
    out = apsp_lab.floyd_warshall_batch(edge_index, ptr, padded=padded)
    dist = out if padded else out[0]
    assert dist.dtype == np.uint8
    for g in range(len(SIZES)):
        want = expected(edge_index, ptr, None, g, 255)
        n = SIZES[g]
        if padded:
            got = dist[g, :n, :n]
            assert np.all(dist[g][n:, :] == 255) and np.all(dist[g][:, n:] == 255)
        else:
            dist_flat, offsets = out
            got = dist_flat[offsets[g] : offsets[g + 1]].reshape(n, n)
        np.testing.assert_array_equal(got, want, err_msg=f"graph {g}")


@pytest.mark.parametrize(
    "max_w,unreachable,dtype",
    [(0, 510, np.int16), (0, -1, np.int16), (60, None, np.int16), (10**6, -1, np.int32)],
)
def test_weights_and_unreachable_pick_the_dtype(max_w, unreachable, dtype):
    edge_index, ptr, w = make_batch(SIZES + [300], max_w=max_w, seed=2)
    dist, offsets = apsp_lab.floyd_warshall_batch(
        edge_index, ptr, edge_weight=w, unreachable=unreachable
    )
    assert dist.dtype == dtype
    none = unreachable if unreachable is not None else np.iinfo(dtype).max
    for g in range(len(ptr) - 1):
        n = ptr[g + 1] - ptr[g]
        got = dist[offsets[g] : offsets[g + 1]].reshape(n, n)
        np.testing.assert_array_equal(got, expected(edge_index, ptr, w, g, none))


def test_batch_vector_and_matrices_agree_with_ptr():
    edge_index, ptr, w = make_batch([3, 0, 7, 12], max_w=5, seed=3)
    by_ptr = apsp_lab.floyd_warshall_batch(edge_index, ptr, edge_weight=w, padded=True)
    batch = np.repeat(np.arange(4), np.diff(ptr))
    by_batch = apsp_lab.floyd_warshall_batch(
        edge_index, batch=batch, num_graphs=4, edge_weight=w, padded=True
    )
    np.testing.assert_array_equal(by_batch, by_ptr)
    matrices = []
    for g in range(4):
        n = ptr[g + 1] - ptr[g]
        keep = (edge_index[0] >= ptr[g]) & (edge_index[0] < ptr[g + 1])
        m = np.zeros((n, n), np.int64)
        for s, d, x in zip(edge_index[0][keep] - ptr[g], edge_index[1][keep] - ptr[g], w[keep]):
            if x and (m[s, d] == 0 or x < m[s, d]):
                m[s, d] = x
        matrices.append(csr_array(m) if g % 2 else m)
    by_matrices = apsp_lab.floyd_warshall_batch(graphs=matrices, padded=True)
    # zero-weight edges are not edges in a matrix (SciPy's convention): compare where none is
    no_zero = apsp_lab.floyd_warshall_batch(
        edge_index[:, w > 0], ptr, edge_weight=w[w > 0], padded=True
    )
    np.testing.assert_array_equal(by_matrices, no_zero)


def test_padded_to_num_nodes_with_a_pad_value():
    edge_index, ptr, _ = make_batch([5, 9], seed=4)
    dist = apsp_lab.floyd_warshall_batch(
        edge_index, ptr, padded=True, num_nodes=12, pad_value=0, unreachable=510
    )
    assert dist.shape == (2, 12, 12) and dist.dtype == np.int16
    assert np.all(dist[0, 5:, :] == 0) and np.all(dist[1, :, 9:] == 0)


def test_refusals_before_any_work():
    edge_index, ptr, w = make_batch([4, 6], max_w=3, seed=5)
    solve = apsp_lab.floyd_warshall_batch
    with pytest.raises(ValueError, match="513 vertices"):
        solve(np.zeros((2, 0), np.int64), np.array([0, 513]))
    with pytest.raises(ValueError, match="vertex_ptr decreases"):
        solve(edge_index, np.array([0, 6, 4]))
    bad = edge_index.copy()
    bad[1, 0] = 99
    with pytest.raises(ValueError, match="leaves graph"):
        solve(bad, ptr)
    with pytest.raises(ValueError, match="edge_weight must lie in"):
        solve(edge_index, ptr, edge_weight=np.where(w == w[0], -1, w))
    with pytest.raises(TypeError, match="integer dtype"):
        solve(edge_index, ptr, edge_weight=w.astype(np.float32))
    with pytest.raises(TypeError, match="integer dtype"):
        solve(edge_index.astype(np.float64), ptr)
    with pytest.raises(ValueError, match="differ in length"):
        solve(edge_index, ptr, edge_weight=w[:-1])
    with pytest.raises(ValueError, match="could be a distance"):
        solve(edge_index, ptr, edge_weight=w, unreachable=4)
    with pytest.raises(ValueError, match="shape"):
        solve(edge_index[0], ptr)
    with pytest.raises(ValueError, match="in order"):
        solve(edge_index, batch=np.array([0, 1, 0, 1, 1, 1, 1, 1, 1, 1]))
