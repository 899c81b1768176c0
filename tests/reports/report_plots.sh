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
# A file with a UTF-8 BOM and a run without "name" (optional in the schema): both readers take it.
out3=$(mktemp -d)
trap 'rm -rf "$out" "$out2" "$out3"' EXIT
printf '\xEF\xBB\xBF' > "$out3/bom.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["runs"][0]["name"]; print(json.dumps(d))' \
  "$fixtures/h200_bench.json" >> "$out3/bom.json"
"$report" "$out3/bom.json" --out "$out3/r" 2>"$out3/err" || { echo "BOM / no name: $(cat "$out3/err")"; exit 1; }
[ -s "$out3/r/time_vs_n.png" ] || { echo "BOM / no name: no plot"; exit 1; }
# A failing plot script: exit 1, one line naming the log, the traceback in the log.
printf 'raise ValueError("planted failure")\n' > "$out3/bad_plot.py"
APSP_PLOT_SCRIPT=$out3/bad_plot.py "$report" "$fixtures/h200_bench.json" --out "$out3/f" >/dev/null 2>"$out3/err"
rc=$?
[ $rc -eq 1 ] || { echo "a failing plot script: exit $rc, expected 1"; exit 1; }
[ "$(wc -l < "$out3/err")" -eq 1 ] && grep -q "(ValueError: planted failure); its messages are in $out3/f/plot.log" "$out3/err" \
  || { echo "a failing plot script: stderr $(cat "$out3/err")"; exit 1; }
grep -q "Traceback" "$out3/f/plot.log" || { echo "no traceback in plot.log"; exit 1; }
# Progress: the script reports each plot ("progress DONE TOTAL", the heatmaps counted once the
# database is read); on a terminal apsp_report shows the share and the time left.
script_dir=$(dirname "$0")/../../scripts
python3 "$script_dir/plot_results.py" --out "$out3/p" --db "$fixtures/h200_tuning_v2.json" "$fixtures/h200_bench.json" \
  > "$out3/progress" 2>&1 || { echo "plot_results.py: $(cat "$out3/progress")"; exit 1; }
[ "$(head -n 1 "$out3/progress")" = "progress 0 3" ] && grep -qx "progress 4 4" "$out3/progress" \
  || { echo "plot_results.py progress lines: $(cat "$out3/progress")"; exit 1; }
if command -v script >/dev/null; then
  printf 'import time\nfor d in range(2):\n    print(f"progress {d} 2", flush=True)\n    time.sleep(2.2)\nprint("progress 2 2")\n' > "$out3/slow_plot.py"
  APSP_PLOT_SCRIPT=$out3/slow_plot.py script -qec "$report $fixtures/h200_bench.json --out $out3/s" /dev/null \
    > "$out3/tty" 2>&1
  # The time left is estimated from the time so far, which a loaded machine stretches: any estimate.
  grep -qE "plotting: 50% \(about [0-9]+ s left\)" "$out3/tty" || { echo "no progress line on a terminal: $(cat -v "$out3/tty")"; exit 1; }
fi
leftover=$(ls "$out" "$out2" | grep "\.tmp\.")
[ -z "$leftover" ] || { echo "temporary files left behind: $leftover"; exit 1; }
echo "report.md and $(ls "$out"/*.png | wc -l) PNGs; the /2 database reported too"
