#!/usr/bin/env bash
# run_pytest.sh PYTHON cpu|gpu FILE: pytest on one test file of the package in the build tree
# (APSP_LAB_PYTHONPATH). 77 (skipped) when pytest, NumPy, SciPy or NetworkX is missing, or, for
# gpu, when there is no CUDA device.
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
exec "$python" -m pytest -q -p no:cacheprovider --rootdir="$(dirname "$file")" "$file"
