#!/usr/bin/env bash
# apsp_report refuses a results file that contradicts itself or holds absurd values (exit 2, one
# line naming the file, the run and the field, before any output), wherever it reads one (the
# report, compare); escapes run names in markdown; refuses a plotting script or a --db that is
# not there. Each file is the shipped fixture with one value changed, in a folder of its own.
#   report_validation.sh BIN_DIR FIXTURES_DIR
set -u
bin=$1 fixtures=$2
. "$(dirname "$0")/../support/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# changed OUT PYTHON: the fixture with the statement PYTHON applied to it (as d), into OUT
changed() { json_changed "$fixtures/h200_bench.json" "$tmp/$1" "$2"; }
report=$bin/apsp_report
changed median.json 'd["runs"][1]["median_ms"] = 9999'
changed huge.json 'd["runs"][1]["median_ms"] = 1e300; d["runs"][1]["samples_ms"] = [1e300]'
changed banana.json 'd["runs"][1]["verified"] = "banana"'
changed twice.json 'd["runs"].append(dict(d["runs"][1]))'
changed speedup.json 'd["runs"][1]["speedup_vs_naive"] = 1e300'
changed names.json 'd["runs"][1]["label"] = "left|right\nnext line"'

expect 2 "median.json: /runs/1/median_ms: 9999 is outside its samples' range [0.588672, 0.590784]" \
  "$report" "$tmp/median.json" --format md
expect 2 "median.json: /runs/1/median_ms: 9999 is outside its samples' range" \
  "$report" compare "$fixtures/h200_bench.json" "$tmp/median.json"
expect 2 "huge.json: /runs/1/samples_ms/0: 1e+300 ms is more than 1e+09 ms" "$report" "$tmp/huge.json" --format csv
expect 2 "speedup.json: /runs/1/speedup_vs_naive: 1e+300 is more than 1e+06" "$report" "$tmp/speedup.json" --format md
expect 2 "banana.json: /runs/1/verified: \"banana\" is not one of \"cpu-reference\"" \
  "$report" "$tmp/banana.json" --out "$tmp/out"
[ -e "$tmp/out" ] && fail "apsp_report made $tmp/out from a refused file"
expect 2 "twice.json: /runs/18: the same run as /runs/1 (blocked32 at n = 1000 on 1 GPU(s)" \
  "$report" compare "$tmp/twice.json" "$fixtures/h200_bench.json"
# Every refusal is one line on stderr, and nothing on stdout.
for f in median huge banana twice speedup; do
  "$report" "$tmp/$f.json" --format md > "$tmp/stdout" 2> "$tmp/stderr"
  [ "$(wc -l < "$tmp/stderr")" -eq 1 ] || fail "$f.json: stderr is not one line: $(cat "$tmp/stderr")"
  [ -s "$tmp/stdout" ] && fail "$f.json: output before the refusal: $(head -c 200 "$tmp/stdout")"
done
echo "ok: contradictions and absurd values refused, one line each"

# A run's name holding | and a newline stays in its cell: every table row has as many cells as
# its header, and the name reads escaped.
"$report" "$tmp/names.json" --format md > "$tmp/names.md" || fail "names.json: apsp_report exited $?"
grep -qF 'left\|right next line' "$tmp/names.md" || fail "the name is not escaped: $(cat "$tmp/names.md")"
python3 - "$tmp/names.md" <<'EOF' || fail "a table row lost its shape (above)"
import re, sys
cells = lambda row: len(re.findall(r"(?<!\\)\|", row)) - 1
table = []
for line in open(sys.argv[1]).read().split("\n") + [""]:
    if line.startswith("|"):
        table.append(line)
        continue
    if table and any(cells(r) != cells(table[0]) for r in table):
        print("\n".join(table))
        sys.exit(1)
    table = []
EOF
echo "ok: run names escaped in markdown"

# A plotting script named and not there, a --db not there or not a database: refused before any
# work, and the folder is not made.
APSP_PLOT_SCRIPT=$tmp/missing.py expect 2 "APSP_PLOT_SCRIPT=$tmp/missing.py: no such file" \
  "$report" "$fixtures/h200_bench.json" --out "$tmp/plots"
[ -e "$tmp/plots" ] && fail "apsp_report made $tmp/plots for a missing plotting script"
APSP_PLOT_SCRIPT=$tmp expect 2 "APSP_PLOT_SCRIPT=$tmp: not a file" "$report" "$fixtures/h200_bench.json" --out "$tmp/plots"
expect 2 "--db $tmp: is a folder, not a tuning database" "$report" "$fixtures/h200_bench.json" --format md --db "$tmp"
expect 2 "--db $tmp/none.json: cannot open: No such file or directory" \
  "$report" "$fixtures/h200_bench.json" --format md --db "$tmp/none.json"
expect 2 "$tmp: is a folder, not a results file" "$report" "$tmp" --format md
echo "every refusal before any output"
