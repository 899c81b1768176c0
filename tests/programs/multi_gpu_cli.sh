#!/usr/bin/env bash
# apsp_bench --gpus (docs/multi-gpu.md): the CPU side in CI, the one-GPU side on a GPU machine.
#   multi_gpu_cli.sh cpu BIN_DIR   the model in --dry-run (NVLink's, or an assumed link); bad
#                                  counts, transports and launcher variables refused (2) by
#                                  apsp_bench and apsp; no device (3), nothing written
#   multi_gpu_cli.sh gpu BIN_DIR   more GPUs than present refused (4) before any work; the bench
#                                  (--transport single-device) and apsp (--ranks-on-one-gpu, its
#                                  alias) over 3 ranks on one GPU: verified, the same distances as
#                                  one GPU, the results fields filled
# The gpu mode exits 77 (skipped) without a CUDA device.
set -u
mode=$1 bin=$2
. "$(dirname "$0")/../support/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nodev=(env CUDA_VISIBLE_DEVICES=)
# The cpu mode's dry runs see no device, so the model they print is the same on every machine (on
# an H100, one GPU does not hold n = 100000 beside its pristine copy, and the dry run says so).
dry=("${nodev[@]}" "$bin/apsp_bench" --dry-run)

case $mode in
cpu)
  out=$("${dry[@]}" --variant sm90 --n 100000 --gpus 8,1) || fail "dry run exited $?"
  grep -qF "n = 100000 on 8 GPUs: " <<<"$out" || fail "no 8-GPU prediction: $out"
  grep -qF "782 broadcasts of 51.2 MB" <<<"$out" || fail "no broadcast count: $out"
  grep -qE "hides behind its phase 3 while each GPU holds at least [0-9]+ rows" <<<"$out" || fail "no hiding rows: $out"
  echo "ok: --dry-run prints the model"
  out=$("${dry[@]}" --variant naive --n 100 --gpus 2) || fail "dry run exited $?"
  grep -q "model" <<<"$out" && fail "a variant with no multi-GPU engine got a prediction: $out"
  echo "ok: only multi-GPU variants are modelled"
  expect 2 "--gpus: a GPU count must be positive, got 0" "$bin/apsp_bench" --dry-run --gpus 0
  expect 2 "--gpus: 'two' is not an integer" "$bin/apsp_bench" --dry-run --gpus two
  expect 2 "--gpus: 1025 is out of range (at most 1024)" "$bin/apsp_bench" --dry-run --gpus 1025
  expect 3 "apsp_bench: no CUDA device found" "${nodev[@]}" "$bin/apsp_bench" --n 100 --gpus 2
  # A launcher's variables, malformed or without a meeting point: one line, exit 2, before work.
  g="$(dirname "$0")/../data/single.txt"
  expect 2 "RANK=x: an integer >= 0 was expected" env RANK=x WORLD_SIZE=2 "$bin/apsp" "$g"
  expect 2 "MASTER_ADDR and MASTER_PORT" env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 "$bin/apsp" "$g"
  # The model of another link, for hosts joined by NICs (docs/multi-gpu.md, "Past one host").
  out=$("${dry[@]}" --variant sm90 --n 100000 --gpus 16 --model-link-gbs 50 --model-latency-us 30) || fail "dry run exited $?"
  grep -qF "an assumed link of 50 GB/s, 30 us a broadcast" <<<"$out" || fail "no assumed link: $out"
  # The transports come from the registry: listed in --help, the alias the same as its name.
  for program in apsp_bench apsp; do
    help=$("$bin/$program" --help) || fail "$program --help exited $?"
    grep -qF "single-device: every rank as separate buffers on one GPU" <<<"$help" || fail "$program --help: $help"
    grep -qF -- "--ranks-on-one-gpu" <<<"$help" || fail "$program --help lost --ranks-on-one-gpu: $help"
  done
  for flag in "--transport single-device" --ranks-on-one-gpu; do
    out=$("${dry[@]}" --variant sm90 --n 1000 --gpus 1,2 $flag) || fail "dry run ($flag) exited $?"
    grep -qE "on 2 GPUs [0-9.]+ MB on the one GPU" <<<"$out" || fail "$flag: not every rank on one GPU: $out"
  done
  out=$("${dry[@]}" --variant sm90 --n 1000 --gpus 1,2 --transport nccl) || fail "dry run exited $?"
  grep -qE "on 2 GPUs [0-9.]+ MB per GPU" <<<"$out" || fail "--transport nccl: $out"
  echo "ok: --transport and --ranks-on-one-gpu"
  expect 2 "--transport: carrier-pigeon not in {nccl,single-device}" "$bin/apsp_bench" --dry-run --gpus 2 \
    --transport carrier-pigeon
  expect 2 "--transport excludes --ranks-on-one-gpu" "$bin/apsp_bench" --dry-run --gpus 2 --transport nccl \
    --ranks-on-one-gpu
  single=$(dirname "$0")/../data/single.txt
  expect 2 "apsp: --gpus: a GPU count must be positive, got 0" "$bin/apsp" "$single" --gpus 0
  expect 2 "apsp: --gpus 1,2: apsp solves on one GPU count" "$bin/apsp" "$single" --gpus 1,2
  expect 2 "apsp: --gpus: 'x' is not an integer" "$bin/apsp" "$single" --gpus x
  expect 2 "apsp: --gpus and --variant cpu disagree" "$bin/apsp" "$single" --gpus 2 --variant cpu
  expect 2 "--transport: carrier-pigeon not in {nccl,single-device}" "$bin/apsp" "$single" --gpus 2 \
    --transport carrier-pigeon
  expect 3 "apsp: no CUDA device for --gpus 2" "${nodev[@]}" "$bin/apsp" "$single" --gpus 2 -o "$tmp/never.txt"
  if [ -e "$tmp/never.txt" ]; then fail "a refused apsp wrote its output"; fi
  ;;
