#!/usr/bin/env python3
"""apsp on graph files written by other tools: NetworkX's edge-list writers (SNAP-like, with and
without weights, its default dict of edge data, sparse ids; named by --input-format or by the
extensions .edges and .edgelist, as they carry no '#' header), a Facebook-like SNAP file (ids
0..N-1 met out of order: rows are the ids), SciPy's Matrix Market writer (integer, real of
integral values, pattern, symmetric), a DIMACS .gr, some gzipped. Each is solved with apsp
--variant cpu (APSP_GRAPH_VARIANT=auto: on the GPU) and compared with SciPy's csgraph shortest
paths on the graph as NetworkX / SciPy hold it, indexed by the file's ids in increasing order.
Exit 77 (skipped) without networkx or scipy (scripts/setup.sh installs them).
    graph_files.py APSP"""

import gzip
import os
import subprocess
import sys
import tempfile

try:
    import networkx as nx
    import numpy as np
    import scipy.io
    import scipy.sparse
    from scipy.sparse.csgraph import shortest_path
except ImportError as e:
    print(f"graph_files: {e}: skipped")
    sys.exit(77)

INF = 1073741823
APSP = sys.argv[1]
# The solve to check: the CPU's (the default, as CI runs it), or with APSP_GRAPH_VARIANT=auto the
# GPU's (skipped, 77, without a CUDA device).
VARIANT = os.environ.get("APSP_GRAPH_VARIANT", "cpu")


def skip_without_a_device():
    with tempfile.TemporaryDirectory() as d:
        g = os.path.join(d, "one.txt")
        with open(g, "w") as f:
            f.write("1 0\n")
        run = subprocess.run(
            [APSP, "--variant", "naive", "-o", os.path.join(d, "o"), g],
            capture_output=True,
            text=True,
        )
    if run.returncode == 3:
        print("no CUDA device: skipped")
        sys.exit(77)


if VARIANT != "cpu":
    skip_without_a_device()


def solve(path, *extra):
    out = path + ".dist"
    run = subprocess.run(
        [APSP, "--variant", VARIANT, "-o", out, *extra, path], capture_output=True, text=True
    )
    if run.returncode != 0:
        sys.exit(f"FAIL: apsp {path} exited {run.returncode}: {run.stderr}")
    with open(out) as f:
        rows = [[int(x) for x in line.split()] for line in f]
    return np.array(rows, dtype=np.int64), run.stderr


def expect_same(name, got, matrix, **kw):
    want = shortest_path(scipy.sparse.csr_array(matrix), directed=True, **kw)
    want = np.where(np.isinf(want), INF, want).astype(np.int64)
    if got.shape != want.shape or not (got == want).all():
        sys.exit(f"FAIL: {name}: apsp's distances differ from SciPy's")
    print(f"ok: {name} ({got.shape[0]} vertices)")


def expect_in(name, text, stderr):
    if text not in stderr:
        sys.exit(f"FAIL: {name}: stderr lacks '{text}':\n{stderr}")


def gzipped(path):
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb") as g:
        g.write(f.read())
    return path + ".gz"


def snap_cases(d):
    g = nx.gnp_random_graph(40, 0.08, seed=5, directed=True)
    g = nx.relabel_nodes(g, {v: 7 * v + 3 for v in g})  # sparse ids
    rng = np.random.default_rng(1)
    for k, (u, v) in enumerate(g.edges):
        g[u][v]["weight"] = int(rng.integers(1, 50))
        if k % 3 == 0:
            g[u][v]["color"] = "red, or 'blue'"  # NetworkX's dict carries every attribute
    data = os.path.join(d, "data.edgelist")
    nx.write_edgelist(g, data)  # NetworkX's default: u v {'weight': 3, 'color': ...}
    weighted = os.path.join(d, "weighted.txt")
    nx.write_weighted_edgelist(g, weighted)
    plain = os.path.join(d, "plain.edges")
    nx.write_edgelist(g, plain, data=False)
    nodes = sorted(g.nodes)  # apsp's rows: the ids in increasing order
    note = f"{len(nodes)} ids from {nodes[0]} to {nodes[-1]}, sparse"
    for name, path, weight, args in [
        ("networkx dict edge data, by .edgelist", data, "weight", []),
        ("snap weighted, named by --input-format", weighted, "weight", ["--input-format", "snap"]),
        ("snap unweighted, gzipped, by .edges", gzipped(plain), None, []),
    ]:
        got, err = solve(path, *args)
        matrix = nx.to_scipy_sparse_array(g, nodelist=nodes, weight=weight, dtype=float)
        expect_same(name, got, matrix)
        expect_in(name, "input format: snap, by the extension" if not args else note, err)
        expect_in(name, note, err)
    # A weight-less dict: NetworkX's weight 1.
    g2 = nx.DiGraph([(2, 5), (5, 9), (9, 2)])
    g2[5][9]["weight"] = 4
    path = os.path.join(d, "some.edgelist")
    nx.write_edgelist(g2, path)
    got, _ = solve(path)
    expect_same(
        "networkx dicts with and without a weight",
        got,
        nx.to_scipy_sparse_array(g2, nodelist=sorted(g2), dtype=float),
    )


