#!/usr/bin/env bash
# Google Benchmark's own compare.py pairs every benchmark of two --gbench-json files taken with
# different sample counts (names carry no "iterations:N"), and --benchmark_repetitions gives
# repetitions of different samples (a standard deviation above 0). Exit 77 (skipped) when
# compare.py (Debian: libbenchmark-tools; or APSP_GBENCH_COMPARE=PATH) or its Python modules
# (numpy, scipy) are missing. No GPU needed: apsp_bench_host runs the CPU-backed test variants.
#   gbench_compare.sh APSP_BENCH_HOST SOURCE_DIR
set -u
bench=$1 src=$2
compare=${APSP_GBENCH_COMPARE:-/usr/share/benchmark/compare.py}
[ -f "$compare" ] || { echo "no $compare (Debian package libbenchmark-tools): skipped"; exit 77; }
python3 -c 'import numpy, scipy' 2>/dev/null || { echo "compare.py needs numpy and scipy: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export APSP_TEST_VARIANTS=1
python3 "$src/tests/bench/host_baseline.py" "$dir/baseline.json" 16 24 || fail "baseline file"
sweep() { "$bench" --variant cpu_fw,cpu_naive --n 16,24 --ceiling-time 0 \
            --baseline "$dir/baseline.json" "$@" >/dev/null || fail "apsp_bench_host $* exited $?"; }
sweep --min-reps 3 --reps 3 --gbench-json "$dir/a.json"
sweep --min-reps 7 --reps 7 --gbench-json "$dir/b.json"
sweep --min-reps 6 --reps 6 --gbench-json "$dir/r1.json" --benchmark_repetitions=3
sweep --min-reps 9 --reps 9 --gbench-json "$dir/r2.json" --benchmark_repetitions=3

python3 "$compare" --no-color -d "$dir/ab.json" benchmarks "$dir/a.json" "$dir/b.json" >"$dir/ab.txt" 2>&1 ||
  fail "compare.py a b: $(cat "$dir/ab.txt")"
python3 "$compare" --no-color -d "$dir/rr.json" benchmarks "$dir/r1.json" "$dir/r2.json" >"$dir/rr.txt" 2>&1 ||
  fail "compare.py r1 r2: $(cat "$dir/rr.txt")"
cat "$dir/ab.txt" "$dir/rr.txt"
python3 - "$dir" <<'PY' || fail "compare.py did not pair every benchmark"
import json, os, sys
d = sys.argv[1]
load = lambda name: json.load(open(os.path.join(d, name)))
names = lambda f: sorted({b["name"] for b in load(f)["benchmarks"] if b["run_type"] == "iteration"})
a, b = names("a.json"), names("b.json")
assert len(a) == 4 and a == b, (a, b)
assert not any("iterations:" in n or "repeats:" in n for n in a), a
assert names("r1.json") == a and names("r2.json") == a, names("r1.json")
# Every benchmark of both files is in the comparison: none dropped for a name that differs.
assert sorted(x["name"] for x in load("ab.json") if x["run_type"] == "iteration") == a, load("ab.json")
paired = {x["name"] for x in load("rr.json") if x["run_type"] == "iteration"}
assert paired == set(a), paired
# With repetitions, compare.py's U test ran on each pair.
assert all(x["utest"] for x in load("rr.json") if x["run_type"] == "iteration"), load("rr.json")
# Three repetitions each, of different samples: their times differ, their stddev is not 0.
for f in ("r1.json", "r2.json"):
    bench = load(f)["benchmarks"]
    for n in a:
        reps = [x["real_time"] for x in bench if x["name"] == n and x["run_type"] == "iteration"]
        assert len(reps) == 3 and len(set(reps)) > 1, (f, n, reps)
        sd = [x for x in bench if x["run_type"] == "aggregate" and x["run_name"] == n
              and x["aggregate_name"] == "stddev"]
        assert len(sd) == 1 and sd[0]["real_time"] > 0, (f, n, sd)
print("compare.py paired all", len(a), "benchmarks; repetitions are independent")
PY
