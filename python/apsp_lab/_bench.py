"""bench, variants and read_results: the lab's harness from Python, thin over the compiled
pipeline (the same plan, verification and sampling as apsp_bench), results as the schema's dicts
(docs/results-schema.md), or a pandas DataFrame where pandas is installed."""

import json


def _core():
    from . import _core as core

    return core


def variants():
    """Every built-in variant: name, summary, precision, its parameter space, defaults."""
    return _core().variants()


class Runs(list):
    """A results file's runs (the schema's dicts), with its context (device, build, date)."""

    def __init__(self, runs, context, complete=True):
        super().__init__(runs)
        self.context = context
        self.complete = complete


def _as(doc, frame):
    runs = Runs(doc.get("runs", []), doc.get("context", {}), doc.get("complete", True))
    if frame is False:
        return runs
    try:
        import pandas as pd
    except ImportError:
        if frame:
            raise
        return runs
    df = pd.DataFrame(list(runs))
    df.attrs["context"] = runs.context
    df.attrs["complete"] = runs.complete
    return df


def bench(
    n,
    variants="all",
    *,
    configs=(),
    seed=1,
    density=0.1,
    wmax=1000,
    reps=10,
    min_reps=3,
    min_time=1.0,
    verify="auto",
    ceiling_time=1.0,
    flush_l2=True,
    frame=None,
):
    """Verifies and times variants over sizes n, as apsp_bench does (docs/apsp_bench.md).

    n: a size or a list of sizes; variants: names (a list or "a,b") or "all"; configs: configs
    as printed ("batched[batch2=6,batch3=4]"). Every result is checked bit-exact before it is
    timed; speedups are against naive. Returns the runs: a pandas DataFrame (attrs["context"]
    holds the device and build) where pandas is installed and frame is not False, else a list of
    dicts with .context. Needs a CUDA device (RuntimeError without one).
    """
    sizes = [int(n)] if isinstance(n, int) else [int(x) for x in n]
    names = variants if isinstance(variants, str) else ",".join(variants)
    options = {
        "n": sizes,
        "variants": names,
        "configs": list(configs),
        "seed": int(seed),
        "density": float(density),
        "wmax": int(wmax),
        "reps": int(reps),
        "min_reps": int(min_reps),
        "min_time": float(min_time),
        "verify": str(verify),
        "ceiling_time": float(ceiling_time),
        "flush_l2": bool(flush_l2),
    }
    return _as(json.loads(_core().bench(json.dumps(options))), frame)


def read_results(path, *, frame=None):
    """A results file of apsp_bench or tuner (--json), checked as apsp_report checks it; the
    same form as bench() returns."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return _as(json.loads(_core().check_results(text, str(path))), frame)