gpu)
  "$bin/apsp_bench" --list >/dev/null 2>&1
  if ! nvidia-smi -L >/dev/null 2>&1; then echo "no CUDA device: skipped"; exit 77; fi
  present=$(nvidia-smi -L | grep -c '^GPU ')
  more=$((present + 1))  # --gpus 2 on a one-GPU machine
  start=$(date +%s%N)
  expect 4 "apsp_bench: $more GPUs asked, $present present (--gpus)" "$bin/apsp_bench" --n 100 --variant sm90 \
    --gpus 1,$more --json "$tmp/r.json"
  [ -e "$tmp/r.json" ] && fail "a refused run wrote its results file"
  echo "ok: refused before any work ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
  expect 4 "apsp: $more GPUs asked, $present present (--gpus)" "$bin/apsp" "$(dirname "$0")/../data/single.txt" --gpus $more
  "$bin/apsp_bench" --variant sm90 --n 500,1337 --gpus 1,3 --transport single-device --reps 3 --ceiling-time 0.2 \
    --json "$tmp/r.json" >"$tmp/bench.txt" 2>&1 || { cat "$tmp/bench.txt"; fail "bench over 3 ranks exited $?"; }
  python3 - "$tmp/r.json" <<'PY' || fail "results of the 3-rank runs: $(cat "$tmp/bench.txt")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["context"]["transport"] == "single-device", r["context"]
assert [g["rank"] for g in r["context"]["gpus"]] == [0, 1, 2], r["context"]["gpus"]
three = [x for x in r["runs"] if x["variant"] == "sm90" and x["gpus"] == 3]
assert len(three) == 2, r["runs"]
for x in three:
    assert x["verified"] == "cpu-reference" and x["error"] is None, x
    assert "parallel_efficiency" not in x, x  # ranks sharing one GPU run in no parallel
    assert x["device_memory"]["solve_bytes"] > 0, x
print("ok: 3 ranks verified at n =", [x["n"] for x in three])
PY
  grep -q "over 3 ranks on one GPU: .* ms solved whole" "$tmp/bench.txt" || fail "no one-GPU comparison: $(cat "$tmp/bench.txt")"
  "$bin/gen_graph" --V 777 --density 0.01 --wmax 5 --seed 3 -o "$tmp/g.txt" || fail "gen_graph exited $?"
  "$bin/apsp" "$tmp/g.txt" -o "$tmp/one.txt" 2>/dev/null || fail "apsp on one GPU exited $?"
  "$bin/apsp" "$tmp/g.txt" --gpus 3 --ranks-on-one-gpu --verify -o "$tmp/three.txt" 2>"$tmp/err.txt" ||
    fail "apsp over 3 ranks exited $?: $(cat "$tmp/err.txt")"
  cmp -s "$tmp/one.txt" "$tmp/three.txt" || fail "apsp over 3 ranks differs from one GPU"
  grep -q "verified" "$tmp/err.txt" || fail "apsp --verify said nothing: $(cat "$tmp/err.txt")"
  echo "ok: apsp over 3 ranks writes what one GPU writes, verified"
  ;;
*) fail "unknown mode $mode" ;;
esac
