"""Importing apsp_lab is fast and touches neither the compiled core nor CUDA; the first call
that needs the core loads it."""

import os
import subprocess
import sys
import time


def run(code):
    env = dict(os.environ)
    path = os.environ.get("APSP_LAB_PYTHONPATH")
    if path:
        env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout


def test_import_is_fast_and_loads_no_core():
    # NumPy (its one import-time dependency) first, so that the time is apsp_lab's own: NumPy's
    # import alone takes most of half a second on a loaded machine (ctest -j).
    out = run(
        "import numpy, time, sys; t = time.perf_counter(); import apsp_lab; "
        "print(time.perf_counter() - t); print('apsp_lab._core' in sys.modules, "
        "'scipy' in sys.modules, 'networkx' in sys.modules)"
    )
    seconds, flags = out.split("\n")[:2]
    assert float(seconds) < 0.5
    assert flags == "False False False"


def test_the_core_loads_on_first_use():
    out = run("import sys, apsp_lab; apsp_lab.variants(); print('apsp_lab._core' in sys.modules)")
    assert out.strip() == "True"


def test_loading_the_core_is_quick_too():
    t = time.perf_counter()
    run("import apsp_lab._core")
    assert time.perf_counter() - t < 5  # a whole interpreter start included
