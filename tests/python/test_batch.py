"""apsp_lab.floyd_warshall_batch on the CPU path, graph by graph against SciPy's shortest_path:
PyG's edge_index and ptr (or batch), a list of matrices, ragged and padded results, the narrowest
exact dtype and the chosen unreachable value, and every refusal before any work; the predecessors
and edge paths walked pair by pair, and the PyG transform's attributes (the transform itself
where torch_geometric imports). The same batches on the GPU, from PyTorch and CuPy arrays:
test_batch_gpu.py."""

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


def lightest_edges(edge_index, ptr, weight, g):
    """Graph g's lightest u -> v weight and the lowest id among those edges (self loops left
    out), by (u, v) in the graph's own numbering."""
    lightest = {}
    for e in range(edge_index.shape[1]):
        u, v = int(edge_index[0, e]), int(edge_index[1, e])
        if not ptr[g] <= u < ptr[g + 1] or u == v:
            continue
        key, w = (u - ptr[g], v - ptr[g]), (1 if weight is None else int(weight[e]))
        if key not in lightest or w < lightest[key][0]:
            lightest[key] = (w, e)
    return lightest


def check_paths(edge_index, ptr, weight, dist, pred, edges, max_dist, none):
    """Every pair of every graph (ragged arrays): walking back along pred from j reaches i over
    edges whose weights add up to the distance; the edge ids are that walk's lightest edges (the
    lowest id among equals), its first max_dist, -1 after; -1 throughout where i = j or no path."""
    offsets = np.concatenate([[0], np.cumsum(np.diff(ptr) ** 2)])
    for g in range(len(ptr) - 1):
        n = int(ptr[g + 1] - ptr[g])
        lightest = lightest_edges(edge_index, ptr, weight, g)
        d = dist[offsets[g] : offsets[g + 1]].reshape(n, n).astype(np.int64)
        p = pred[offsets[g] : offsets[g + 1]].reshape(n, n)
        ids = edges[offsets[g] * max_dist : offsets[g + 1] * max_dist].reshape(n, n, max_dist)
        for i in range(n):
            for j in range(n):
                if i == j or d[i, j] == none:
                    assert p[i, j] == -1 and np.all(ids[i, j] == -1), (g, i, j)
                    continue
                walk = [j]
                while walk[-1] != i and len(walk) <= n:
                    walk.append(int(p[i, walk[-1]]))
                walk.reverse()
                assert walk[0] == i, (g, i, j, walk)
                steps = [lightest[(a, b)] for a, b in zip(walk, walk[1:])]
                assert sum(w for w, _ in steps) == d[i, j], (g, i, j)
                want = [e for _, e in steps][:max_dist]
                want += [-1] * (max_dist - len(want))
                np.testing.assert_array_equal(ids[i, j], want, err_msg=f"{(g, i, j)}")


@pytest.mark.parametrize("max_w,max_dist", [(0, 3), (2, 5), (9, 1)])
def test_predecessors_and_edge_paths(max_w, max_dist):
    edge_index, ptr, w = make_batch(list(range(0, 14)) + [30], max_w=max_w, seed=10 + max_w)
    if w is not None:
        w[::4] = 0  # zero weights: ties and zero-weight cycles
    dist, offsets, pred, edges = apsp_lab.floyd_warshall_batch(
        edge_index, ptr, edge_weight=w, unreachable=-1, return_predecessors=True, max_dist=max_dist
    )
    assert pred.dtype == np.int16 and edges.dtype == np.int32
    assert pred.shape == dist.shape and edges.shape == (dist.shape[0] * max_dist,)
    check_paths(edge_index, ptr, w, dist, pred, edges, max_dist, -1)
    padded = apsp_lab.floyd_warshall_batch(
        edge_index, ptr, edge_weight=w, padded=True, return_predecessors=True, max_dist=max_dist
    )
    n_max = int(np.diff(ptr).max())
    assert padded[1].shape == (len(ptr) - 1, n_max, n_max)
    assert padded[2].shape == (len(ptr) - 1, n_max, n_max, max_dist)
    for g in range(len(ptr) - 1):
        n, lo, hi = ptr[g + 1] - ptr[g], offsets[g], offsets[g + 1]
        np.testing.assert_array_equal(padded[1][g, :n, :n].ravel(), pred[lo:hi])
        np.testing.assert_array_equal(
            padded[2][g, :n, :n].ravel(), edges[lo * max_dist : hi * max_dist]
        )
        assert np.all(padded[1][g, n:] == -1) and np.all(padded[2][g, :, n:] == -1)
    alone = apsp_lab.floyd_warshall_batch(edge_index, ptr, edge_weight=w, max_dist=max_dist)
    np.testing.assert_array_equal(alone[2], edges)  # (dist, offsets, edges): no predecessors


def test_predecessors_are_floyd_warshalls():
    """The batch's predecessors are floyd_warshall's integer path's, graph by graph (its -9999
    is the batch's -1), zero-weight edges included."""
    pytest.importorskip("scipy")
    edge_index, ptr, w = make_batch([1, 6, 17, 40], max_w=3, seed=12)
    w[::3] = 0
    _, offsets, pred = apsp_lab.floyd_warshall_batch(
        edge_index, ptr, edge_weight=w, return_predecessors=True
    )
    for g in range(len(ptr) - 1):
        n = int(ptr[g + 1] - ptr[g])
        best = {}
        for (u, v), (x, _) in lightest_edges(edge_index, ptr, w, g).items():
            best[(u, v)] = x
        rows, cols = zip(*best) if best else ((), ())
        m = csr_array((list(best.values()), (rows, cols)), shape=(n, n))
        _, want = apsp_lab.floyd_warshall(m, return_predecessors=True, dtype=np.int32, device="cpu")
        np.testing.assert_array_equal(
            pred[offsets[g] : offsets[g + 1]].reshape(n, n), np.where(want < 0, -1, want)
        )