def facebook_case(d):
    """SNAP's Facebook file: ids 0..N-1, each undirected edge once, no header, ids met out of
    order. Rows are the ids themselves: SciPy's matrix on the id-indexed arcs, exactly."""
    g = nx.connected_watts_strogatz_graph(60, 4, 0.3, seed=11)  # every id 0..59 in an edge
    arcs = sorted((min(u, v), max(u, v)) for u, v in g.edges)
    np.random.default_rng(4).shuffle(arcs)
    path = os.path.join(d, "facebook_combined.txt")
    with open(path, "w") as f:
        f.writelines(f"{u} {v}\n" for u, v in arcs)
    got, err = solve(path, "--input-format", "snap")
    n = 1 + max(max(a) for a in arcs)
    m = scipy.sparse.csr_array(
        (np.ones(len(arcs)), ([u for u, _ in arcs], [v for _, v in arcs])), shape=(n, n)
    )
    expect_same("facebook-like SNAP, ids out of order", got, m)
    expect_in("facebook-like", f"ids 0..{n - 1} are rows 0..{n - 1}", err)
    # Without --input-format, a header-less file is the contest's edge list, refused as one.
    out = path + ".refused"
    run = subprocess.run(
        [APSP, "--variant", "cpu", "-o", out, path], capture_output=True, text=True
    )
    if run.returncode != 2 or os.path.exists(out) or "--input-format" not in run.stderr:
        sys.exit(
            f"FAIL: a header-less SNAP file through auto: exit {run.returncode}, {run.stderr!r}"
        )
    print("ok: a header-less SNAP file through auto is refused as a contest edge list, exit 2")


def mtx_cases(d):
    rng = np.random.default_rng(2)
    a = scipy.sparse.random(30, 30, density=0.1, random_state=3, format="coo")
    a.data = rng.integers(1, 30, size=a.nnz).astype(float)
    sym = (a + a.T).tocoo()
    cases = [
        ("mtx integer", a.astype(np.int64), "integer", "general", {}),
        ("mtx real", a, "real", "general", {}),
        ("mtx pattern", a, "pattern", "general", {"unweighted": True}),
        ("mtx symmetric, gzipped", sym, "integer", "symmetric", {}),
    ]
    for k, (name, m, field, symmetry, kw) in enumerate(cases):
        path = os.path.join(d, f"m{k}.mtx")
        scipy.io.mmwrite(path, m, field=field, symmetry=symmetry)
        got, err = solve(gzipped(path) if "gzipped" in name else path)
        expect_same(name, got, m, **kw)
        expect_in(name, "input format: mtx", err)


def dimacs_case(d):
    g = nx.gnp_random_graph(25, 0.15, seed=9, directed=True)
    path = os.path.join(d, "road.gr")
    with open(path, "w") as f:
        f.write(f"c written by the test\np sp 25 {g.number_of_edges()}\n")
        for u, v in g.edges:
            g[u][v]["weight"] = (u * 7 + v) % 13 + 1
            f.write(f"a {u + 1} {v + 1} {g[u][v]['weight']}\n")
    got, err = solve(gzipped(path))
    expect_same(
        "dimacs, gzipped", got, nx.to_scipy_sparse_array(g, nodelist=range(25), dtype=float)
    )
    expect_in("dimacs", "input format: dimacs, by the extension .gr", err)


def refusal_case(d):
    path = os.path.join(d, "half.mtx")
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 2.5\n")
    out = path + ".dist"
    run = subprocess.run(
        [APSP, "--variant", "cpu", "-o", out, path], capture_output=True, text=True
    )
    if run.returncode != 2 or os.path.exists(out) or f"{path}:3:5: weight 2.5" not in run.stderr:
        sys.exit(f"FAIL: a real weight 2.5: exit {run.returncode}, stderr {run.stderr!r}")
    print("ok: a fractional weight is refused with its line and column, exit 2, nothing written")


def main():
    with tempfile.TemporaryDirectory() as d:
        snap_cases(d)
        facebook_case(d)
        mtx_cases(d)
        dimacs_case(d)
        refusal_case(d)


if __name__ == "__main__":  # real_graphs.py takes its helpers
    main()
