#!/usr/bin/env bash
# A real batch sweep on the GPU: exit 77 (skipped) without one. Every batched GPU variant on
# fixed sizes across the shared-memory bands (16, 64 and 300 vertices: lane groups, a block, the
# plain kernel) and on molecules, hop distances and weighted; every graph verified against the
# CPU reference, the ceilings measured, and the JSON read back by apsp_report.
#   bench_gpu_batch_sweep.sh APSP_BENCH APSP_REPORT OUT_DIR
set -u
bench=$1 report=$2 out=$3
mkdir -p "$out"
"$bench" --graphs 300 --n 16,64,300 --min-time 0.05 --ceiling-time 0.2 --json "$out/fixed.json"
rc=$?
if [ $rc -eq 3 ]; then echo "no GPU: skipped"; exit 77; fi
[ $rc -eq 0 ] || { echo "apsp_bench exited $rc"; exit 1; }
"$bench" --graphs 20000 --sizes molecules --batch-wmax 20 --min-time 0.05 --ceiling-time 0.2 \
  --json "$out/molecules.json" || { echo "molecules: apsp_bench exited $?"; exit 1; }
for f in fixed molecules; do
  grep -q '"hbm_bytes_per_s"' "$out/$f.json" || { echo "$f: no bandwidth measured"; exit 1; }
  if grep -q '"verified": "\(FAILED\|skipped\)"' "$out/$f.json"; then
    echo "$f: a run not verified"; exit 1
  fi
  "$report" "$out/$f.json" --format md | grep -q "Batches of small graphs" ||
    { echo "$f: apsp_report shows no batch table"; exit 1; }
done
echo "batch GPU sweeps verified and reported"
