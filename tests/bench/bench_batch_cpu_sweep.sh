#!/usr/bin/env bash
# A batch sweep of the CPU variant (no GPU needed): every graph verified, the JSON read back by
# apsp_report (the schema reader) into the batch table; bad input writes nothing.
#   bench_batch_cpu_sweep.sh APSP_BENCH APSP_REPORT OUT_DIR
set -u
bench=$1 report=$2 out=$3
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.md
"$bench" --graphs 40,80 --n 8,20 --variant batch_cpu --batch-wmax 30 --min-time 0.01 \
  --json "$out/cpu.json" --md "$out/cpu.md" >"$out/stdout.txt" || { cat "$out/stdout.txt"; exit 1; }
grep -q "80 graphs, n <= 20: batch_cpu: .* verified cpu-reference" "$out/stdout.txt" ||
  { echo "no verified line"; cat "$out/stdout.txt"; exit 1; }
grep -q "| batch_cpu | 40 x n = 20 | 20 | int16 |" "$out/cpu.md" || { echo "--md: no row"; exit 1; }
"$report" "$out/cpu.json" --format md >"$out/report.md" || exit 1
grep -q "### Batches of small graphs" "$out/report.md" || { echo "no batch table"; exit 1; }
grep -q "80 x n = 20" "$out/report.md" || { echo "no 80-graph row"; exit 1; }
if grep -q "no baseline" "$out/report.md"; then echo "a batch file needs no baseline"; exit 1; fi
"$report" "$out/cpu.json" --format json | grep -q '"batches"' || { echo "json: no batches"; exit 1; }
# Refused before any work: nothing written.
"$bench" --graphs 40 --n 900 --variant batch_cpu --json "$out/refused.json" 2>/dev/null
[ $? -eq 2 ] || { echo "--n 900 not refused with 2"; exit 1; }
[ ! -e "$out/refused.json" ] || { echo "a refused run wrote its JSON"; exit 1; }
echo "batch CPU sweep verified and reported"
