#!/usr/bin/env bash
# A planted wrong variant must be reported FAILED (table and JSON) with exit code 1, while the
# other runs still complete verified. Exit 77 (skipped) without a GPU.
#   bench_planted_wrong.sh APSP_BENCH OUT.json
set -u
bench=$1 out=$2
stdout=$(APSP_TEST_VARIANTS=1 "$bench" --n 100,3000 --variant naive,blocked32,planted_wrong \
         --min-time 0.05 --ceiling-time 0 --json "$out" 2>/dev/null)
rc=$?
[ $rc -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
echo "$stdout"
[ $rc -eq 1 ] || { echo "expected exit 1, got $rc"; exit 1; }
grep -q 'FAILED' <<<"$stdout" || { echo "no FAILED in the table"; exit 1; }
python3 - "$out" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
bad = [r for r in runs if r["variant"] == "planted_wrong"]
good = [r for r in runs if r["variant"] != "planted_wrong"]
assert len(bad) == 2 and all(r["verified"] == "FAILED" and r["speedup_vs_naive"] is None for r in bad), bad
assert all(r["verified"] != "FAILED" and r["median_ms"] > 0 for r in good), good
print("planted wrong variant caught at", [r["n"] for r in bad])
PY
