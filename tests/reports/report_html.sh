#!/usr/bin/env bash
# The HTML report and compare's verdicts without a browser: the page is one file with nothing
# from elsewhere, run names escaped, written whole or not at all; compare names an ambiguous
# verdict in every format, and its exit code says only "slower beyond the threshold".
#   report_html.sh APSP_REPORT FIXTURES_DIR
set -u
report=$1 fixtures=$2
. "$(dirname "$0")/../support/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The page: the hostile names as text, one script (the page's own), nothing loaded from elsewhere.
"$report" "$fixtures/hostile_stopped.json" --db "$fixtures/h200_tuning_v2.json" --format html \
  -o "$tmp/r.html" 2>"$tmp/err" || fail "--format html exited $?: $(cat "$tmp/err")"
page=$tmp/r.html
[ "$(grep -o '<script' "$page" | wc -l)" -eq 1 ] || fail "more than the page's own script: $(grep -o '<script[^>]*>.\{0,40\}' "$page")"
grep -qF '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;' "$page" || fail "the run name is not escaped"
grep -qF '<b>not bold</b>' "$page" && fail "a run name's markup reached the page"
grep -qF 'incomplete: the sweep was stopped after 12 runs' "$page" || fail "no incomplete note"
# Nothing from elsewhere: no src or href off the page, no url(), no @import (the SVG namespace
# is a name, not a load).
grep -qE '(src|href)="(https?:)?//|url\(|@import' "$page" && fail "the page loads something: $(grep -oE '(src|href)="[^"]*"|url\([^)]*\)' "$page" | head -3)"
for plot in "Time vs n" "Speedup over naive vs n" "Share of the measured ceiling vs n" \
  "Per-phase times (one solve)" "batched, n = 10000: median ms" "sm90 at n = 1000: the fastest configs"; do
  grep -qF "aria-label=\"$plot" "$page" || fail "no plot \"$plot\""
done
echo "ok: one self-contained page, names escaped, every plot"

# --out writes report.html beside report.md; -o without --format is refused.
"$report" "$fixtures/h200_bench.json" --out "$tmp/out" >/dev/null 2>&1
[ -s "$tmp/out/report.html" ] && [ -s "$tmp/out/report.md" ] || fail "--out: no report.html beside report.md: $(ls "$tmp/out")"
expect 2 "-o writes --format's output: give --format too" "$report" "$fixtures/h200_bench.json" -o "$tmp/x.html"
expect 2 "-o $fixtures/h200_bench.json and the results $fixtures/h200_bench.json are the same file" \
  "$report" "$fixtures/h200_bench.json" --format html -o "$fixtures/h200_bench.json"

# A refused file: one line naming the file, the run and the field, exit 2, and no page: a new -o
# is not made, an old one is left as it was.
json_changed "$fixtures/h200_bench.json" "$tmp/bad.json" 'd["runs"][3]["median_ms"] = -1'
expect 2 "bad.json: /runs/3/median_ms:" "$report" "$tmp/bad.json" --format html -o "$tmp/new.html"
[ -e "$tmp/new.html" ] && fail "a page was written from a refused file"
echo "old page" > "$tmp/old.html"
expect 2 "bad.json: /runs/3/median_ms:" "$report" "$tmp/bad.json" --format html -o "$tmp/old.html"
[ "$(cat "$tmp/old.html")" = "old page" ] || fail "a refused file changed the page already there"
expect 2 "pass it with --db" "$report" "$fixtures/h200_tuning_v2.json" --format html
echo "ok: refusals before any page"

# What the tables say: headings people read, no cell of "no baseline" in a file without naive
# runs (the times alone), in md, csv and html alike.
for format in md csv html; do
  "$report" "$fixtures/no_baseline.json" --format $format > "$tmp/nb.$format" 2>/dev/null || fail "no_baseline.json --format $format"
  grep -qE 'no baseline *[|,<]' "$tmp/nb.$format" && fail "--format $format fills cells with no baseline: $(grep -m1 'no baseline' "$tmp/nb.$format")"
  grep -qE 'speedup_table|speedup_matrix|ceiling_matrix|Speedup over naive' "$tmp/nb.$format" &&
    fail "--format $format: an internal heading or a speedup table: $(grep -m1 -E 'speedup_|ceiling_m|Speedup over' "$tmp/nb.$format")"
  grep -qF 'Median time (no baseline: no speedups)' "$tmp/nb.$format" || fail "--format $format: no heading for the times"
done
echo "ok: headings in prose, no cells of no baseline"

# compare: B with naive at n = 1000 spread +-10% around the same median, so that the interval of
# B/A holds 1 and reaches past 5%: ambiguous, in every format; it does not fail the command.
json_changed "$fixtures/h200_bench.json" "$tmp/spread.json" \
  's = d["runs"][0]["samples_ms"]; d["runs"][0]["samples_ms"] = [v * (0.9 if i % 2 else 1.1) for i, v in enumerate(s)]; import statistics; d["runs"][0]["median_ms"] = statistics.median(d["runs"][0]["samples_ms"]); d["runs"][0]["min_ms"] = min(d["runs"][0]["samples_ms"])'
for format in text md csv json html; do
  "$report" compare "$fixtures/h200_bench.json" "$tmp/spread.json" --format $format > "$tmp/c.$format" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 0 ] || fail "compare --format $format with an ambiguous run exited $rc: $(cat "$tmp/err")"
  grep -q ambiguous "$tmp/c.$format" || fail "compare --format $format does not say ambiguous: $(head -c 400 "$tmp/c.$format")"
done
grep -qE '^naive +1000 .* ambiguous$' "$tmp/c.text" || fail "naive at n = 1000 is not ambiguous: $(head -3 "$tmp/c.text")"
grep -qF '17 the same (interval within ±5%), 1 ambiguous' "$tmp/c.text" || fail "counts: $(tail -1 "$tmp/c.text")"
python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); assert c["counts"]["ambiguous"] == 1 and c["runs"][0]["verdict"] == "ambiguous", c["counts"]' \
  "$tmp/c.json" || fail "compare --format json: no ambiguous run"
grep -qF '<td class="ambiguous">ambiguous</td>' "$tmp/c.html" || fail "the HTML table has no ambiguous verdict"
grep -qF 'aria-label="B/A of the medians with 95% intervals' "$tmp/c.html" || fail "no plot of the ratios"
# A run slower beyond the threshold still exits 1, in every format, with the page written.
"$report" compare "$fixtures/h200_bench.json" "$fixtures/h200_bench_b.json" --format html -o "$tmp/ab.html"
rc=$?
[ $rc -eq 1 ] && [ -s "$tmp/ab.html" ] || fail "compare --format html with a run SLOWER: exit $rc"
grep -qF '<td class="SLOWER">SLOWER</td>' "$tmp/ab.html" || fail "no SLOWER verdict in the page"
echo "ok: ambiguous in every format (exit 0), SLOWER exits 1"
