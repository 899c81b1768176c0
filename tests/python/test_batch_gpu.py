"""apsp_lab.floyd_warshall_batch on device arrays (PyTorch, CuPy): solved where they are, the
result in the same framework and equal to the CPU path's, byte for byte; PyG's layout as a device
Batch holds it (int64 edge_index and ptr), the batch vector, padded output, the refusals, the
predecessors and edge paths, and the PyG transform on a device Batch (where torch_geometric
imports)."""

import apsp_lab
import numpy as np
import pytest
from test_batch import SIZES, make_batch


@pytest.fixture(params=["cupy", "torch"])
def xp(request):
    return pytest.importorskip(request.param)


def to_device(xp, a):
    if a is None:
        return None
    if xp.__name__ == "torch":
        return xp.as_tensor(a, device="cuda")
    return xp.asarray(a)


def to_host(x):
    return x.cpu().numpy() if hasattr(x, "cpu") else x.get()


@pytest.mark.parametrize("max_w,unreachable", [(0, None), (0, 510), (60, -1), (10**6, None)])
@pytest.mark.parametrize("padded", [False, True])
def test_device_equals_host(xp, max_w, unreachable, padded):
    edge_index, ptr, w = make_batch(SIZES + [300], max_w=max_w, seed=7)
    kw = dict(unreachable=unreachable, padded=padded)
    want = apsp_lab.floyd_warshall_batch(edge_index, ptr, edge_weight=w, **kw)
    w32 = None if w is None else w.astype(np.int32)
    got = apsp_lab.floyd_warshall_batch(
        to_device(xp, edge_index), to_device(xp, ptr), edge_weight=to_device(xp, w32), **kw
    )
    if padded:
        assert type(got) is type(to_device(xp, ptr))
        np.testing.assert_array_equal(to_host(got), want)
    else:
        np.testing.assert_array_equal(to_host(got[0]), want[0])
        np.testing.assert_array_equal(to_host(got[1]), want[1])


def test_batch_vector_on_the_device(xp):
    edge_index, ptr, _ = make_batch([3, 0, 7, 12, 40], seed=8)
    batch = np.repeat(np.arange(5), np.diff(ptr))
    want = apsp_lab.floyd_warshall_batch(edge_index, ptr, padded=True)
    got = apsp_lab.floyd_warshall_batch(
        to_device(xp, edge_index), batch=to_device(xp, batch), num_graphs=5, padded=True
    )
    np.testing.assert_array_equal(to_host(got), want)


def test_device_refusals(xp):
    edge_index, ptr, w = make_batch([4, 6], max_w=3, seed=9)
    bad = edge_index.copy()
    bad[1, 0] = 99
    with pytest.raises(ValueError, match="leaves graph"):
        apsp_lab.floyd_warshall_batch(to_device(xp, bad), to_device(xp, ptr))
    with pytest.raises(ValueError, match="513 vertices"):
        apsp_lab.floyd_warshall_batch(
            to_device(xp, np.zeros((2, 0), np.int64)), to_device(xp, np.array([0, 513]))
        )
    with pytest.raises(ValueError, match="one GPU"):
        apsp_lab.floyd_warshall_batch(to_device(xp, edge_index), ptr)


@pytest.mark.parametrize("max_w,padded", [(0, False), (2, True), (10**6, False)])
def test_device_paths_equal_host(xp, max_w, padded):
    """The predecessors and edge paths from device arrays are the CPU path's, byte for byte."""
    edge_index, ptr, w = make_batch(SIZES + [300], max_w=max_w, seed=10)
    if w is not None:
        w[::4] = 0  # zero weights: ties and zero-weight cycles
    kw = dict(unreachable=-1, padded=padded, return_predecessors=True, max_dist=5)
    want = apsp_lab.floyd_warshall_batch(edge_index, ptr, edge_weight=w, **kw)
    w32 = None if w is None else w.astype(np.int32)
    got = apsp_lab.floyd_warshall_batch(
        to_device(xp, edge_index), to_device(xp, ptr), edge_weight=to_device(xp, w32), **kw
    )
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(to_host(a), b)


def test_pyg_transform_on_a_device_batch():
    """AddShortestPaths on a CUDA Batch: solved there, equal to the same Batch on the CPU."""
    pytest.importorskip("torch_geometric")
    import torch
    from apsp_lab.pyg import AddShortestPaths
    from torch_geometric.data import Batch, Data

    edge_index, ptr, _ = make_batch(SIZES, seed=11)
    graphs = []
    for g in range(len(ptr) - 1):
        keep = (edge_index[0] >= ptr[g]) & (edge_index[0] < ptr[g + 1])
        local = torch.as_tensor(edge_index[:, keep] - ptr[g])
        graphs.append(Data(edge_index=local, num_nodes=int(ptr[g + 1] - ptr[g])))
    transform = AddShortestPaths(max_dist=5, return_predecessors=True, unreachable=510)
    on_host = transform(Batch.from_data_list(graphs))
    on_device = transform(Batch.from_data_list(graphs).to("cuda"))
    for name in ("shortest_dist", "shortest_pred", "shortest_path_edges"):
        assert on_device[name].is_cuda, name
        assert torch.equal(on_device[name].cpu(), on_host[name]), name
