#!/usr/bin/env python3
"""apsp --summary and --sources against NetworkX, on small graphs: strongly connected and not,
zero weights, duplicate edges and self loops, V a multiple of no tile, V = 1 and 2.
  - closeness (NetworkX's closeness_centrality, wf_improved, incoming distances) on every graph;
  - eccentricity, diameter, radius and the average shortest path length against NetworkX where
    the graph is strongly connected, and against their definition over reachable pairs
    (docs/apsp.md) from NetworkX's all-pairs Dijkstra where it is not;
  - --sources' rows in text, npy and bin against the whole matrix;
  - the refusals (exit 2, nothing written).
Mode cpu runs apsp --variant cpu; mode gpu runs the GPU (one, and 2 ranks on one GPU) and also
checks that its files equal the CPU's byte for byte (exit 77 without a device). Exit 77 without
networkx or numpy.
    apsp_summary.py cpu|gpu APSP"""

import json
import os
import random
import subprocess
import sys
import tempfile

try:
    import networkx as nx
    import numpy as np
except ImportError as e:
    print(f"apsp_summary: {e}: skipped")
    sys.exit(77)

MODE, APSP = sys.argv[1], sys.argv[2]
CPU = ["--variant", "cpu"]
GPU_RUNS = [[], ["--gpus", "2", "--transport", "single-device"]]


def fail(message):
    sys.exit(f"FAIL: {message}")


def apsp(*args):
    return subprocess.run([APSP, *args], capture_output=True, text=True)


def graph_file(path, n, edges):
    with open(path, "w") as f:
        f.write(f"{n} {len(edges)}\n")
        for u, v, w in edges:
            f.write(f"{u} {v} {w}\n")


def digraph(n, edges):
    """As apsp reads the file: duplicates keep the smallest weight, self loops change nothing."""
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u, v, w in edges:
        if u != v and (not g.has_edge(u, v) or w < g[u][v]["weight"]):
            g.add_edge(u, v, weight=w)
    return g


def cases():
    rng = random.Random(46)
    out = []
    for n, zero in [(37, False), (70, True)]:  # strongly connected: a cycle and more
        edges = [
            (i, (i + 1) % n, 0 if zero and i % 3 == 0 else rng.randint(1, 9)) for i in range(n)
        ]
        for _ in range(2 * n):
            u, v = rng.randrange(n), rng.randrange(n)
            edges += [(u, v, rng.randint(0, 20)), (u, v, rng.randint(0, 20))]  # duplicates
        edges += [(5, 5, 3)]
        out.append((f"strongly connected V = {n}", n, edges))
    n = 65
    edges = [(rng.randrange(n - 3), rng.randrange(n - 3), rng.randint(0, 9)) for _ in range(90)]
    out.append(("not strongly connected V = 65, 3 isolated", n, edges))
    half = [
        (u, v, w)
        for u in range(25)
        for v in range(25)
        if u != v and (u * v) % 7 == 1
        for w in [(u + v) % 5]
    ]
    sym = half + [(v, u, w) for u, v, w in half]
    out.append(
        ("two undirected components V = 50", 50, sym + [(u + 25, v + 25, w) for u, v, w in sym])
    )
    out.append(("zero weights only", 5, [(i, (i + 1) % 5, 0) for i in range(5)]))
    out.append(("V = 1", 1, []))
    out.append(("V = 2, no edge", 2, []))
    out.append(("V = 2, one edge", 2, [(1, 0, 4)]))
    return out


