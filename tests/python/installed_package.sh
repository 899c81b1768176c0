#!/usr/bin/env bash
# installed_package.sh PYTHON: the apsp_lab that `pip install .` put into PYTHON's site-packages
# (not the build tree's), imported from a folder outside the repository: it solves a graph as
# SciPy does and NetworkX finds its backend through the installed entry points. 77 (skipped)
# where apsp_lab is not installed.
set -eu
python=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
unset PYTHONPATH APSP_LAB_PYTHONPATH
if ! "$python" -c 'import apsp_lab' 2>/dev/null; then
  echo "skipped: apsp_lab is not installed for $python (python3 -m pip install .)"
  exit 77
fi
"$python" - <<'PY'
import os, numpy as np, networkx as nx, apsp_lab
from scipy.sparse.csgraph import floyd_warshall
assert "site-packages" in apsp_lab.__file__ or "dist-packages" in apsp_lab.__file__, apsp_lab.__file__
rng = np.random.default_rng(1)
a = rng.integers(0, 9, size=(60, 60)) * (rng.random((60, 60)) < 0.2)
assert np.array_equal(apsp_lab.floyd_warshall(a), floyd_warshall(a))
assert "apsp_lab" in nx.utils.backends.backends
G = nx.gnp_random_graph(40, 0.1, seed=2, directed=True)
assert np.array_equal(nx.floyd_warshall_numpy(G, backend="apsp_lab"), nx.floyd_warshall_numpy(G))
print("installed:", apsp_lab.__file__)
PY
