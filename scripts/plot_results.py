#!/usr/bin/env python3
"""Plots for apsp_report, from apsp_bench results JSON (and a tuning database).

    plot_results.py --out DIR [--db tuning.json] results.json [more.json ...]

Writes into DIR, and prints the name of each PNG it wrote, one a line:
  time_vs_n.png      median time vs n, log-log, one line per run, with an n^3 guide
  speedup_vs_n.png   speedup over naive vs n (runs of files without naive are left out)
  ceiling_vs_n.png   share of the measured min-plus ceiling vs n
  heatmap_<variant>_n<n>.png  the tuner's batch2 x batch3 medians (with --db), largest n
"""

import argparse
import contextlib
import json
import os
import signal
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")  # no display: files only
import matplotlib.pyplot as plt  # noqa: E402


def save_atomic(fig, path):
    """fig as PNG at path, whole or not at all: a temporary in the same folder, renamed into
    place; removed on any failure, SIGINT or SIGTERM (main turns SIGTERM into SystemExit)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=os.path.basename(path) + ".tmp.")
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format="png", dpi=110)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load_runs(paths):
    series = {}  # label -> list of (n, run)
    for path in paths:
        with open(path, encoding="utf-8-sig") as f:  # a BOM, as apsp_report's reader accepts it
            data = json.load(f)
        if data.get("schema") != "apsp-bench/1":
            sys.exit(f"plot_results.py: {path}: not an apsp-bench/1 results file")
        for run in data["runs"]:
            if run.get("error") or run.get("verified") == "FAILED" or not run.get("samples_ms"):
                continue
            label = run.get("label") or run.get("name") or run["variant"]  # "name" is optional
            if len(paths) > 1:
                label = f"{label} ({os.path.basename(path)})"
            series.setdefault(label, []).append((run["n"], run))
    return {k: sorted(v, key=lambda x: x[0]) for k, v in series.items()}


def line_plot(series, value, ylabel, title, path, log_y=False, guide=False):
    fig, ax = plt.subplots(figsize=(8, 5))
    drawn = 0
    for label, points in series.items():
        pts = [(n, value(run)) for n, run in points if value(run) is not None]
        if not pts:
            continue
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
        drawn += 1
    if guide and series:
        ns = sorted({n for points in series.values() for n, _ in points})
        first = next(iter(series.values()))
        n0, run0 = first[0]
        ax.plot(
            ns, [run0["median_ms"] * (n / n0) ** 3 for n in ns], "k--", alpha=0.5, label="n^3 guide"
        )
    if not drawn:
        plt.close(fig)
        return False
    ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel("n (vertices)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_atomic(fig, path)
    plt.close(fig)
    return True


class Progress:
    """'progress DONE TOTAL' lines on stdout, for apsp_report's progress line and its ETA."""

    def __init__(self, total):
        self.done, self.total = 0, total
        self.show()

    def add(self, plots):
        self.total += plots
        self.show()

    def step(self):
        self.done += 1
        self.show()

    def show(self):
        print(f"progress {self.done} {self.total}", flush=True)


def heatmaps(db_path, out, progress):
    with open(db_path, encoding="utf-8-sig") as f:
        db = json.load(f)
    if db.get("schema") not in ("apsp-tuning/1", "apsp-tuning/2"):
        sys.exit(f"plot_results.py: {db_path}: not an apsp-tuning/2 (or /1) database")

    # One heatmap per variant, from one device, graph spec (a file's path too) and build (a /1
    # file names neither of the last two): the newest entry's.
    def key(e):
        g, b = e.get("graph", {}), e.get("build", {})
        return (
            e["device"]["name"],
            g.get("kind"),
            g.get("density"),
            g.get("wmax"),
            g.get("file"),
            b.get("kernels"),
        )

    groups = {}
    for e in db["entries"]:
        if e["status"] == "ok" and {"batch2", "batch3"} <= set(e["config"]):
            groups.setdefault(e["variant"], {}).setdefault(key(e), []).append(e)
    latest = {
        v: max(by_key.values(), key=lambda es: max(x.get("date", "") for x in es))
        for v, by_key in groups.items()
    }
    groups = {}
    for variant, entries in latest.items():
        for e in entries:
            groups.setdefault((variant, e["n"]), []).append(e)
    written = []
    progress.add(len(latest))
    for variant in sorted({v for v, _ in groups}):
        n = max(n for v, n in groups if v == variant)
        entries = groups[(variant, n)]
        b2 = sorted({e["config"]["batch2"] for e in entries})
        b3 = sorted({e["config"]["batch3"] for e in entries})
        grid = [[float("nan")] * len(b2) for _ in b3]
        for e in entries:
            grid[b3.index(e["config"]["batch3"])][b2.index(e["config"]["batch2"])] = e["median_ms"]
        fig, ax = plt.subplots(figsize=(6, 5))
        im = ax.imshow(grid, origin="lower", cmap="viridis_r", aspect="auto")
        ax.set_xticks(range(len(b2)), [str(v) for v in b2])
        ax.set_yticks(range(len(b3)), [str(v) for v in b3])
        ax.set_xlabel("batch2")
        ax.set_ylabel("batch3")
        ax.set_title(f"{variant}, n = {n}: median ms (lower is better)")
        values = [v for row in grid for v in row if v == v]
        middle = (min(values) + max(values)) / 2
        for y, row in enumerate(grid):
            for x, v in enumerate(row):
                if v == v:  # dark text on the light (fast) cells, light text on the dark ones
                    ax.text(
                        x,
                        y,
                        f"{v:.1f}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="k" if v < middle else "w",
                    )
        fig.colorbar(im, ax=ax, label="ms")
        fig.tight_layout()
        name = f"heatmap_{variant}_n{n}.png"
        save_atomic(fig, os.path.join(out, name))
        plt.close(fig)
        written.append(name)
        progress.step()
    return written


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", required=True)
    ap.add_argument("--db")
    ap.add_argument("results", nargs="+")
    args = ap.parse_args()
    signal.signal(
        signal.SIGTERM, lambda sig, frame: sys.exit(128 + sig)
    )  # cleanup runs, as on SIGINT
    os.makedirs(args.out, exist_ok=True)
    series = load_runs(args.results)
    written = []
    progress = Progress(3)
    if line_plot(
        series,
        lambda r: r["median_ms"],
        "median time (ms)",
        "Time vs n",
        os.path.join(args.out, "time_vs_n.png"),
        log_y=True,
        guide=True,
    ):
        written.append("time_vs_n.png")
    progress.step()
    if line_plot(
        series,
        lambda r: r.get("speedup_vs_naive"),
        "speedup over naive (x)",
        "Speedup over naive vs n",
        os.path.join(args.out, "speedup_vs_n.png"),
    ):
        written.append("speedup_vs_n.png")
    progress.step()
    if line_plot(
        series,
        lambda r: r.get("pct_of_ceiling") or None,
        "% of measured ceiling",
        "Share of the int32 min-plus ceiling",
        os.path.join(args.out, "ceiling_vs_n.png"),
    ):
        written.append("ceiling_vs_n.png")
    progress.step()
    if args.db:
        written += heatmaps(args.db, args.out, progress)
    for name in written:
        print(name)


if __name__ == "__main__":
    main()
