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
echo "report.md and $(ls "$out"/*.png | wc -l) PNGs"
