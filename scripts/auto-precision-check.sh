#!/usr/bin/env bash
# On the GPU machine, after the release build: whether apsp --variant auto solves a graph once.
# On gen_graph's road grids (distances far past 16 bits) auto must not try 16 bits, and on short
# and unweighted graphs whose (V - 1) * max w does not prove 16 bits beforehand it must still take
# them; each graph is also solved as auto did before its distance sweep (--variant sm90_u16: 16
# bits first, then int32 when the proof fails) and in int32 alone (--variant sm90), every result
# proven, and auto's bytes must be sm90's. Prints a line per graph and solve (wall time, the
# solve steps of --timing, the sweep's time) and writes the logs under $OUT (or
# ./auto-precision-logs).
#   scripts/auto-precision-check.sh [BUILD_DIR]     (default build/release)
# Exit: 0 every check held, 1 one did not (said), 2 no apsp in BUILD_DIR, 3 no GPU.
set -uo pipefail
build=${1:-build/release}
logs=${OUT:-auto-precision-logs}/auto-precision
[ -x "$build/apsp" ] || { echo "auto-precision-check: no $build/apsp (build first)" >&2; exit 2; }
mkdir -p "$logs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '1 0\n' > "$work/one.txt"
"$build/apsp" "$work/one.txt" --variant sm90 --no-output 2>/dev/null
[ $? -eq 3 ] && { echo "auto-precision-check: no CUDA device" >&2; exit 3; }
g=$build/gen_graph
$g --kind road --V 10000 --wmax 1000 --seed 1 -o "$work/road10k.txt" 2>/dev/null
$g --kind road --V 30000 --wmax 1000 --seed 1 -o "$work/road30k.txt" 2>/dev/null
$g --kind random --V 20000 --E 200000 --wmin 1 --wmax 3 --seed 1 -o "$work/short20k.txt" 2>/dev/null
$g --kind random --V 40000 --E 400000 --wmin 1 --wmax 1 --seed 2 -o "$work/unw40k.txt" 2>/dev/null
failed=0
check() { echo "FAIL: $*"; failed=1; }
for graph in road10k road30k short20k unw40k; do
  for v in auto sm90_u16 sm90; do
    log=$logs/$graph.$v.log
    t0=$(date +%s.%N)
    "$build/apsp" "$work/$graph.txt" --variant $v --no-output --timing >/dev/null 2>"$log" \
      || check "$graph, --variant $v: exit $?"
    t1=$(date +%s.%N)
    printf '%-9s %-9s wall %6.2f s  %s\n' "$graph" "$v" "$(awk "BEGIN { print $t1 - $t0 }")" \
      "$(grep -E '^  (distance floor|solve)' "$log" | tr -s ' ' | paste -sd ';')"
  done
  auto=$logs/$graph.auto.log
  grep -q "exact (" "$auto" || check "$graph: auto's result was not proven"
  case $graph in
    road*) ! grep -q "solving with sm90_u16" "$auto" || check "$graph: auto tried 16 bits" ;;
    *) grep -q "solving with sm90_u16" "$auto" || check "$graph: auto did not take 16 bits" ;;
  esac
done
"$build/apsp" "$work/road10k.txt" -o "$work/auto.bin" --format bin 2>/dev/null
"$build/apsp" "$work/road10k.txt" --variant sm90 -o "$work/sm90.bin" --format bin 2>/dev/null
cmp -s "$work/auto.bin" "$work/sm90.bin" || check "road10k: auto's bytes are not sm90's"
[ $failed -eq 0 ] && echo "auto solved every graph once, 16 bits where they can be proven"
exit $failed
