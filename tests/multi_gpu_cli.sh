#!/usr/bin/env bash
# apsp_bench --gpus (docs/multi-gpu.md): the CPU side in CI, the one-GPU side on a GPU machine.
#   multi_gpu_cli.sh cpu BIN_DIR   the model in --dry-run; bad counts refused (2); no device (3)
#   multi_gpu_cli.sh gpu BIN_DIR   more GPUs than present refused (4) before any work
# The gpu mode exits 77 (skipped) without a CUDA device.
set -u
mode=$1 bin=$2
. "$(dirname "$0")/cli_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nodev=(env CUDA_VISIBLE_DEVICES=)

case $mode in
cpu)
  out=$("$bin/apsp_bench" --dry-run --variant sm90 --n 100000 --gpus 8,1) || fail "dry run exited $?"
  grep -qF "n = 100000 on 8 GPUs: " <<<"$out" || fail "no 8-GPU prediction: $out"
  grep -qF "782 broadcasts of 51.2 MB" <<<"$out" || fail "no broadcast count: $out"
  grep -qE "hides behind its phase 3 while each GPU holds at least [0-9]+ rows" <<<"$out" || fail "no hiding rows: $out"
  echo "ok: --dry-run prints the model"
  out=$("$bin/apsp_bench" --dry-run --variant naive --n 100 --gpus 2) || fail "dry run exited $?"
  grep -q "model" <<<"$out" && fail "a variant with no multi-GPU engine got a prediction: $out"
  echo "ok: only multi-GPU variants are modelled"
  expect 2 "--gpus: a GPU count must be positive, got 0" "$bin/apsp_bench" --dry-run --gpus 0
  expect 2 "--gpus: 'two' is not an integer" "$bin/apsp_bench" --dry-run --gpus two
  expect 2 "--gpus: 65 is out of range (at most 64)" "$bin/apsp_bench" --dry-run --gpus 65
  expect 3 "apsp_bench: no CUDA device found" "${nodev[@]}" "$bin/apsp_bench" --n 100 --gpus 2
  ;;
gpu)
  "$bin/apsp_bench" --list >/dev/null 2>&1
  if ! nvidia-smi -L >/dev/null 2>&1; then echo "no CUDA device: skipped"; exit 77; fi
  start=$(date +%s%N)
  expect 4 "apsp_bench: 64 GPUs asked, " "$bin/apsp_bench" --n 100 --variant sm90 --gpus 1,64 --json "$tmp/r.json"
  [ -e "$tmp/r.json" ] && fail "a refused run wrote its results file"
  echo "ok: refused before any work ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
  ;;
*) fail "unknown mode $mode" ;;
esac
