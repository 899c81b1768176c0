#!/usr/bin/env bash
# User kernels end to end on the GPU (exit 77 without one):
#  1. apsp_bench with the examples beside planted faults: the fault (illegal address), the hang
#     (stopped by --kernel-timeout) and the wrong kernel are FAILED with their reason; the
#     examples, run after them, verify bit-exact at sizes that are not multiples of their tile;
#     a rerun compiles nothing (the compile cache).
#  2. the tuner over BATCH2 x BATCH3 of the batched example, its entries keyed by the source's
#     hash; apsp_bench --tuned then runs its pick or the default, never slower by the database.
#  3. apsp --kernel solves a file equal to its expected output.
#  4. a macro the file guards with #ifndef (UNROLL): the tuner searches it, and apsp_bench
#     --config, apsp_bench --tuned and apsp --kernel --db run it under the tuner's names.
#   bench_user_kernels.sh BIN_DIR SOURCE_DIR PLANTED_DIR WORK_DIR
set -u
bin=$1 src=$2 planted=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
export APSP_KERNEL_CACHE=$work/cache
ex=$src/examples/kernels
bench() {
  "$bin/apsp_bench" --variant naive --kernel "$planted/planted_fault_kernel.cu" --kernel "$planted/planted_hang_kernel.cu" \
    --kernel "$planted/planted_wrong_kernel.cu" --kernel "$ex/fw32.cu" --kernel "$ex/fw_batched.cu" \
    --kernel-timeout 10 --n 300,1000 --min-time 0.05 --ceiling-time 0 "$@"
}
out=$(bench --json "$work/first.json" 2>&1)
rc=$?
[ $rc -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
echo "$out"
[ $rc -eq 1 ] || { echo "expected exit 1 (FAILED runs), got $rc"; exit 1; }
grep -q 'fw32\[TILE=32\] compiled by NVRTC' <<<"$out" || { echo "the first run did not compile"; exit 1; }
python3 - "$work/first.json" <<'PY' || exit 1
import json, sys
runs = {(r["variant"], r["n"]): r for r in json.load(open(sys.argv[1]))["runs"]}
for n in (300, 1000):
    assert "illegal" in runs[("planted_fault_kernel", n)]["error"].lower(), runs[("planted_fault_kernel", n)]
    for bad in ("planted_fault_kernel", "planted_hang_kernel", "planted_wrong_kernel"):
        assert runs[(bad, n)]["verified"] == "FAILED", runs[(bad, n)]
    assert "--kernel-timeout" in runs[("planted_hang_kernel", n)]["error"], runs[("planted_hang_kernel", n)]
    for good in ("fw32", "fw_batched"):
        r = runs[(good, n)]
        assert r["verified"] == "cpu-reference" and r["median_ms"] > 0 and r["speedup_vs_naive"] > 0, r
print("faults FAILED with their reasons; the examples verified after them")
PY
again=$("$bin/apsp_bench" --variant naive --kernel "$ex/fw32.cu" --kernel "$ex/fw_batched.cu" --n 300 \
        --min-time 0.05 --ceiling-time 0 2>&1) || { echo "$again"; echo "the rerun failed"; exit 1; }
[ "$(grep -c 'from the compile cache' <<<"$again")" -eq 2 ] || { echo "$again"; echo "the rerun compiled again"; exit 1; }
grep 'from the compile cache' <<<"$again"

"$bin/tuner" --kernel "$ex/fw_batched.cu" --param BATCH2=1,2,4 --param BATCH3=1,2,4 --n 700 --min-time 0.05 \
  --db "$work/tuning.json" || { echo "the tuner failed"; exit 1; }
python3 - "$work/tuning.json" <<'PY' || exit 1
import json, sys
entries = [e for e in json.load(open(sys.argv[1]))["entries"] if e["variant"] == "fw_batched"]
assert len(entries) >= 9 and all(e["status"] == "ok" for e in entries), entries
assert len({e["build"]["kernels"] for e in entries}) == 1, "keyed by one source hash"
print(len(entries), "fw_batched points in the database")
PY
tuned=$("$bin/apsp_bench" --variant naive --kernel "$ex/fw_batched.cu" --n 700 --tuned "$work/tuning.json" \
        --min-time 0.05 --ceiling-time 0 2>&1) || { echo "$tuned"; echo "--tuned failed"; exit 1; }
echo "$tuned"
grep -q 'tuned: ' <<<"$tuned" || { echo "--tuned said nothing of fw_batched"; exit 1; }

"$bin/apsp" --kernel "$ex/fw32.cu" "$src/tests/data/components37.txt" -o "$work/components37.out" || exit 1
cmp "$work/components37.out" "$src/tests/data/components37.expected" || { echo "apsp --kernel: wrong output"; exit 1; }
echo "apsp --kernel fw32.cu: components37 exact"

"$bin/tuner" --kernel "$planted/unrolled_kernel.cu" --param UNROLL=1,2,8 --n 40,500 --min-time 0.05 \
  --db "$work/unroll.json" || { echo "the tuner over UNROLL failed"; exit 1; }
"$bin/apsp_bench" --kernel "$planted/unrolled_kernel.cu" --config 'unrolled_kernel[UNROLL=8]' --n 500 \
  --min-time 0.05 --ceiling-time 0 --json "$work/unroll_config.json" || { echo "--config UNROLL=8 failed"; exit 1; }
"$bin/apsp_bench" --variant naive --kernel "$planted/unrolled_kernel.cu" --n 500 --tuned "$work/unroll.json" \
  --min-time 0.05 --ceiling-time 0 --json "$work/unroll_tuned.json" || { echo "--tuned over UNROLL failed"; exit 1; }
python3 - "$work/unroll.json" "$work/unroll_config.json" "$work/unroll_tuned.json" <<'PY' || exit 1
import json, sys
tuned_names = {e["name"] for e in json.load(open(sys.argv[1]))["entries"] if e["variant"] == "unrolled_kernel"}
assert {"unrolled_kernel[TILE=32,UNROLL=%d]" % u for u in (1, 2, 4, 8)} <= tuned_names, tuned_names
for path in sys.argv[2:]:
    runs = [r for r in json.load(open(path))["runs"] if r["variant"] == "unrolled_kernel"]
    assert len(runs) == 1 and runs[0]["verified"] == "cpu-reference", runs
    assert runs[0]["name"] in tuned_names, (runs[0]["name"], tuned_names)
print("UNROLL: the bench's --config and --tuned runs carry the tuner's names")
PY
"$bin/apsp" --kernel "$planted/unrolled_kernel.cu" --db "$work/unroll.json" "$src/tests/data/components37.txt" \
  -o "$work/unrolled37.out" 2>"$work/unrolled37.err" || { cat "$work/unrolled37.err"; exit 1; }
grep -q "solving with unrolled_kernel\[TILE=32,UNROLL=[1248]\]" "$work/unrolled37.err" || { cat "$work/unrolled37.err"; exit 1; }
cmp "$work/unrolled37.out" "$src/tests/data/components37.expected" || { echo "apsp --kernel --db: wrong output"; exit 1; }
echo "apsp --kernel unrolled_kernel.cu --db: $(grep 'solving with' "$work/unrolled37.err")"
