#!/usr/bin/env bash
# Output lost is never a success: every program whose standard output is a full device exits 1
# with one line on stderr, --help, --list, the dry runs, the report's tables, compare, gen_graph
# and apsp included. The full device is made here (mknod, as /dev/full is: character device 1,7)
# in a folder of its own; where mknod is not permitted the test is skipped (77). /dev is never
# touched.
#   full_stdout.sh BIN_DIR FIXTURES_DIR
set -u
bin=$1 fixtures=$2
. "$(dirname "$0")/../support/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! mknod "$tmp/full" c 1 7 2>/dev/null; then
  echo "mknod is not permitted here: skipped"
  exit 77
fi
printf 'x' > "$tmp/full" 2>/dev/null && { echo "$tmp/full takes writes: not a full device; skipped"; exit 77; }
printf '3 2\n0 1 5\n1 2 7\n' > "$tmp/g.txt"

# full PROGRAM ARGS...: exit 1, and one line on stderr that says standard output could not be
# written (besides what the program logs as it works: apsp's "solving on the CPU", its proof).
full() {
  "$@" > "$tmp/full" 2> "$tmp/err"
  local rc=$?
  [ $rc -eq 1 ] || fail "$* > full device: exit $rc, expected 1: $(cat "$tmp/err")"
  local faults
  faults=$(grep -v ": solving on the CPU" "$tmp/err" | grep -v ": exact (")
  [ "$(grep -c . <<<"$faults")" -eq 1 ] || fail "$* > full device: not one line: $(cat "$tmp/err")"
  grep -q "standard output" <<<"$faults" || fail "$* > full device: the line does not say standard output: $faults"
  echo "ok (1): $* -> $faults"
}

for program in apsp gen_graph apsp_bench tuner apsp_report; do
  full "$bin/$program" --help
done
full "$bin/apsp_bench" --list
full "$bin/apsp_bench" --dry-run --n 1000
full "$bin/tuner" --dry-run --n 1000 --db "$tmp/db.json"
full "$bin/apsp_report" "$fixtures/h200_bench.json" --format md
full "$bin/apsp_report" "$fixtures/h200_bench.json" --format json
full "$bin/apsp_report" compare "$fixtures/h200_bench.json" "$fixtures/h200_bench.json"
full "$bin/gen_graph" --V 100
full "$bin/apsp" "$tmp/g.txt" --variant cpu
full "$bin/apsp" "$tmp/g.txt" --variant cpu -o "$tmp/d.txt" --path 0 2
echo "every program exits 1 with one line when its standard output is full"
