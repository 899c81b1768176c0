#!/usr/bin/env bash
# The HTML report and comparison as a reader sees them: opened in headless Chromium with the
# network off (browser_check.py), with no console error, no request, the key numbers of the
# results in the rendered text, with and without the page's script; screenshots kept in
# ARTIFACTS. A page with a planted script error and a request off the machine must fail, so that
# the check is known to look. No Chromium: exit 77 (skipped), except under CI=true: 1.
#   report_browser.sh APSP_REPORT FIXTURES_DIR ARTIFACTS_DIR
set -u
report=$1 fixtures=$2 artifacts=$3
here=$(dirname "$0")
. "$here/../support/cli_lib.sh"
check() { python3 "$here/browser_check.py" "$@"; }
mkdir -p "$artifacts" || fail "cannot make $artifacts"
rm -f "$artifacts"/*.png "$artifacts"/*.html
check --help >/dev/null || fail "browser_check.py --help"
# Chromium present or not decides first: the check itself says skip (77) or, in CI, fail.
printf '<!DOCTYPE html><title>t</title><p>probe</p>' > "$artifacts/probe.html"
check "$artifacts/probe.html" --expect probe
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "Chromium could not show a plain page (above)"

# The report of a stopped sweep with hostile run names and per-phase times, with the tuner's
# database: names shown as text, the figures of the JSON in the text.
page=$artifacts/report.html
"$report" "$fixtures/hostile_stopped.json" "$fixtures/h200_bench.json" --db "$fixtures/h200_tuning_v2.json" \
  --format html -o "$page" 2>/dev/null || fail "apsp_report --format html exited $?"
expects=(--expect '<script>alert("x")</script> & "quotes"' --expect "a|b <b>not bold</b>"
  --expect "incomplete: the sweep was stopped after 12 runs" --expect "NVIDIA H200 (cc 9.0, 132 SMs)"
  --expect "SM 1980 MHz, memory 3201 MHz" --expect "nvcc 13.0.88"
  --expect "2807.41" --expect "36.7x [36.7, 36.7]" --expect "79.0%" --expect "2.159"
  --expect "batched[batch2=2,batch3=5]" --expect "3.456" --expect "75245ad4b3ec4c7c")
check "$page" "${expects[@]}" --sort-check --screenshot "$artifacts/report.png" --full-page ||
  fail "the report, in Chromium (above)"
check "$page" "${expects[@]}" --no-script || fail "the report without its script (above)"

# The comparison: each verdict, the counts, the plot of the ratios.
"$report" compare "$fixtures/h200_bench.json" "$fixtures/h200_bench_b.json" --format html \
  -o "$artifacts/compare.html" >/dev/null 2>&1
[ $? -eq 1 ] || fail "compare with a run SLOWER did not exit 1"
check "$artifacts/compare.html" --expect SLOWER --expect faster --expect "1 slower (1 beyond 5%)" \
  --expect "16 the same" --expect "0 ambiguous" --expect "278.84" --expect "348.56" --expect "[1.250, 1.250]" \
  --sort-check --screenshot "$artifacts/compare.png" --full-page || fail "the comparison, in Chromium (above)"

# The check fails where it should: an error thrown by a script, a console error, a request off
# the machine (refused with the network off, reported all the same), a number not shown.
cat > "$artifacts/planted.html" <<'HTML'
<!DOCTYPE html><html><head><title>planted</title></head><body><p>1.23</p>
<img src="http://example.invalid/x.png" alt="">
<script>console.error("planted console error"); undefined_function();</script></body></html>
HTML
check "$artifacts/planted.html" --expect "9.87" > "$artifacts/planted.out"
rc=$?
[ $rc -eq 1 ] || fail "the planted page passed (exit $rc): $(cat "$artifacts/planted.out")"
for fault in "console.error: planted console error" "uncaught exception: ReferenceError: undefined_function" \
  "a request off the page: http://example.invalid/x.png" "not in the rendered text: '9.87'"; do
  grep -qF "$fault" "$artifacts/planted.out" || fail "the planted '$fault' was not reported: $(cat "$artifacts/planted.out")"
done
echo "ok: the planted faults are reported; screenshots in $artifacts"
