#!/usr/bin/env bash
# apsp_report on the fixtures writes report.md linking non-empty PNGs, the batch heatmap too.
#   report_plots.sh APSP_REPORT FIXTURES_DIR
set -u
report=$1 fixtures=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
db_args=()
[ -f "$fixtures/h200_tuning.json" ] && db_args=(--db "$fixtures/h200_tuning.json")
"$report" "$fixtures/h200_bench.json" "$fixtures/h200_sm90_configs.json" "${db_args[@]}" --out "$out" \
  || { echo "apsp_report failed"; exit 1; }
for png in time_vs_n.png speedup_vs_n.png ceiling_vs_n.png; do
  [ -s "$out/$png" ] || { echo "missing or empty: $png"; exit 1; }
  grep -q "($png)" "$out/report.md" || { echo "report.md does not link $png"; exit 1; }
  [ "$(head -c 4 "$out/$png" | tail -c 3)" = "PNG" ] || { echo "$png is not a PNG"; exit 1; }
done
if [ ${#db_args[@]} -gt 0 ]; then
  ls "$out"/heatmap_batched_n*.png >/dev/null 2>&1 || { echo "no batch heatmap"; exit 1; }
  grep -q "Tuner leaderboards" "$out/report.md" || { echo "no leaderboards in report.md"; exit 1; }
fi
# A database of schema apsp-tuning/2: leaderboards per device, graph spec and build; a heatmap.
out2=$(mktemp -d)
trap 'rm -rf "$out" "$out2"' EXIT
"$report" "$fixtures/h200_bench.json" --db "$fixtures/h200_tuning_v2.json" --out "$out2" \
  || { echo "apsp_report with an apsp-tuning/2 database failed"; exit 1; }
grep -q "| NVIDIA H200 | random 0.1 1000 | 75245ad4b3ec4c7c | batched | 2500 | 1 |" "$out2/report.md" \
  || { echo "no /2 leaderboard row in report.md"; exit 1; }
[ -s "$out2/heatmap_batched_n10000.png" ] || { echo "no heatmap from the /2 database"; exit 1; }
leftover=$(ls "$out" "$out2" | grep "\.tmp\.")
[ -z "$leftover" ] || { echo "temporary files left behind: $leftover"; exit 1; }
echo "report.md and $(ls "$out"/*.png | wc -l) PNGs; the /2 database reported too"
