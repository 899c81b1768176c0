#!/usr/bin/env bash
# A small real sweep: exit 77 (skipped) without a GPU; otherwise the JSON must be read back by
# the schema reader (results_check): every run verified, every speedup a positive number.
# Weights 1..100, so that every variant runs, sm90_u16 too ((300 - 1) * 100 < 32767: 16-bit
# distances are exact; with the default 1..1000 it would be skipped as outside its domain).
#   bench_small_sweep.sh APSP_BENCH RESULTS_CHECK OUT.json
set -u
bench=$1 check=$2 out=$3
"$bench" --n 100,300 --wmax 100 --min-time 0.05 --ceiling-time 0.2 --json "$out"
rc=$?
if [ $rc -eq 3 ]; then echo "no GPU: skipped"; exit 77; fi
[ $rc -eq 0 ] || { echo "apsp_bench exited $rc"; exit 1; }
"$check" "$out"
