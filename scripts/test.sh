#!/usr/bin/env bash
# The test command (README's quick start; .ci/run is exactly this): scripts/setup.sh first (what
# is missing is installed and built; on a set-up tree it only checks), then ctest on the release
# build with one test per core, then why each skipped test skipped (scripts/skipped_tests.py:
# ctest itself prints no skipped test's output). Arguments go to ctest (-R REGEX, -L LABEL, and
# -j N, which wins over the default of one test per core).
#   scripts/test.sh [CTEST_ARGS...]
# Exit: setup.sh's code when the set-up failed; ctest's code when a test failed; else 1 under CI
# (CI=true) when a test skipped for a reason other than no GPU or running as root; else 0.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
scripts/setup.sh || exit $?
junit=$(mktemp)
trap 'rm -f "$junit"' EXIT
ctest --preset release --parallel "$(nproc)" --output-junit "$junit" "$@"
rc=$?
python3 scripts/skipped_tests.py "$junit" || { [ "$rc" -ne 0 ] || rc=1; }
exit "$rc"
