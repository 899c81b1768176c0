#!/usr/bin/env python3
"""apsp on small real graphs and on the generators' real-world shapes, against SciPy.

Real graphs, written in the test from the data NetworkX bundles (no data file is kept here):
Zachary's karate club (Zachary 1977, weighted by the interactions NetworkX records) as a SNAP
weighted edge list, gzipped too; Les Miserables (Knuth's Stanford GraphBase, public domain) as a
1-based SNAP edge list and as a symmetric Matrix Market file by scipy.io.mmwrite; the Florentine
families (Padgett) as an unweighted edge list. Undirected graphs are written both ways, as SNAP
files of undirected graphs are read (each line is one arc); one file written once per edge shows
what apsp then solves: the arcs as written.

Shapes: gen_graph's road-like grid with long edges written as DIMACS .gr.gz, and its power-law
social graph as a gzipped SNAP edge list. Each solved by apsp --variant cpu
(APSP_GRAPH_VARIANT=auto: on the GPU, graph_files.py) and compared with
scipy.sparse.csgraph.shortest_path. Exit 77 (skipped) without networkx or scipy.
    real_graphs.py APSP GEN_GRAPH"""

import gzip
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graph_files as gf  # noqa: E402  (exits 77 without networkx or scipy)
from graph_files import np, nx, scipy  # noqa: E402

GEN_GRAPH = sys.argv[2]


def write_snap(g, path, weight="weight", both_ways=True):
    """NetworkX's writers (no '#' header: the name ends in .edgelist or .edges); apsp's rows are
    the ids in increasing order, 0-based or 1-based."""
    h = g.to_directed() if both_ways else g
    if weight:
        nx.write_weighted_edgelist(h, path)
    else:
        nx.write_edgelist(h, path, data=False)
    return h


def check_snap(name, g, path, weight="weight", both_ways=True, gzip_it=False):
    h = write_snap(g, path, weight, both_ways)
    got, err = gf.solve(gf.gzipped(path) if gzip_it else path)
    nodes = sorted(h.nodes)
    gf.expect_same(
        name, got, nx.to_scipy_sparse_array(h, nodelist=nodes, weight=weight, dtype=float)
    )
    gf.expect_in(name, "input format: snap", err)


def karate(d):
    g = nx.karate_club_graph()
    path = os.path.join(d, "karate.edgelist")
    check_snap("karate club, weighted SNAP, both ways", g, path)
    check_snap("karate club, weighted SNAP, gzipped", g, path, gzip_it=True)
    # Written once per edge: apsp reads each line as one arc u -> v (SNAP's edges are directed).
    once = nx.DiGraph(g.edges(data=True))
    once.add_nodes_from(g.nodes)
    check_snap(
        "karate club, each edge once, as arcs",
        once,
        os.path.join(d, "karate1.edgelist"),
        both_ways=False,
    )


def les_miserables(d):
    g = nx.convert_node_labels_to_integers(nx.les_miserables_graph(), first_label=1)
    check_snap("les miserables, 1-based SNAP", g, os.path.join(d, "lesmis.edgelist"))
    path = os.path.join(d, "lesmis.mtx")
    a = nx.to_scipy_sparse_array(g, nodelist=range(1, 78), weight="weight", dtype=np.int64)
    scipy.io.mmwrite(path, a, field="integer", symmetry="symmetric")
    got, err = gf.solve(path)
    gf.expect_same("les miserables, symmetric Matrix Market by SciPy", got, a.astype(float))
    gf.expect_in("les miserables mtx", "input format: mtx", err)


def florentine(d):
    g = nx.convert_node_labels_to_integers(nx.florentine_families_graph())
    check_snap(
        "florentine families, unweighted", g, os.path.join(d, "florentine.edges"), weight=None
    )


def generated(d, name, args):
    path = os.path.join(d, name)
    run = subprocess.run([GEN_GRAPH, *args, "-o", path], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"FAIL: gen_graph {args} exited {run.returncode}: {run.stderr}")
    with open(path) as f:
        V, _ = (int(x) for x in f.readline().split())
        edges = [tuple(int(x) for x in line.split()) for line in f]
    return V, edges


def arcs(V, pairs):
    """The adjacency of (u, v, w) arcs, the smallest weight of a repeated arc as apsp keeps it."""
    m = np.full((V, V), np.inf)
    for u, v, w in pairs:
        m[u, v] = min(m[u, v], w)
    return scipy.sparse.csr_array(np.where(np.isinf(m), 0, m))


def road(d):
    V, edges = generated(
        d,
        "road.txt",
        ["--kind", "road", "--V", "400", "--wmax", "35000", "--long-edges", "25", "--seed", "3"],
    )
    path = os.path.join(d, "road.gr.gz")
    with gzip.open(path, "wt") as f:
        f.write(f"c road-like grid from gen_graph\np sp {V} {len(edges)}\n")
        f.writelines(f"a {u + 1} {v + 1} {w}\n" for u, v, w in edges)
    got, err = gf.solve(path)
    gf.expect_same("road-like grid, DIMACS .gr.gz", got, arcs(V, edges))
    gf.expect_in("road", "input format: dimacs, by the extension .gr", err)
    old_bound = (V - 1) * max(w for _, _, w in edges)
    if not got.max() * 10 < old_bound:
        sys.exit(f"FAIL: the road's largest distance {got.max()} is not far below {old_bound}")


def social(d):
    V, edges = generated(
        d,
        "social.txt",
        ["--kind", "social", "--V", "300", "--attach", "2", "--wmax", "1", "--seed", "5"],
    )
    path = os.path.join(d, "social.txt.gz")
    with gzip.open(path, "wt") as f:
        f.write("# power-law social graph from gen_graph\n")
        f.writelines(f"{u} {v}\n" for u, v, _ in edges)
    got, err = gf.solve(path)
    # apsp's rows: the SNAP ids in increasing order
    ids = {v: k for k, v in enumerate(sorted({x for u, v, _ in edges for x in (u, v)}))}
    gf.expect_same(
        "power-law social graph, SNAP .txt.gz",
        got,
        arcs(V, [(ids[u], ids[v], 1) for u, v, _ in edges]),
    )
    gf.expect_in("social", "input format: snap", err)


def main():
    with tempfile.TemporaryDirectory() as d:
        karate(d)
        les_miserables(d)
        florentine(d)
        road(d)
        social(d)


main()
