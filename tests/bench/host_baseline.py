#!/usr/bin/env python3
"""Writes a results file (apsp-bench/1) holding naive's samples at the given sizes, as if measured
on this host without a GPU, for apsp_bench_host --baseline: with it the bench does not add naive
(a GPU variant) to a plan of host variants, and the speedups are against these samples.
  host_baseline.py OUT.json N [N ...]"""

import json
import sys

out, sizes = sys.argv[1], [int(n) for n in sys.argv[2:]]
runs = [
    {
        "variant": "naive",
        "config": {},
        "name": "naive",
        "n": n,
        "graph": {"kind": "random", "seed": 1, "density": 0.1, "wmax": 1000},
        "verified": "cpu-reference",
        "samples_ms": [0.9, 1.0, 1.1],
        "median_ms": 1.0,
        "min_ms": 0.9,
        "stddev_ms": 0.1,
        "cv": 0.1,
        "updates_per_s": n**3 / 1e-3,
        "pct_of_ceiling": 0,
        "speedup_vs_naive": None,
        "speedup_ci95": None,
        "error": None,
        "precision": "int32",
        "gpus": 1,
    }
    for n in sizes
]
results = {
    "schema": "apsp-bench/1",
    "complete": True,
    "context": {
        "device": {"name": "host (no CUDA device)", "cc": "", "sms": 0},
        "build": {},
        "host": "",
        "date": "",
        "argv": [],
        "ceiling_updates_per_s": 0,
        "ceiling_u16_updates_per_s": 0,
    },
    "runs": runs,
}
with open(out, "w") as f:
    json.dump(results, f)
