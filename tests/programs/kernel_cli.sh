#!/usr/bin/env bash
# User kernels through the command lines, with no GPU needed (NVRTC compiles without one):
# compile errors and contract violations exit 2 before any GPU work, naming the file and line
# or the fault; --dry-run lists a kernel's plan; a rerun compiles nothing (the cache).
#   kernel_cli.sh BIN_DIR SOURCE_DIR PLANTED_DIR WORK_DIR
set -u
bin=$1 src=$2 planted=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
export APSP_KERNEL_CACHE=$work/cache
. "$(dirname "$0")/../support/cli_lib.sh"
ex=$src/examples/kernels

# A syntax error: NVRTC's log with file and line, then one line, exit 2, in every program.
for prog in "$bin/apsp_bench --dry-run" "$bin/tuner --dry-run --param TILE=32" "$bin/apsp x.txt"; do
  expect 2 "syntax_error_kernel.cu(26): error: expected a \";\"" $prog --kernel "$planted/syntax_error_kernel.cu"
done
expect 2 "apsp_bench: $planted/syntax_error_kernel.cu: does not compile" \
  "$bin/apsp_bench" --dry-run --kernel "$planted/syntax_error_kernel.cu"
# Contract violations, each named.
expect 2 "wrong_signature_kernel.cu(36): fw_phase2 has the wrong signature; the contract's is extern \"C\" __global__ void fw_phase2(int* d, int n, int k)" \
  "$bin/apsp_bench" --dry-run --kernel "$planted/wrong_signature_kernel.cu"
expect 2 "no phase kernel fw_phase3" "$bin/apsp_bench" --dry-run --kernel "$planted/missing_phase3_kernel.cu"
expect 2 "the file does not #define TILE" "$bin/apsp_bench" --dry-run --kernel "$planted/no_tile_kernel.cu"
expect 2 "--param UNROLL: the file has no macro UNROLL" "$bin/tuner" --dry-run --kernel "$ex/fw32.cu" --param UNROLL=1:4
out=$("$bin/apsp_bench" --dry-run --variant naive --kernel "$planted/fixed_tile_kernel.cu" --config "fixed_tile_kernel[TILE=16]")
grep -qF "cannot run: $planted/fixed_tile_kernel.cu: TILE=16 was asked, but the file sets TILE to 32" <<<"$out" ||
  fail "a macro that cannot be set: $out"
expect 2 "--param sets the macros of a --kernel file" "$bin/tuner" --dry-run --param BATCH2=1:4
expect 2 "a variant named 'naive' exists already" "$bin/apsp_bench" --dry-run --kernel "$(
  mkdir -p "$work/clash" && cp "$ex/fw32.cu" "$work/clash/naive.cu" && echo "$work/clash/naive.cu")"
out=$("$bin/apsp_bench" --dry-run --n 1000 --variant naive --kernel "$planted/too_much_smem_kernel.cu") || fail "dry run: $out"
grep -q "cannot run: fw_phase3 needs 316416 bytes of shared memory per block" <<<"$out" || fail "no shared-memory reason: $out"

# --dry-run lists the kernels' plan; the first run compiles, the second reads the cache.
first=$("$bin/apsp_bench" --dry-run --n 1000,3000 --kernel "$ex/fw32.cu" --kernel "$ex/fw_batched.cu") || fail "$first"
echo "$first"
grep -q 'fw_batched\[BATCH2=4,BATCH3=4,TILE=32\] compiled by NVRTC' <<<"$first" || fail "the first run did not compile"
grep -q 'n = 3000: fw_batched\[BATCH2=4,BATCH3=4,TILE=32\] (declared default)' <<<"$first" || fail "no plan for fw_batched"
second=$("$bin/apsp_bench" --dry-run --n 1000,3000 --kernel "$ex/fw32.cu" --kernel "$ex/fw_batched.cu") || fail "$second"
[ "$(grep -c 'from the compile cache' <<<"$second")" -eq 2 ] || fail "the rerun compiled again: $second"
grep 'from the compile cache' <<<"$second"
# The tuner's dry run over BATCH2 x BATCH3: every point compiled and checked.
tune=$("$bin/tuner" --dry-run --n 1000 --kernel "$ex/fw_batched.cu" --param BATCH2=1:4 --param BATCH3=1,2) || fail "$tune"
grep -q 'fw_batched: 8 point(s) over BATCH2={1,2,3,4} BATCH3={1,2}' <<<"$tune" || fail "tuner dry run: $tune"
grep -q 'n = 1000: 8 to measure, 0 rejected' <<<"$tune" || fail "tuner dry run: $tune"
echo "all user-kernel command-line checks passed"
