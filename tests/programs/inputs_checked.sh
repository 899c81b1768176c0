#!/usr/bin/env bash
# Every file a program reads besides its graph (apsp --db, apsp_bench --tuned and --baseline,
# tuner --db) is read and checked whole before any work, on every path (apsp's CPU solve and the
# dry runs included): exit 2, one line naming the option and the file, nothing written. And the
# dry runs tell the truth: only the runs a real run makes, memory in human units, a warning and
# exit 1 where the plan does not fit the device it plans for. No GPU needed.
#   inputs_checked.sh BIN_DIR FIXTURES_DIR
set -u
bin=$1 fixtures=$2
. "$(dirname "$0")/../support/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '3 2\n0 1 5\n1 2 7\n' > "$tmp/g.txt"
printf '{"schema": "apsp-tuning/2", "entries": [' > "$tmp/bad.json"
mkdir "$tmp/folder"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["runs"][0]["median_ms"] = 9999; json.dump(d, open(sys.argv[2], "w"))' \
  "$fixtures/h200_bench.json" "$tmp/median.json" || fail "python3 could not write median.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["entries"][0]["median_ms"] = 1e300; json.dump(d, open(sys.argv[2], "w"))' \
  "$fixtures/h200_tuning_v2.json" "$tmp/db_huge.json" || fail "python3 could not write db_huge.json"

# apsp --db: whatever solves, the CPU included; the output is not written.
for variant in cpu auto; do
  expect 2 "--db $tmp/bad.json: not JSON" "$bin/apsp" "$tmp/g.txt" --variant $variant --db "$tmp/bad.json" -o "$tmp/d.txt"
  expect 2 "--db $tmp/folder: is a folder, not a tuning database" "$bin/apsp" "$tmp/g.txt" --variant $variant --db "$tmp/folder" -o "$tmp/d.txt"
  expect 2 "--db $tmp/none.json: cannot open: No such file or directory" "$bin/apsp" "$tmp/g.txt" --variant $variant --db "$tmp/none.json" -o "$tmp/d.txt"
  expect 2 "--db $tmp/db_huge.json: /entries/0/median_ms: 1e+300 ms is more than 1e+09 ms" \
    "$bin/apsp" "$tmp/g.txt" --variant $variant --db "$tmp/db_huge.json" -o "$tmp/d.txt"
done
[ -e "$tmp/d.txt" ] && fail "apsp wrote $tmp/d.txt beside a refused --db"
"$bin/apsp" "$tmp/g.txt" --variant cpu --db "$fixtures/h200_tuning_v2.json" -o "$tmp/d.txt" 2>/dev/null \
  || fail "apsp refused a good --db"

# apsp_bench --tuned and --baseline, the dry run included.
expect 2 "--tuned $tmp/folder: is a folder, not a tuning database" "$bin/apsp_bench" --dry-run --n 1000 --tuned "$tmp/folder"
expect 2 "--tuned $tmp/bad.json: not JSON" "$bin/apsp_bench" --dry-run --n 1000 --tuned "$tmp/bad.json"
expect 2 "--tuned $tmp/none.json: cannot open" "$bin/apsp_bench" --dry-run --n 1000 --tuned "$tmp/none.json"
expect 2 "--baseline $tmp/median.json: /runs/0/median_ms: 9999 is outside its samples' range" \
  "$bin/apsp_bench" --dry-run --n 1000 --baseline "$tmp/median.json"
expect 2 "--baseline $tmp/folder: is a folder, not a results file" "$bin/apsp_bench" --dry-run --n 1000 --baseline "$tmp/folder"
expect 2 "--baseline $tmp/bad.json: not a results file (not JSON)" "$bin/apsp_bench" --dry-run --n 1000 --baseline "$tmp/bad.json"
expect 2 "--n: n = 1000 is given twice" "$bin/apsp_bench" --dry-run --n 1000,2500,1000

# tuner --db: a search may start one; --emit-policy alone reads one that must be there.
expect 2 "--db $tmp/bad.json: not JSON" "$bin/tuner" --dry-run --n 1000 --db "$tmp/bad.json"
expect 2 "--db $tmp/db_huge.json: /entries/0/median_ms: 1e+300 ms" "$bin/tuner" --dry-run --n 1000 --db "$tmp/db_huge.json"
expect 2 "--db $tmp/none.json: cannot open: No such file or directory" \
  "$bin/tuner" --emit-policy "$tmp/p.json" --db "$tmp/none.json"
expect 2 "--db $tmp/folder: is a folder, not a tuning database" \
  "$bin/tuner" --emit-policy "$tmp/p.json" --db "$tmp/folder"
"$bin/tuner" --dry-run --n 1000 --db "$tmp/none.json" > /dev/null || fail "a search refused a new --db"
echo "ok: every input checked before any work"

# The dry runs: naive (not asked for by name) is not listed above n = 16384; a size that does not
# fit warns in TB and exits 1; a plan that fits exits 0.
out=$("$bin/apsp_bench" --dry-run --n 1000,1000000) && fail "a plan that does not fit exited 0"
[ $? -eq 1 ] || fail "a plan that does not fit: exit $?, expected 1"
grep -q "^    n = 1000000: naive" <<<"$out" && fail "naive listed at n = 1000000: $out"
grep -q "^    not run at n = 1000000: the baseline, not asked for by name" <<<"$out" || fail "no note for naive: $out"
grep -qE "^  n = 1000000: verified against certificate; device memory [0-9.]+ TB$" <<<"$out" || fail "memory not in TB: $out"
grep -qE "^  warning: n = 1000000 needs [0-9.]+ TB of device memory, .* are free on .*: the plan does not fit$" <<<"$out" \
  || fail "no warning: $out"
grep -q "MB$" <<<"$(grep 'n = 1000000: verified' <<<"$out")" && fail "MB for 10^6: $out"
"$bin/apsp_bench" --dry-run --n 1000 > "$tmp/plan" || fail "a plan that fits: exit $?"
grep -q "warning" "$tmp/plan" && fail "a warning for a plan that fits: $(cat "$tmp/plan")"
out=$("$bin/tuner" --dry-run --variant sm90 --search tile --n 1000,400000) && fail "a search that does not fit exited 0"
grep -qE "^  warning: n = 400000 needs [0-9.]+ (GB|TB) of device memory" <<<"$out" || fail "no warning from the tuner: $out"
echo "ok: the dry runs list what runs and warn where it does not fit"
