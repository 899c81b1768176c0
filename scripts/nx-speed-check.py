#!/usr/bin/env python3
"""nx-speed-check.py: the NetworkX backend against NetworkX on a road-like graph.

    scripts/nx-speed-check.py [--n 20000] [--sample 8] [--device auto] [--all-pairs] [--nx-full]

Generates an undirected road graph with ``build/release/gen_graph --kind road --V N`` (the
file lists each road both ways with one weight) and times, each call from a graph with no
cached conversion:

- closeness_centrality(distance="weight"), eccentricity(weight="weight") and
  average_shortest_path_length(weight="weight") through the backend (backend="apsp_lab");
- the solve alone: one int32 all-pairs solve of the same edges (apsp_lab._core.solve_sparse),
  its "solve" step as the solver timed it, and the whole call (which copies V x V to the host);
- NetworkX itself on a timed sample of --sample sources (closeness of those nodes, their
  eccentricities, their single-source Dijkstra sums), scaled by N / sample: the output says so;
  --nx-full times NetworkX on every source instead;
- with --all-pairs: all_pairs_dijkstra_path_length consumed whole (every row's dict built),
  through the backend and in NetworkX (sampled and scaled the same way unless --nx-full):
  V x V dict entries, so for --n up to a few thousand (the issue's target is at 3000).

Each backend answer is checked against NetworkX's on the sampled nodes. Prints one line a
measurement and the ratios NetworkX / backend and backend / solve. On a machine without a
GPU it runs on the CPU (use a small --n, e.g. 300, for a dry check). Needs the apsp_lab
package (PYTHONPATH=build/release/python, or installed) and NetworkX.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

import networkx as nx
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def road_graph(n, seed, gen):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "road.txt")
        subprocess.run(
            [gen, "--kind", "road", "--V", str(n), "--seed", str(seed), "-o", path], check=True
        )
        rows = np.loadtxt(path, dtype=np.int64, skiprows=1, ndmin=2)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(rows.tolist())
    return G, rows


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def fresh(G):
    """G without NetworkX's cached conversions, so that each call converts it again."""
    cache = getattr(G, "__networkx_cache__", None)
    if cache:
        cache.clear()
    return G


def solve_alone(n, rows, device):
    from apsp_lab import _core

    src = np.ascontiguousarray(rows[:, 0])
    dst = np.ascontiguousarray(rows[:, 1])
    w = np.ascontiguousarray(rows[:, 2])
    t0 = time.perf_counter()
    _, _, info = _core.solve_sparse(n, src, dst, w, True, False, False, device, "auto", "int32", 0)
    wall = time.perf_counter() - t0
    solve_ms = sum(ms for name, ms in info["timing_ms"] if name.startswith("solve"))
    return solve_ms / 1e3, wall, info["solved_with"]


def nx_sample_times(G, sample):
    """NetworkX's time on the sampled sources, for each measured function."""
    out = {}
    out["closeness_centrality"] = timed(
        lambda: {u: nx.closeness_centrality(G, u=u, distance="weight") for u in sample}
    )
    out["eccentricity"] = timed(lambda: nx.eccentricity(G, v=sample, weight="weight"))
    out["average_shortest_path_length"] = timed(
        lambda: sum(sum(nx.single_source_dijkstra_path_length(G, u).values()) for u in sample)
    )
    return out


def consume(rows):
    entries = 0
    for _, d in rows:
        entries += len(d)
    return entries


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=20000, help="vertices (default 20000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sample", type=int, default=8, help="NetworkX's timed sources")
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--all-pairs", action="store_true", help="time all_pairs_dijkstra too")
    ap.add_argument("--nx-full", action="store_true", help="NetworkX on every source")
    ap.add_argument("--gen", default=os.path.join(ROOT, "build", "release", "gen_graph"))
    return ap.parse_args()


def whole_graph_lines(G, sample, scale, how, solve_s, nx_full):
    """Times the three whole-graph functions through the backend against NetworkX's sample;
    returns how many answers differ."""
    n = len(G)
    nx_times = nx_sample_times(G, sample)
    calls = {
        "closeness_centrality": lambda: nx.closeness_centrality(
            fresh(G), distance="weight", backend="apsp_lab"
        ),
        "eccentricity": lambda: nx.eccentricity(fresh(G), weight="weight", backend="apsp_lab"),
        "average_shortest_path_length": lambda: nx.average_shortest_path_length(
            fresh(G), weight="weight", backend="apsp_lab"
        ),
    }
    failures = 0
    for name, call in calls.items():
        ours_s, ours = timed(call)
        nx_s, theirs = nx_times[name]
        nx_scaled = nx_s * scale
        if name == "average_shortest_path_length":
            # NetworkX's whole average needs every source: compared with --nx-full only.
            ok = ours == theirs / (n * (n - 1)) if nx_full else True
        else:
            ok = all(ours[u] == theirs[u] for u in sample)
        failures += not ok
        print(
            f"{name}: backend {ours_s:.3f} s; NetworkX {nx_scaled:.1f} s ({how}); "
            f"NetworkX / backend = {nx_scaled / ours_s:.0f}x; backend / solve = "
            f"{ours_s / max(solve_s, 1e-9):.2f}; {'same answers' if ok else 'ANSWERS DIFFER'}"
        )
    return failures


def all_pairs_line(G, sample, scale, how):
    ours_s, entries = timed(
        lambda: consume(
            nx.all_pairs_dijkstra_path_length(fresh(G), weight="weight", backend="apsp_lab")
        )
    )
    nx_s, _ = timed(
        lambda: consume((u, nx.single_source_dijkstra_path_length(G, u)) for u in sample)
    )
    nx_scaled = nx_s * scale
    print(
        f"all_pairs_dijkstra_path_length (consumed, {entries} entries): backend "
        f"{ours_s:.2f} s; NetworkX {nx_scaled:.1f} s ({how}); "
        f"NetworkX / backend = {nx_scaled / ours_s:.1f}x"
    )


def main():
    args = parse_args()
    import apsp_lab

    nx.config.warnings_to_ignore.add("cache")
    nx.config.backends.apsp_lab.device = args.device
    G, rows = road_graph(args.n, args.seed, args.gen)
    n = len(G)
    gpu = apsp_lab.device_info()
    print(f"road graph: V = {n}, E = {G.number_of_edges()} (undirected), seed {args.seed}")
    print(f"device: {gpu['name'] if gpu else 'none (CPU)'}; asked for {args.device}")
    solve_s, solve_wall, solved_with = solve_alone(n, rows, args.device)
    print(
        f"solve alone: {solve_s:.3f} s (whole call with V x V to the host: {solve_wall:.3f} s)"
        f" by {solved_with}"
    )
    sample = (
        list(G) if args.nx_full else random.Random(args.seed).sample(list(G), min(args.sample, n))
    )
    scale = n / len(sample)
    how = "all sources" if args.nx_full else f"{len(sample)} sampled sources, scaled x{scale:g}"
    failures = whole_graph_lines(G, sample, scale, how, solve_s, args.nx_full)
    if args.all_pairs:
        all_pairs_line(G, sample, scale, how)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
