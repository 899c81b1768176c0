#!/usr/bin/env bash
# scripts/skipped_tests.py on the JUnit file of a real ctest run (a generated project): every
# skipped test listed with its reason (a script's last line, a GoogleTest skip's message, none);
# under CI=true only "no GPU" and "running as root" pass, any other skip exits 1 naming it.
#   skipped_tests.sh SOURCE_DIR CTEST
set -uo pipefail
src=$1 ctest=$2
report="$src/scripts/skipped_tests.py"
fail() { echo "skipped_tests: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gtest_skip='[ RUN      ] Out.Folder\ntest_out.cpp:159: Skipped\nroot may write into any folder\n\n[  SKIPPED ] Out.Folder (0 ms)\n[  SKIPPED ] 1 test, listed below:\n[  SKIPPED ] Out.Folder\n'
cat > "$tmp/CTestTestfile.cmake" <<CMAKE
add_test(gpu sh -c "echo device query; echo 'no CUDA device: GPU tests skipped'; exit 77")
add_test(root sh -c "printf '$gtest_skip'")
add_test(tool sh -c "echo 'clang-format 14 is not installed: format not checked'; exit 77")
add_test(silent sh -c "exit 77")
add_test(passes sh -c "echo fine")
set_tests_properties(gpu tool silent passes PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(root PROPERTIES SKIP_REGULAR_EXPRESSION "\\\\[  SKIPPED \\\\]")
CMAKE
"$ctest" --test-dir "$tmp" --output-junit "$tmp/all.xml" > "$tmp/ctest.log" 2>&1
"$ctest" --test-dir "$tmp" -R '^(gpu|root|passes)$' --output-junit "$tmp/allowed.xml" >> "$tmp/ctest.log" 2>&1
for f in all allowed; do
  [ -s "$tmp/$f.xml" ] || fail "ctest wrote no $f.xml: $(cat "$tmp/ctest.log")"
done

out=$(env -u CI python3 "$report" "$tmp/all.xml") || fail "exit $? outside CI: $out"
echo "$out"
expected="skipped tests (4), each with the reason it printed:
  gpu: no CUDA device: GPU tests skipped
  root: root may write into any folder
  tool: clang-format 14 is not installed: format not checked
  silent: (printed no reason)"
[ "$out" = "$expected" ] || fail "the report outside CI is not: $expected"

rc=0
out=$(CI=true python3 "$report" "$tmp/all.xml") || rc=$?
echo "$out"
[ "$rc" -eq 1 ] || fail "under CI=true, skips for a tool and for nothing exited $rc, not 1"
grep -qx "skipped_tests: under CI a test may skip only for no GPU or for running as root; 2 skipped otherwise: tool, silent" <<< "$out" ||
  fail "under CI=true the report does not name tool and silent alone"

out=$(CI=true python3 "$report" "$tmp/allowed.xml") || fail "under CI=true, skips for no GPU and root exited $?: $out"

rc=0
out=$(python3 "$report" "$tmp/none.xml" 2>&1) || rc=$?
[ "$rc" -eq 2 ] || fail "a missing file gave exit $rc, not 2: $out"
grep -q "^skipped_tests: $tmp/none.xml: " <<< "$out" || fail "a missing file is not named first: $out"
echo "skipped_tests: the reasons listed, CI's rule kept"
