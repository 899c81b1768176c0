#!/usr/bin/env bash
# --baseline: naive timed once, then reused by a later run on the same device model; refused
# for results from another device model. Exit 77 (skipped) without a GPU.
#   bench_baseline.sh APSP_BENCH RESULTS_CHECK OTHER_DEVICE.json
set -u
bench=$1 check=$2 other=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bench" --n 100,300 --variant naive --min-time 0.05 --ceiling-time 0 --json "$dir/naive.json" >/dev/null
rc=$?
[ $rc -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
[ $rc -eq 0 ] || { echo "naive run exited $rc"; exit 1; }
"$bench" --n 100,300 --variant sm90,regtile64 --baseline "$dir/naive.json" --min-time 0.05 \
  --ceiling-time 0 --json "$dir/b.json" || { echo "baseline run failed"; exit 1; }
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs']; assert all(x['variant']!='naive' for x in r), 'naive was timed again'" "$dir/b.json" || exit 1
"$check" "$dir/b.json" || exit 1
"$bench" --n 100 --variant sm90 --baseline "$other" 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] && grep -q "refusing to mix devices" "$dir/err" || { echo "other device: rc $rc $(cat "$dir/err")"; exit 1; }
echo "baseline reused; another device refused"
