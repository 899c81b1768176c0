#!/usr/bin/env bash
# On a machine of several GPUs: the engine's tests and its scaling as docs/multi-gpu.md reports
# them, in parts each meant for one command of ten minutes on four H200s (estimated from one
# GPU's figures), so that parts can go to separate commands (several in one command run in order):
#   basics   build; the GPU tests (P processes under a launcher among them); link_probe,
#            whose model flags the later parts pass to the bench; apsp --gpus P against one GPU
#            at V = 20000, E = 2e6, twice each in turn (wall, peak RSS, the bytes compared); the
#            V = 300000 graph for `largest`
#   table    apsp_bench --variant sm90 --gpus 1,2,P --verify certificate at n = 10000, 30000 and
#            50000, the model's prediction beside each run; round_timeline at n = 10000 on P
#   n100000  the same bench at n = 100000 on 1 and P GPUs
#   largest  the model's prediction, then apsp --gpus P --verify --no-output at V = 300000
# P is every GPU here (APSP_GPUS=P to change it). Logs go to $OUT (or ./multi-gpu-check-logs);
# the flags and graphs that pass between parts stay in build/release/multi-gpu-check, which the
# machine keeps between commands. NCCL_NVLS_ENABLE=0 throughout. A summary is printed last.
#   source .deps/env.sh && scripts/multi-gpu-check.sh basics [table] [n100000] [largest]
# Exit: 0 every step passed, 1 a step failed (the summary names it), 2 an unknown part, no part or
# an APSP_GPUS that is no count, 4 fewer than two GPUs (all three before anything is written).
set -uo pipefail
cd "$(dirname "$0")/.."
parts=("$@")
[ ${#parts[@]} -eq 0 ] && { echo "multi-gpu-check.sh: name a part (basics, table, n100000, largest)" >&2; exit 2; }
for p in "${parts[@]}"; do
  case $p in basics | table | n100000 | largest) ;;
  *) echo "multi-gpu-check.sh: unknown part '$p' (basics, table, n100000, largest)" >&2; exit 2 ;;
  esac
done
P=${APSP_GPUS:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')}
[[ $P =~ ^[0-9]+$ ]] || { echo "multi-gpu-check.sh: APSP_GPUS=$P is no GPU count" >&2; exit 2; }
[ "$P" -ge 2 ] || { echo "multi-gpu-check.sh: needs two GPUs or more, $P here" >&2; exit 4; }
export NCCL_NVLS_ENABLE=0
logs=${OUT:-multi-gpu-check-logs}
mkdir -p "$logs"
source scripts/steps.sh
bin=build/release
keep=$bin/multi-gpu-check
highlights=()  # lines of the logs repeated under the summary: LOG|grep pattern

# timed NAME COMMAND...: runs it; its wall time and peak RSS go to $logs/times.txt.
timed() {
  local name=$1; shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -a -f "$name: %e s wall, %M KB peak RSS" -o "$logs/times.txt" "$@"
  else
    local t0=$EPOCHREALTIME rc
    "$@"; rc=$?
    awk -v n="$name" -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%s: %.2f s wall\n", n, b - a }' \
      >>"$logs/times.txt"
    return $rc
  fi
}
# The model's flags link_probe printed in `basics`, or none (the model's NVLink defaults).
model_flags() {
  grep -o -- '--model-link-gbs [0-9.]* --model-latency-us [0-9.]*' "$keep/link_probe.txt" 2>/dev/null
}
noted_flags=""
note_model_flags() {  # once
  [ -n "$(model_flags)" ] || [ -n "$noted_flags" ] && return
  noted_flags=1
  summary+=("NOTE  no link_probe flags (run basics first): the model takes its NVLink defaults")
}

probe_link() { $bin/link_probe "$P" >"$keep/link_probe.txt" && cat "$keep/link_probe.txt"; }
largest_graph() {
  [ -s "$keep/g300000.txt" ] || $bin/gen_graph --V 300000 --E 3000000 --seed 3 -o "$keep/g300000.txt"
}

basics() {
  step build configure cmake --preset release -DAPSP_WERROR=OFF -DAPSP_PYTHON=OFF
  step build build cmake --build --preset release
  mkdir -p "$keep"
  step tests "GPU tests" ctest --test-dir $bin --output-on-failure -L gpu
  step link "link_probe $P" probe_link
  step graphs "graph V = 20000" $bin/gen_graph --V 20000 --E 2000000 --seed 3 -o "$keep/g20000.txt"
  step graphs "graph V = 300000" largest_graph
  cat "$keep/g20000.txt" >/dev/null  # both runs read it from the page cache
  local i
  for i in 1 2; do
    step apsp "apsp, one GPU ($i)" timed "apsp-1gpu-$i" $bin/apsp "$keep/g20000.txt" --verify \
      --timing --format bin -o "$keep/one.bin"
    step apsp "apsp --gpus $P ($i)" timed "apsp-${P}gpus-$i" $bin/apsp "$keep/g20000.txt" \
      --gpus "$P" --verify --timing --format bin -o "$keep/many.bin"
  done
  step apsp "apsp --gpus $P writes one GPU's bytes" cmp "$keep/one.bin" "$keep/many.bin"
  rm -f "$keep/one.bin" "$keep/many.bin"
  highlights+=("tests|tests passed" "link|." "apsp|^  \|^===")
}

bench() {  # bench LOG ARGS...: apsp_bench sm90 verified by the certificate, the model beside it
  step "$1" "apsp_bench ${*:2}" $bin/apsp_bench --variant sm90 --verify certificate \
    $(model_flags) --json "$logs/$1.json" "${@:2}"
}

table() {
  note_model_flags
  bench bench-10000 --n 10000 --gpus "1,2,$P" --min-reps 10
  bench bench-30000-50000 --n 30000,50000 --gpus "1,2,$P" --min-reps 1 --reps 1
  step timeline "round_timeline n = 10000 on $P" $bin/round_timeline --n 10000 --gpus "$P" \
    --reps 3 --csv "$logs/timeline-10000.csv"
  highlights+=("bench-10000|." "bench-30000-50000|." "timeline|.")
}

n100000() {
  note_model_flags
  bench bench-100000 --n 100000 --gpus "1,$P" --min-reps 1 --reps 1
  highlights+=("bench-100000|.")
}

largest() {
  if [ "$P" -lt 4 ]; then  # 90 GB a GPU on four H200s
    summary+=("NOTE  largest skipped: V = 300000 needs four H200s or more, $P GPUs here")
    return
  fi
  note_model_flags
  mkdir -p "$keep"
  step largest "graph V = 300000" largest_graph
  step largest "the model at n = 300000" $bin/apsp_bench --dry-run --variant sm90 --n 300000 \
    --gpus "$P" $(model_flags)
  step largest "apsp --gpus $P, V = 300000" timed "apsp-300000" $bin/apsp "$keep/g300000.txt" \
    --gpus "$P" --verify --no-output --timing
  highlights+=("largest|.")
}

nvidia-smi --query-gpu=name,compute_cap,clocks.sm,driver_version --format=csv 2>&1 | tee "$logs/gpu.txt"
nvidia-smi topo -m >"$logs/topology.txt" 2>&1
for p in "${parts[@]}"; do "$p"; done
for h in "${highlights[@]}"; do
  echo "--- ${h%%|*}"
  grep -h -- "${h#*|}" "$logs/${h%%|*}.log" | tail -n 40
done
cat "$logs/times.txt" 2>/dev/null
summary_passed || exit 1
exit 0
