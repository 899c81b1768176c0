#!/usr/bin/env bash
# A finding fails the fuzz test: fuzz_planted (tests/fuzz/fuzz_planted.cpp) fuzzed through
# fuzz.sh, as ctest runs every fuzz_* test, with one plant at a time (a fuzz_check finding, a
# leak, an allocation beyond the limit, undefined behaviour, a timeout). Each run must exit 1,
# and a ctest project of those runs, registered as the real ones are (SKIP_RETURN_CODE 77), must
# say Failed for every one, never Skipped; beside them a run with no plant Passed, and a run with
# no fuzzer built is Skipped outside CI and Failed under CI=true.
#   planted_finding.sh FUZZ_BUILD_DIR CTEST
set -uo pipefail
fuzz_dir=$(realpath -m "$1") ctest=$2
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "planted_finding: $*"; exit 1; }
if [ ! -x "$fuzz_dir/fuzz_planted" ]; then
  # fuzz_build skipped (no clang here): so does this test, by fuzz.sh's own rule.
  exec bash "$here/fuzz.sh" run "$fuzz_dir" planted 1 /nonexistent
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One build folder per plant (fuzz.sh keeps its corpus and artifacts per folder); one seed.
mkdir -p "$tmp/seeds"
printf 'planted' > "$tmp/seeds/input"
for plant in F L M U T clean; do
  mkdir -p "$tmp/$plant"
  ln -s "$fuzz_dir/fuzz_planted" "$tmp/$plant/fuzz_planted"
done

# fuzz.sh itself: exit 1 (not libFuzzer's 77) and the finding shown.
rc=0
out=$(APSP_FUZZ_PLANT=F bash "$here/fuzz.sh" run "$tmp/F" planted 30 "$tmp/seeds") || rc=$?
[ "$rc" -eq 1 ] || fail "fuzz.sh on a planted finding exited $rc, not 1"
grep -q 'FUZZ FINDING: planted' <<< "$out" || fail "fuzz.sh did not show the finding: $out"

# ctest on the same runs: each plant Failed; no fuzzer built is Skipped, or Failed under CI.
mkdir -p "$tmp/ctest" "$tmp/none"
{
  for plant in F L M U T; do
    echo "add_test(plant_$plant bash $here/fuzz.sh run $tmp/$plant planted 30 $tmp/seeds)"
    echo "set_tests_properties(plant_$plant PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT APSP_FUZZ_PLANT=$plant)"
  done
  echo "add_test(clean bash $here/fuzz.sh run $tmp/clean planted 2 $tmp/seeds)"
  for ci in false true; do
    echo "add_test(none_ci_$ci bash $here/fuzz.sh run $tmp/none planted 1 $tmp/none)"
    echo "set_tests_properties(none_ci_$ci PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT CI=$ci)"
  done
} > "$tmp/ctest/CTestTestfile.cmake"
report=$("$ctest" --test-dir "$tmp/ctest" 2>&1)
echo "$report"
for expected in "plant_F Failed" "plant_L Failed" "plant_M Failed" "plant_U Failed" \
                "plant_T Failed" "clean Passed" "none_ci_false Skipped" "none_ci_true Failed"; do
  name=${expected% *} status=${expected#* }
  grep -Eq "Test +#[0-9]+: $name \.+ *(\*\*\*)?$status " <<< "$report" ||
    fail "ctest did not report $name as $status"
done
# Each plant failed for its own fault, not another's.
for expected in "F:FUZZ FINDING: planted" "L:ERROR: LeakSanitizer: detected memory leaks" \
                "M:ERROR: libFuzzer: out-of-memory (malloc(3221225472))" \
                "U:runtime error: signed integer overflow" "T:ERROR: libFuzzer: timeout"; do
  plant=${expected%%:*} fault=${expected#*:}
  grep -qF "$fault" "$tmp/$plant/fuzz_planted.log" || fail "plant_$plant did not fail with '$fault'"
done
echo "planted_finding: every planted finding failed its ctest test"
