"""apsp_lab.bench: the bench's pipeline from Python, its runs as the schema's dicts."""

import apsp_lab


def test_bench_runs_verified_with_speedups():
    runs = apsp_lab.bench(
        [300, 513],
        variants=["sm90", "blocked32"],
        reps=3,
        min_reps=1,
        min_time=0,
        ceiling_time=0.1,
        frame=False,
    )
    names = {(r["variant"], r["n"]) for r in runs}
    assert {("naive", 300), ("sm90", 513), ("blocked32", 300)} <= names
    for r in runs:
        assert r["verified"] in ("cpu-reference", "naive", "certificate"), r
        assert r["median_ms"] > 0 and r["samples_ms"]
        if r["variant"] != "naive":
            assert r["speedup_vs_naive"] > 0
    assert runs.context["device"]["name"] == apsp_lab.device_info()["name"]


def test_bench_as_a_frame():
    import pytest

    pd = pytest.importorskip("pandas")
    df = apsp_lab.bench(200, variants="sm90", reps=2, min_reps=1, min_time=0, ceiling_time=0.1)
    assert isinstance(df, pd.DataFrame) and set(df["variant"]) == {"naive", "sm90"}
