#!/usr/bin/env bash
# Numbers no run can produce are refused by the programs that read them, with one line naming
# the file, the JSON path and the fault, exit 2, before any output (seen in earlier files: a 1213% share of
# the ceiling, a "-0.9x" speedup, a negative interval that compare called faster, n = 1e20 shown
# as -2147483648, a median of -1 ranked first by --tuned). Each file is a shipped fixture with
# one value changed.
#   readers_cli.sh BIN_DIR FIXTURES_DIR
set -u
bin=$1 fixtures=$2
. "$(dirname "$0")/../support/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench=$fixtures/h200_bench.json db=$fixtures/h200_tuning_v2.json
json_changed "$bench" "$tmp/share.json" 'd["context"]["ceiling_updates_per_s"] = 1.0775e12; d["runs"][1]["pct_of_ceiling"] = 1213.7'
json_changed "$bench" "$tmp/median.json" 'd["runs"][1]["median_ms"] = -0.9'
json_changed "$bench" "$tmp/samples.json" 'd["runs"][1]["samples_ms"] = [-4.6, -2.3, -3.0]'
json_changed "$db" "$tmp/db_median.json" 'd["entries"][0]["median_ms"] = -1'
json_changed "$db" "$tmp/db_n.json" 'd["entries"][0]["n"] = 1e20'

expect 2 "share.json: /runs/1/pct_of_ceiling: 1213.7% of the measured ceiling" "$bin/apsp_report" "$tmp/share.json" --format md
expect 2 "median.json: /runs/1/median_ms: -0.9 is not a finite number >= 0" "$bin/apsp_report" "$tmp/median.json" --out "$tmp/r"
[ -e "$tmp/r" ] && fail "apsp_report wrote $tmp/r from a refused file"
expect 2 "samples.json: /runs/1/samples_ms/0: -4.6 is not a finite number >= 0" \
  "$bin/apsp_report" compare "$bench" "$tmp/samples.json"
expect 2 "db_median.json: /entries/0/median_ms: -1 is not a finite number >= 0" \
  "$bin/apsp_bench" --dry-run --variant batched --n 1000 --tuned "$tmp/db_median.json"
expect 2 "db_median.json: /entries/0/median_ms: -1 is not a finite number >= 0" \
  "$bin/apsp_report" "$bench" --format md --db "$tmp/db_median.json"
expect 2 "db_n.json: /entries/0/n: 1e+20 is not an integer in [1, 1048576]" \
  "$bin/tuner" --dry-run --search batch --n 1000 --db "$tmp/db_n.json"
echo "every impossible number refused where it is read"
