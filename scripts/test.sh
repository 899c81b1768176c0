#!/usr/bin/env bash
# The test command (README's quick start, .ci/run): ctest on the release build, then why each
# skipped test skipped (scripts/skipped_tests.py: ctest itself prints no skipped test's output).
# Arguments go to ctest (-R REGEX, -L LABEL, -j N).
#   scripts/test.sh [CTEST_ARGS...]
# Exit: ctest's code when a test failed; else 1 under CI (CI=true) when a test skipped for a
# reason other than no GPU or running as root; else 0.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
junit=$(mktemp)
trap 'rm -f "$junit"' EXIT
ctest --preset release --output-junit "$junit" "$@"
rc=$?
python3 scripts/skipped_tests.py "$junit" || { [ "$rc" -ne 0 ] || rc=1; }
exit "$rc"