def test_path_refusals_before_any_work():
    edge_index, ptr, _ = make_batch([4, 6], seed=13)
    for bad in (-1, 0, 512):
        with pytest.raises(ValueError, match="max_dist must lie in 1..511"):
            apsp_lab.floyd_warshall_batch(edge_index, ptr, max_dist=bad)
    for bad in (2.0, True, "3"):
        with pytest.raises(TypeError, match="max_dist must be an integer"):
            apsp_lab.floyd_warshall_batch(edge_index, ptr, max_dist=bad)
    with pytest.raises(ValueError, match="max_dist"):  # before the batch's own fault
        apsp_lab.floyd_warshall_batch(edge_index, np.array([0, 6, 4]), max_dist=-2)


def test_import_apsp_lab_imports_neither_torch_nor_pyg():
    import os
    import subprocess
    import sys

    package_root = os.path.dirname(os.path.dirname(apsp_lab.__file__))
    env = dict(os.environ, PYTHONPATH=package_root)
    code = (
        "import sys, numpy as np, apsp_lab\n"
        "apsp_lab.floyd_warshall_batch(np.array([[0], [1]]), np.array([0, 2]), max_dist=2)\n"
        "loaded = [m for m in ('torch', 'torch_geometric') if m in sys.modules]\n"
        "sys.exit(f'imported {loaded}' if loaded else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr


def test_transform_attributes_without_pyg():
    """What AddShortestPaths stores, from NumPy arrays: a graph alone (ptr [0, n]) and a batch,
    ragged and padded; the batch's blocks are the graphs' own, its edge ids the batch's."""
    from apsp_lab._batch import _shortest_path_attributes

    edge_index, ptr, _ = make_batch([5, 0, 9], seed=14)
    whole = _shortest_path_attributes(
        edge_index, ptr, max_dist=4, return_predecessors=True, unreachable=510
    )
    assert sorted(whole) == ["shortest_dist", "shortest_path_edges", "shortest_pred"]
    assert whole["shortest_dist"].dtype == np.int16
    offsets = np.concatenate([[0], np.cumsum(np.diff(ptr) ** 2)])
    for g in range(3):
        lo, hi = ptr[g], ptr[g + 1]
        keep = (edge_index[0] >= lo) & (edge_index[0] < hi)
        first_edge = int(np.argmax(keep)) if keep.any() else 0
        one = _shortest_path_attributes(
            edge_index[:, keep] - lo,
            np.array([0, hi - lo]),
            max_dist=4,
            return_predecessors=True,
            unreachable=510,
        )
        a, b = offsets[g], offsets[g + 1]
        np.testing.assert_array_equal(one["shortest_dist"], whole["shortest_dist"][a:b])
        np.testing.assert_array_equal(one["shortest_pred"], whole["shortest_pred"][a:b])
        local = whole["shortest_path_edges"][a * 4 : b * 4]
        np.testing.assert_array_equal(
            one["shortest_path_edges"], np.where(local >= 0, local - first_edge, -1)
        )
    padded = _shortest_path_attributes(edge_index, ptr, padded=True, num_nodes=12)
    assert list(padded) == ["shortest_dist"] and padded["shortest_dist"].shape == (3, 12, 12)


def test_pyg_module_needs_pyg():
    import importlib.util

    if importlib.util.find_spec("torch_geometric") is not None:
        pytest.skip("PyG is installed: test_pyg_transform covers apsp_lab.pyg")
    with pytest.raises(ImportError):
        import apsp_lab.pyg  # noqa: F401


def test_pyg_transform():
    """AddShortestPaths on Data and on their Batch: the Batch's attributes are the collated
    Data's (edge ids shifted to the batch's numbering), equal to floyd_warshall_batch's."""
    pytest.importorskip("torch_geometric")
    import torch
    from apsp_lab.pyg import AddShortestPaths
    from torch_geometric.data import Batch, Data

    edge_index, ptr, _ = make_batch([5, 3, 9, 1], seed=15)
    graphs = []
    for g in range(4):
        keep = (edge_index[0] >= ptr[g]) & (edge_index[0] < ptr[g + 1])
        local = torch.as_tensor(edge_index[:, keep] - ptr[g])
        graphs.append(Data(edge_index=local, num_nodes=int(ptr[g + 1] - ptr[g])))
    transform = AddShortestPaths(max_dist=3, return_predecessors=True, unreachable=510)
    batch = transform(Batch.from_data_list(graphs))
    collated = Batch.from_data_list([transform(d) for d in graphs])
    assert torch.equal(batch.shortest_dist, collated.shortest_dist)
    assert torch.equal(batch.shortest_pred, collated.shortest_pred)
    ids = batch.shortest_path_edges
    sizes = np.diff(ptr) ** 2 * 3
    shift = torch.as_tensor(
        np.repeat(np.concatenate([[0], np.cumsum([d.num_edges for d in graphs])[:-1]]), sizes)
    )
    want = torch.where(collated.shortest_path_edges >= 0, collated.shortest_path_edges + shift, -1)
    assert torch.equal(ids, want.to(ids.dtype))
    dist, _, pred, edges = apsp_lab.floyd_warshall_batch(
        batch.edge_index.numpy(),
        batch.ptr.numpy(),
        return_predecessors=True,
        max_dist=3,
        unreachable=510,
    )
    np.testing.assert_array_equal(batch.shortest_dist.numpy(), dist)
    np.testing.assert_array_equal(edges, ids.numpy())
    with pytest.raises(ValueError, match="max_dist"):
        AddShortestPaths(max_dist=0)
