#!/usr/bin/env python3
"""The Python package's measurements (docs/python.md, docs/perf-notes.md), each a ratio taken in
this one run on this machine:

  import      `import apsp_lab` in a fresh interpreter; whether the core or CUDA was touched
  dense       floyd_warshall of a dense NumPy int64 array, n = --n, wall time with the float64
              result: the first call (the CUDA context made) and warm calls; against SciPy at 1000
  device      floyd_warshall of CuPy and PyTorch int32 arrays on the GPU, sm90 forced, against
              apsp_lab.bench's own sm90 median at the same n (the bench's solve); and auto
  networkx    nx.floyd_warshall_numpy(G, backend="apsp_lab"), 5000 nodes, 50000 weighted edges,
              against NetworkX's own on the same graph (in a child process, given --nx-seconds;
              a run that does not finish is reported as a lower bound)

    python3 scripts/python_targets.py [--n 10000] [--parts import,dense,device,networkx]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np


def line(what, value):
    print(f"{what:<58} {value}", flush=True)


def wall(f, *args, sync=None, **kw):
    t = time.perf_counter()
    out = f(*args, **kw)
    if sync:
        sync()
    return time.perf_counter() - t, out


def part_import():
    code = (
        "import time, sys; t = time.perf_counter(); import apsp_lab; "
        "dt = time.perf_counter() - t; print(dt, 'apsp_lab._core' in sys.modules)"
    )
    times = []
    for _ in range(5):
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
        times.append(float(out[0]))
        core = out[1]
    line("import apsp_lab, best / worst of 5 (s)", f"{min(times):.3f} / {max(times):.3f}")
    line("  compiled core loaded by the import", core)


def dense_graph(n, seed=1, wmax=1000, density=1.0):
    rng = np.random.default_rng(seed)
    a = rng.integers(1, wmax, size=(n, n))  # int64, as NumPy makes it
    if density < 1:
        a[rng.random((n, n)) > density] = 0
    return a


def part_dense(n):
    import apsp_lab

    for density in (1.0, 0.1):
        a = dense_graph(n, density=density)
        first, sol = wall(apsp_lab.solve, a)
        line(f"dense int64 n = {n}, density {density}: first call (s)", f"{first:.3f}")
        line("  solved with / precision", f"{sol.solved_with} / {sol.precision}")
        line("  steps (ms)", ", ".join(f"{k} {v:.1f}" for k, v in sol.timing_ms))
        warm = [wall(apsp_lab.floyd_warshall, a)[0] for _ in range(3)]
        line("  warm calls, best / worst of 3 (s)", f"{min(warm):.3f} / {max(warm):.3f}")
        d = apsp_lab.floyd_warshall(a)
        line("  result dtype, inf count", f"{d.dtype}, {int(np.isinf(d).sum())}")
        t32 = min(wall(apsp_lab.floyd_warshall, a, dtype=np.int32)[0] for _ in range(3))
        line("  dtype=int32 (no float conversion), best of 3 (s)", f"{t32:.3f}")
    from scipy.sparse.csgraph import floyd_warshall as scipy_fw

    small = dense_graph(1000, density=0.1)
    ts, want = wall(scipy_fw, small)
    to, got = wall(apsp_lab.floyd_warshall, small)
    line(
        "n = 1000, density 0.1: SciPy / apsp_lab (s), equal",
        f"{ts:.3f} / {to:.4f}, {np.array_equal(want, got)}; {ts / to:.0f}x",
    )


def part_device(n):
    import apsp_lab

    runs = apsp_lab.bench([n], variants="sm90", frame=False, ceiling_time=0.2)
    bench_ms = next(r["median_ms"] for r in runs if r["variant"] == "sm90")
    line(f"apsp_lab.bench sm90 at n = {n}: median solve (ms)", f"{bench_ms:.2f}")
    a = dense_graph(n, density=0.1).astype(np.int32)
    for name in ("cupy", "torch"):
        try:
            xp = __import__(name)
        except ImportError:
            line(f"{name}", "not installed")
            continue
        if name == "torch":
            x = xp.tensor(a, device="cuda")
            sync = xp.cuda.synchronize
        else:
            x = xp.asarray(a)
            sync = xp.cuda.runtime.deviceSynchronize
        apsp_lab.floyd_warshall(x, variant="sm90")  # warm: module load, first launches
        for variant in ("sm90", "auto"):
            times = [
                wall(apsp_lab.floyd_warshall, x, variant=variant, sync=sync)[0] for _ in range(5)
            ]
            best = min(times) * 1000
            line(
                f"{name} int32 n = {n}, new array, variant {variant}: best of 5 (ms)",
                f"{best:.2f} ({best / bench_ms:.3f}x the bench's sm90 solve)",
            )
        sol = apsp_lab.solve(x, variant="sm90")
        line(f"  {name} sm90 steps (ms)", ", ".join(f"{k} {v:.1f}" for k, v in sol.timing_ms))
        y = x.clone() if name == "torch" else x.copy()
        ti, _ = wall(apsp_lab.floyd_warshall, y, variant="sm90", overwrite=True, sync=sync)
        line(f"{name} in place, sm90 (ms)", f"{ti * 1000:.2f} ({ti * 1000 / bench_ms:.3f}x)")
        host = apsp_lab.floyd_warshall(a, dtype=np.int32)
        got = apsp_lab.floyd_warshall(x)
        got = got.cpu().numpy() if name == "torch" else got.get()
        line(f"  {name} result equal to the host array's", str(np.array_equal(got, host)))


def nx_graph():
    import networkx as nx

    n, m, seed = 5000, 50000, 1
    rng = np.random.default_rng(seed)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    for u, v, w in zip(rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, 100, m)):
        G.add_edge(int(u), int(v), weight=int(w))
    return G


def nx_own(own_file):
    """NetworkX's own floyd_warshall_numpy of nx_graph(): its time on stdout, the matrix saved."""
    import networkx as nx

    G = nx_graph()
    t = time.perf_counter()
    d = nx.floyd_warshall_numpy(G, backend="networkx")
    print(time.perf_counter() - t, flush=True)
    np.save(own_file, d)


