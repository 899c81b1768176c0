#!/usr/bin/env bash
# run_pytest.sh PYTHON cpu|gpu FILE: pytest on one test file of the package in the build tree
# (APSP_LAB_PYTHONPATH). 77 (skipped) when pytest, NumPy, SciPy or NetworkX is missing, or, for
# gpu, when there is no CUDA device or every test of the file skipped.
set -u
python=$1 kind=$2 file=$3
"$python" -c 'import pytest, numpy, scipy, networkx' 2>/dev/null || {
  echo "skipped: pytest, numpy, scipy and networkx are needed (pip install pytest scipy networkx)"
  exit 77
}
if [ "$kind" = gpu ]; then
  PYTHONPATH=$APSP_LAB_PYTHONPATH "$python" -c 'import apsp_lab, sys; sys.exit(0 if apsp_lab.cuda_available() else 77)'
  rc=$?
  if [ $rc -eq 77 ]; then echo "skipped: no CUDA device"; exit 77; fi
  [ $rc -eq 0 ] || exit $rc
fi
# No cache folder: the tests run in parallel and must not share one.
pytest=("$python" -m pytest -q -p no:cacheprovider --rootdir="$(dirname "$file")" "$file")
[ "$kind" = gpu ] || exec "${pytest[@]}"
# A device file whose every test skipped (no CuPy, PyTorch or JAX here) tested nothing: 77, not a
# pass. Pytest's own failure codes stay as they are.
report=$(mktemp) || exit 1
trap 'rm -f "$report"' EXIT
"${pytest[@]}" -rs --junitxml="$report"
rc=$?
[ $rc -eq 0 ] || exit $rc
"$python" - "$report" <<'PY'
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
count = lambda key: sum(int(s.get(key, 0)) for s in suites)
ran, skipped = count("tests"), count("skipped")
if skipped and ran == skipped:
    print(f"skipped: all {skipped} tests of the file skipped, none passed")
    sys.exit(77)
PY
