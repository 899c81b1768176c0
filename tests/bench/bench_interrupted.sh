#!/usr/bin/env bash
# A sweep keeps what it measured: its --json file is written as it starts and rewritten after
# every run ("complete": false until the sweep ends), and stdout has a line per run as it finishes. Stopped by SIGTERM
# it exits 143, by SIGINT 130; the file then holds every finished run, whole, and apsp_report
# reads it, says it is incomplete and exits 0. No GPU needed: apsp_bench_host is the bench with
# the CPU-backed test variants, and a baseline file stands in for naive (a GPU variant).
#   bench_interrupted.sh APSP_BENCH_HOST APSP_REPORT SOURCE_DIR
set -u
bench=$1 report=$2 src=$3
dir=$(mktemp -d)
running=""  # a sweep in the background: stopped if this test fails before it does
trap '[ -n "$running" ] && kill -KILL "$running" 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export APSP_TEST_VARIANTS=1
python3 "$src/tests/bench/host_baseline.py" "$dir/baseline.json" 16 24 2000 || fail "baseline file"
sweep=("$bench" --variant cpu_fw,cpu_naive --min-reps 3 --reps 3 --ceiling-time 0
       --baseline "$dir/baseline.json")

# check_runs FILE STDOUT COMPLETE MIN_RUNS: the file parses, says COMPLETE (True/False), holds at
# least MIN_RUNS runs, each whole (verified, its three samples, a positive median), and stdout
# has each run's line.
check_runs() {
  python3 - "$@" <<'PY' || fail "$1 (stdout $2) is not as expected"
import json, sys
path, stdout, complete, least = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], int(sys.argv[4])
r = json.load(open(path))
assert r["schema"] == "apsp-bench/1"
assert r["complete"] is (complete == "True"), r["complete"]
runs = r["runs"]
assert len(runs) >= least, len(runs)
for run in runs:
    assert run["verified"] == "cpu-reference", run
    assert len(run["samples_ms"]) == 3 and run["median_ms"] > 0, run
    assert run["speedup_vs_naive"] is not None, run
    line = "n = %d: %s: " % (run["n"], run["name"])
    assert line in stdout and "verified cpu-reference" in stdout, (line, stdout)
print(path, "holds", len(runs), "runs, complete:", r["complete"])
PY
}

# A whole sweep: every run, "complete": true, exit 0.
"${sweep[@]}" --n 16,24 --json "$dir/whole.json" >"$dir/whole.out" || fail "whole sweep exited $?"
check_runs "$dir/whole.json" "$dir/whole.out" True 4

# stop SIGNAL CODE SIZES RUNS: a sweep whose last size takes minutes, stopped once its file holds
# RUNS runs; over the file of an earlier sweep, which it replaces as it starts.
stop() {
  local sig=$1 code=$2 sizes=$3 least=$4 out=$dir/$1-$4
  mkdir "$out"
  cp "$dir/whole.json" "$out/r.json"
  # Job control: a background job of a shell without it ignores SIGINT.
  set -m
  "${sweep[@]}" --n "$sizes" --json "$out/r.json" >"$out/stdout" 2>"$out/stderr" &
  local pid=$!
  running=$pid
  set +m
  local waited=0
  until python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
assert r["complete"] is False and len(r["runs"]) >= int(sys.argv[2])' "$out/r.json" "$least" \
          2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || fail "the sweep ended before it was stopped: $(cat "$out/stderr")"
    ((waited++ < 3000)) || fail "not $least runs in $out/r.json after 300 s"
    sleep 0.1
  done
  kill -s "$sig" "$pid"
  wait "$pid"
  local rc=$?
  running=""
  [ "$rc" -eq "$code" ] || fail "stopped by $sig: exit $rc, expected $code ($(cat "$out/stderr"))"
  grep -qF "apsp_bench: interrupted by $sig; the finished runs are in $out/r.json" "$out/stderr" ||
    fail "stderr: $(cat "$out/stderr")"
  check_runs "$out/r.json" "$out/stdout" False "$least"
  [ "$(ls "$out")" = "$(printf 'r.json\nstderr\nstdout')" ] || fail "left in $out: $(ls "$out")"
  # apsp_report reads it, and says it is incomplete: on stderr and in its output.
  local runs
  runs=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["runs"]))' "$out/r.json")
  "$report" "$out/r.json" --format md >"$out/report.md" 2>"$out/report.err" ||
    fail "apsp_report exited $?: $(cat "$out/report.err")"
  local note="$out/r.json: incomplete: the sweep was stopped after $runs run"
  grep -qF "apsp_report: $note" "$out/report.err" || fail "report stderr: $(cat "$out/report.err")"
  grep -qF "$note" "$out/report.md" || fail "report: $(cat "$out/report.md")"
  echo "ok: $sig: exit $rc, $runs finished run(s) kept"
}
stop SIGTERM 143 16,2000 1
stop SIGINT 130 16,2000 1
stop SIGTERM 143 2000 0  # before any run finished: the file says so, and holds none