def summary_of(path, d, tag, variant):
    csv, js = os.path.join(d, f"{tag}.csv"), os.path.join(d, f"{tag}.json")
    run = apsp(*variant, "--summary", "--summary-json", js, "-o", csv, path)
    if run.returncode != 0:
        fail(f"{tag}: apsp exited {run.returncode}: {run.stderr}")
    with open(js) as f:
        summary = json.load(f)
    with open(csv) as f:
        lines = f.read().splitlines()
    if lines[0] != "vertex,eccentricity,closeness,reaches,reached_by":
        fail(f"{tag}: the CSV's header is {lines[0]!r}")
    rows = [line.split(",") for line in lines[1:]]
    per_vertex = {int(r[0]): (int(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows}
    return summary, per_vertex, run.stdout, (csv, js)


def expected(g):
    """The definitions over reachable pairs, from NetworkX's distances."""
    n = g.number_of_nodes()
    dist = dict(nx.all_pairs_dijkstra_path_length(g, weight="weight"))
    ecc = {u: max([w for v, w in dist[u].items() if v != u], default=0) for u in g}
    reaches = {u: len(dist[u]) - 1 for u in g}
    reached_by = {v: sum(1 for u in g if u != v and v in dist[u]) for v in g}
    total = sum(w for u in g for v, w in dist[u].items() if v != u)
    pairs = sum(reaches.values())
    return {
        "ecc": ecc,
        "reaches": reaches,
        "reached_by": reached_by,
        "pairs": pairs,
        "sum": total,
        "aspl": total / pairs if pairs else 0.0,
        "diameter": max(ecc.values()),
        "radius": min(ecc.values()),
        "ordered": n * (n - 1),
    }


def check(name, g, summary, per_vertex, stdout):
    want = expected(g)
    close = nx.closeness_centrality(g, distance="weight")
    for v in g:
        ecc, c, reaches, reached_by = per_vertex[v]
        if c != close[v]:
            fail(f"{name}: closeness of {v} is {c!r}, NetworkX's {close[v]!r}")
        if (ecc, reaches, reached_by) != (
            want["ecc"][v],
            want["reaches"][v],
            want["reached_by"][v],
        ):
            fail(f"{name}: vertex {v}: {(ecc, reaches, reached_by)}")
    got = {
        k: summary[k]
        for k in [
            "diameter",
            "radius",
            "reachable_pairs",
            "ordered_pairs",
            "average_shortest_path_length",
            "distance_sum",
        ]
    }
    if got != {
        "diameter": want["diameter"],
        "radius": want["radius"],
        "reachable_pairs": want["pairs"],
        "ordered_pairs": want["ordered"],
        "average_shortest_path_length": want["aspl"],
        "distance_sum": str(want["sum"]),
    }:
        fail(f"{name}: summary {got}, expected {want}")
    strong = nx.is_strongly_connected(g)
    if summary["strongly_connected"] != strong or summary["vertices"] != g.number_of_nodes():
        fail(f"{name}: {summary}")
    if strong:  # NetworkX's own functions, which raise otherwise
        ecc = nx.eccentricity(g, weight="weight")
        if (
            any(per_vertex[v][0] != ecc[v] for v in g)
            or summary["diameter"] != nx.diameter(g, weight="weight")
            or summary["radius"] != nx.radius(g, weight="weight")
            or summary["average_shortest_path_length"]
            != nx.average_shortest_path_length(g, weight="weight")
        ):
            fail(f"{name}: differs from NetworkX's eccentricity, diameter, radius or ASPL")
    if (
        f"diameter: {want['diameter']}\n" not in stdout
        or f"radius: {want['radius']}\n" not in stdout
    ):
        fail(f"{name}: standard output:\n{stdout}")


def check_sources(name, path, n, d, variant):
    full = os.path.join(d, "full.txt")
    if apsp(*CPU, "-o", full, path).returncode != 0:
        fail(f"{name}: the whole matrix")
    matrix = np.loadtxt(full, dtype=np.int64, ndmin=2)
    sources = [n - 1, 0, n // 2, n // 2]
    ids = os.path.join(d, "ids.txt")
    with open(ids, "w") as f:
        f.write("# the sources\n" + "\n".join(f"{s} " for s in sources) + "\n")
    for fmt, spec in [
        ("text", ",".join(map(str, sources))),
        ("npy", "@" + ids),
        ("bin", "@" + ids),
    ]:
        out = os.path.join(d, f"rows.{fmt}")
        run = apsp(*variant, "--sources", spec, "--format", fmt, "-o", out, path)
        if run.returncode != 0:
            fail(f"{name}: --sources {spec} --format {fmt}: {run.stderr}")
        if fmt == "text":
            rows = np.loadtxt(out, dtype=np.int64, ndmin=2)
        elif fmt == "npy":
            rows = np.load(out).astype(np.int64)
        else:
            with open(out, "rb") as f:
                head = f.read(24)
                if head[:8] != b"APSPROW1" or np.frombuffer(head[8:], "<i8").tolist() != [
                    len(sources),
                    n,
                ]:
                    fail(f"{name}: bin header {head!r}")
                rows = np.frombuffer(f.read(), "<i4").reshape(len(sources), n).astype(np.int64)
        if rows.shape != (len(sources), n) or not (rows == matrix[sources]).all():
            fail(f"{name}: --sources in {fmt}: not the matrix's rows")


def check_refusals(path, d):
    out = os.path.join(d, "refused.out")
    for args, text in [
        (["--sources", "0,99"], "--sources: vertex 99 is out of range [0, 37)"),
        (["--sources", "1,x"], "'x' is not an integer"),
        (["--summary", "-o", "-"], "--summary prints on standard output"),
        (["--summary", "--sources", "1", "-o", out], "--summary and --sources"),
        (["--summary", "--path", "0", "1", "-o", out], "and so does --path"),
    ]:
        run = apsp(*CPU, *(args if "-o" in args else args + ["-o", out]), path)
        if run.returncode != 2 or text not in run.stderr or os.path.exists(out):
            fail(f"{args}: exit {run.returncode}, stderr {run.stderr!r}")
    run = apsp(*CPU, "--summary-json", "-", path)
    if run.returncode != 0 or json.loads(run.stdout)["vertices"] != 37:
        fail(f"--summary-json -: {run.stdout!r}")
    print("ok: refusals, and --summary-json - on standard output")


def main():
    if MODE == "gpu":
        with tempfile.TemporaryDirectory() as d:
            probe = os.path.join(d, "probe.txt")
            graph_file(probe, 2, [(0, 1, 1)])
            if apsp("--variant", "sm90", "-o", os.path.join(d, "p.out"), probe).returncode == 3:
                print("no CUDA device: skipped")
                sys.exit(77)
    with tempfile.TemporaryDirectory() as d:
        for k, (name, n, edges) in enumerate(cases()):
            path = os.path.join(d, f"g{k}.txt")
            graph_file(path, n, edges)
            g = digraph(n, edges)
            summary, per_vertex, stdout, files = summary_of(path, d, f"cpu{k}", CPU)
            check(name, g, summary, per_vertex, stdout)
            if MODE == "gpu":
                for r, variant in enumerate(GPU_RUNS):
                    s2, pv2, out2, files2 = summary_of(path, d, f"gpu{k}_{r}", variant)
                    check(f"{name} {variant}", g, s2, pv2, out2)
                    s2.pop("solver"), summary.pop("solver", None)
                    with open(files[0]) as a, open(files2[0]) as b:
                        if a.read() != b.read() or s2 != summary:
                            fail(f"{name} {variant}: the GPU's files differ from the CPU's")
            if n >= 37:
                for variant in [CPU] if MODE == "cpu" else GPU_RUNS:
                    check_sources(name, path, n, d, variant)
            print(f"ok: {name}")
        if MODE == "cpu":
            check_refusals(os.path.join(d, "g0.txt"), d)


main()