def start_nx_own(out_dir):
    """nx_own in a child process, beside the other parts."""
    own_file = os.path.join(out_dir, "nx_own.npy")
    child = subprocess.Popen(
        [sys.executable, __file__, "--nx-own", own_file], stdout=subprocess.PIPE, text=True
    )
    return child, time.perf_counter(), own_file


def part_networkx():
    import networkx as nx

    G = nx_graph()
    first, d = wall(nx.floyd_warshall_numpy, G, backend="apsp_lab")
    G2 = nx_graph()  # a new graph: no converted copy cached
    again, _ = wall(nx.floyd_warshall_numpy, G2, backend="apsp_lab")
    line(
        "networkx 5000 nodes, 50000 edges, backend apsp_lab: 1st / 2nd (s)",
        f"{first:.3f} / {again:.3f}",
    )
    return again, d


def finish_nx_own(own, ours_s, ours, nx_seconds):
    child, started, own_file = own
    try:
        out, _ = child.communicate(timeout=max(1, nx_seconds - (time.perf_counter() - started)))
        own_s = float(out.split()[0])
        same = np.array_equal(np.load(own_file), ours)
        line(
            "  NetworkX's own floyd_warshall_numpy (s), the same result",
            f"{own_s:.1f}, {same}; {own_s / ours_s:.0f}x",
        )
    except subprocess.TimeoutExpired:
        child.kill()
        waited = time.perf_counter() - started
        line(
            "  NetworkX's own floyd_warshall_numpy",
            f"not done after {waited:.0f} s: > {waited / ours_s:.0f}x",
        )


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=10000)
    p.add_argument("--parts", default="import,dense,device,networkx")
    p.add_argument("--nx-seconds", type=float, default=300)
    p.add_argument("--out", default=os.environ.get("OUT", "."))
    p.add_argument("--nx-own", help=argparse.SUPPRESS)  # the child of start_nx_own
    a = p.parse_args()
    if a.nx_own:
        return nx_own(a.nx_own)
    parts = a.parts.split(",")
    import apsp_lab

    line("device", json.dumps(apsp_lab.device_info()))
    if "import" in parts:
        part_import()
    if "dense" in parts:  # before NetworkX's own starts beside the GPU-bound parts
        part_dense(a.n)
    own = start_nx_own(a.out) if "networkx" in parts else None
    if "device" in parts:
        part_device(a.n)
    if own:
        ours_s, ours = part_networkx()
        finish_nx_own(own, ours_s, ours, a.nx_seconds)


if __name__ == "__main__":
    main()
