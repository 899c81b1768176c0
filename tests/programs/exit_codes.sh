#!/usr/bin/env bash
# The exit codes mean the same in every program (README, "Exit codes"; core/console.hpp):
#   0 done; 1 the work ran and failed; 2 refused before any work (a bad command line, an input
#   file that cannot be read or is malformed, a graph too large for this machine), nothing
#   written; 3 no CUDA device.
# Each program is tried in each class that applies to it, with no GPU needed (CUDA_VISIBLE_DEVICES
# is emptied where a device would change the answer), and every --help carries the same words.
#   exit_codes.sh BIN_DIR SOURCE_DIR
set -u
bin=$1 src=$2
. "$(dirname "$0")/../support/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$src/tests/data fixtures=$src/tests/fixtures
nodev=(env CUDA_VISIBLE_DEVICES=)
echo "2000000000 0" > "$tmp/huge.txt"  # a 2e9 x 2e9 matrix: larger than any machine's memory
# to_full PROGRAM ARGS...: the program with its standard output on a full device (every write
# fails), made here as /dev/full is (character device 1,7), never /dev's own; where mknod is not
# permitted, those cases are left to full_stdout.sh's skip.
full_device=
mknod "$tmp/full" c 1 7 2>/dev/null && full_device=$tmp/full
to_full() { "$@" >"$full_device"; }

# --help: the same paragraph in every program, only the examples of 1 differ.
shared_2="2 refused before any work, nothing written: a bad command line, an input file that cannot be read or is malformed, or a graph too large for this machine (one line on stderr); 3 no CUDA device"
for prog in apsp gen_graph apsp_bench tuner apsp_report closure_probe; do
  help=$("$bin/$prog" --help) || fail "$prog --help exited $?"
  grep -qF "Exit codes (the same in every program): 0 done; 1 the work failed (" <<<"$help" &&
    grep -qF "$shared_2" <<<"$help" || fail "$prog --help lacks the shared exit codes: $help"
done
echo "ok: every --help lists the same exit codes"

# apsp
expect 2 "apsp: --threads: '+1' is not an integer" "$bin/apsp" "$data/single.txt" --threads +1
expect 2 "the folder /nonexistent-folder does not exist" "$bin/apsp" "$data/single.txt" -o /nonexistent-folder/x.txt
expect 2 "vertex.txt:2:3: vertex 3 out of range [0, 3)" "$bin/apsp" "$data/bad/vertex.txt" --variant cpu
expect 2 "/nonexistent.txt: cannot open" "$bin/apsp" /nonexistent.txt --variant cpu
expect 2 "is a folder, not an edge-list file" "$bin/apsp" "$tmp"
expect 2 "huge.txt:1:1: V = 2000000000 needs" "$bin/apsp" "$tmp/huge.txt"
[ -n "$full_device" ] && expect 1 "apsp: standard output: " to_full "$bin/apsp" "$data/single.txt" --variant cpu
expect 3 "apsp: no CUDA device for variant naive" "${nodev[@]}" "$bin/apsp" "$data/single.txt" --variant naive
# gen_graph (needs no device: never 3)
expect 2 "--V: 0 is out of range" "$bin/gen_graph" --V 0
expect 2 "give --E or --density, not both" "$bin/gen_graph" --V 5 --E 3 --density 0.5
expect 2 "needs about 23.1 TB for its 1099511627776 edges" "$bin/gen_graph" --V 5 --E 1099511627776
[ -n "$full_device" ] && expect 1 "gen_graph: standard output: write failed" to_full "$bin/gen_graph" --V 5
# apsp_bench: input files are refused before the device is looked for
expect 2 "--n: an empty size in '1000,'" "$bin/apsp_bench" --dry-run --n 1000,
expect 2 "--benchmark_bogus" "$bin/apsp_bench" --dry-run --benchmark_bogus=1
expect 2 "--min-reps 5 is more than --reps 3" "$bin/apsp_bench" --dry-run --min-reps 5 --reps 3
expect 2 "batch2 must be an integer, found '+6'" "$bin/apsp_bench" --dry-run --config 'batched[batch2=+6]'
expect 2 "batch2 is given twice" "$bin/apsp" "$data/single.txt" --config 'batched[batch2=6,batch2=5]'
expect 2 "--n: 99999999999 is out of range (at most 1048576)" "$bin/apsp_bench" --dry-run --n 99999999999
expect 2 "vertex.txt:2:3: vertex 3 out of range [0, 3)" "${nodev[@]}" "$bin/apsp_bench" --graph "$data/bad/vertex.txt"
expect 2 "huge.txt:1:1: V = 2000000000 needs" "${nodev[@]}" "$bin/apsp_bench" --graph "$tmp/huge.txt"
expect 2 "README.md: not JSON" "${nodev[@]}" "$bin/apsp_bench" --n 100 --tuned "$src/README.md"
expect 3 "apsp_bench: no CUDA device found" "${nodev[@]}" "$bin/apsp_bench" --n 100
# tuner
expect 2 "--search: bogus not in" "$bin/tuner" --dry-run --search bogus
expect 2 "README.md: not JSON" "${nodev[@]}" "$bin/tuner" --search batch --n 100 --db "$src/README.md"
expect 1 "no policy written" "$bin/tuner" --emit-policy "$tmp/policy.json" --db "$fixtures/h200_tuning_v2.json"
expect 3 "tuner: no CUDA device found" "${nodev[@]}" "$bin/tuner" --search batch --n 100 --db "$tmp/db.json"
# apsp_report (needs no device: never 3)
expect 2 "--format: xml not in {md,csv,json,html}" "$bin/apsp_report" "$fixtures/h200_bench.json" --format xml
expect 2 "README.md: not a results file (not JSON)" "$bin/apsp_report" "$src/README.md" --format md
expect 2 "README.md: not a results file (not JSON)" "$bin/apsp_report" compare "$fixtures/h200_bench.json" "$src/README.md"
expect 2 "/runs/0/n: 1e+20 is not an integer" "$bin/apsp_report" "$fixtures/corrupt_n.json" --out "$tmp/r"
[ -e "$tmp/r" ] && fail "apsp_report wrote $tmp/r for a refused input"
expect 1 "" "$bin/apsp_report" compare "$fixtures/h200_bench.json" "$fixtures/h200_bench_b.json"
printf 'raise ValueError("planted failure")\n' > "$tmp/bad_plot.py"
expect 1 "Plots failed" env APSP_PLOT_SCRIPT="$tmp/bad_plot.py" "$bin/apsp_report" "$fixtures/h200_bench.json" --out "$tmp/p"
# closure_probe and apsp_worker (internal: 0, 1 a command failed, 2 usage)
expect 2 "closure_probe: takes no arguments" "$bin/closure_probe" --n 1000
expect 3 "closure_probe: no CUDA device" "${nodev[@]}" "$bin/closure_probe"
expect 2 "they start it, with --serve" "$bin/apsp_worker"
echo "every program: the same exit code for the same kind of fault"
