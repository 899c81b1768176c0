#!/usr/bin/env bash
# NetworkX's own tests of the functions the backend implements (shortest paths, closeness and
# harmonic centrality, the distance measures, the Wiener index), with every dispatchable call
# sent to the apsp_lab backend (NetworkX's test mode: NETWORKX_TEST_BACKEND). Calls the backend turns down
# (can_run) run in NetworkX (NETWORKX_FALLBACK_TO_NX). Needs the package and its
# entry points (apsp_lab-*.dist-info beside it) in APSP_LAB_PYTHONPATH.
#
# Exit: 0 the suite passed and the backend solved at least once; 77 NetworkX's tests (or
# pytest) are not installed; anything else a failure.
set -euo pipefail

: "${APSP_LAB_PYTHONPATH:?set APSP_LAB_PYTHONPATH to the directory holding apsp_lab}"
PY="${PYTHON:-python3}"
export PYTHONPATH="$APSP_LAB_PYTHONPATH${PYTHONPATH:+:$PYTHONPATH}"

if ! "$PY" -c "import pytest, networkx.algorithms.shortest_paths.tests" 2>/dev/null; then
    echo "nx_backend_suite: networkx's tests or pytest are not installed; skipping"
    exit 77
fi
if ! "$PY" -c "import networkx as nx, sys; sys.exit('apsp_lab' not in nx.utils.backends.backends)"; then
    echo "nx_backend_suite: NetworkX does not see the apsp_lab backend (no entry points in" \
        "$APSP_LAB_PYTHONPATH: apsp_lab-*.dist-info missing?)" >&2
    exit 1
fi

# Run outside the repository so that its conftest.py and pyproject.toml stay out of it.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/apsp_lab_solve_count.py" <<'EOF'
"""pytest plugin: counts apsp_lab's solves (the matrix's and the reductions'); fails a run
that made none."""
import apsp_lab
import apsp_lab._core

_count = [0]
_reduced = [0]
_real = apsp_lab.solve_edges
_real_reduce = apsp_lab._core.reduce_edges


def _counting(*args, **kwargs):
    _count[0] += 1
    return _real(*args, **kwargs)


def _counting_reductions(*args, **kwargs):
    _count[0] += 1
    _reduced[0] += 1
    return _real_reduce(*args, **kwargs)


apsp_lab.solve_edges = _counting
apsp_lab._core.reduce_edges = _counting_reductions


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_line(f"apsp_lab solves: {_count[0]} ({_reduced[0]} reduced)")


def pytest_sessionfinish(session, exitstatus):
    if exitstatus == 0 and _count[0] == 0:
        session.exitstatus = 1  # the backend never ran: not a pass
EOF
cd "$work"
export PYTHONPATH="$work:$PYTHONPATH"
NETWORKX_TEST_BACKEND=apsp_lab NETWORKX_FALLBACK_TO_NX=True \
    "$PY" -m pytest --pyargs networkx.algorithms.shortest_paths \
    networkx.algorithms.centrality.tests.test_closeness_centrality \
    networkx.algorithms.centrality.tests.test_harmonic_centrality \
    networkx.algorithms.tests.test_distance_measures networkx.algorithms.tests.test_wiener \
    -p apsp_lab_solve_count -p no:cacheprovider -q "$@"
