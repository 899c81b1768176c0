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
out=$("$bin/apsp_bench" --dry-run --variant naive --kernel "$planted/fixed_tile_kernel.cu" --config "fixed_tile_kernel[TILE=16]" 2>/dev/null)
[ $? -eq 1 ] || fail "a config the file cannot take: the dry run did not exit 1"
grep -qF "cannot run: $planted/fixed_tile_kernel.cu: TILE=16 was asked, but the file sets TILE to 32" <<<"$out" ||
  fail "a macro that cannot be set: $out"
expect 2 "--param sets the macros of a --kernel file" "$bin/tuner" --dry-run --param BATCH2=1:4
expect 2 "a variant named 'naive' exists already" "$bin/apsp_bench" --dry-run --kernel "$(
  mkdir -p "$work/clash" && cp "$ex/fw32.cu" "$work/clash/naive.cu" && echo "$work/clash/naive.cu")"
# A kernel that cannot run at any n of the plan: the dry run shows the plan, then exits 1 with
# one line saying why (shared memory over the device's limit, more threads than a block holds).
out=$("$bin/apsp_bench" --dry-run --n 1000 --variant naive --kernel "$planted/too_much_smem_kernel.cu" 2>"$work/smem.err")
rc=$?
[ $rc -eq 1 ] || fail "a kernel that cannot run: dry run exited $rc: $(cat "$work/smem.err")"
grep -q "cannot run: fw_phase3 needs 316416 bytes of shared memory per block" <<<"$out" || fail "no shared-memory reason: $out"
[ "$(wc -l <"$work/smem.err")" -eq 1 ] || fail "not one line: $(cat "$work/smem.err")"
grep -q "^apsp_bench: --kernel .*too_much_smem_kernel.cu: cannot run at any n of the plan on .*: too_much_smem_kernel\[TILE=32\] at n = 1000: fw_phase3 needs 316416 bytes" "$work/smem.err" ||
  fail "the dry run's reason: $(cat "$work/smem.err")"
expect 1 "THREADS_X x THREADS_Y = 2048 threads per block" \
  "$bin/apsp_bench" --dry-run --n 1000,3000 --kernel "$planted/too_many_threads_kernel.cu"
expect 1 "tuner: --kernel $planted/too_many_threads_kernel.cu: cannot run at any n of the plan" \
  "$bin/tuner" --dry-run --n 1000 --kernel "$planted/too_many_threads_kernel.cu" --param TILE=32,64
# One point of the search that fits is enough (TILE=8: 128 threads).
"$bin/tuner" --dry-run --n 1000 --kernel "$planted/too_many_threads_kernel.cu" --param TILE=8,32 >/dev/null ||
  fail "a search with a runnable point was refused"

# A macro the file guards with #ifndef (UNROLL) is a parameter everywhere: apsp_bench --config
# sets it, and the bench names a compiled kernel as the tuner does (all its macros, sorted).
out=$("$bin/apsp_bench" --dry-run --n 1000 --kernel "$planted/unrolled_kernel.cu" --config 'unrolled_kernel[UNROLL=8,TILE=32]') ||
  fail "--config with a tunable macro: $out"
grep -qF 'n = 1000: unrolled_kernel[TILE=32,UNROLL=8] (asked)' <<<"$out" || fail "--config UNROLL=8: $out"
grep -q 'n = 1000: unrolled_kernel\[TILE=32,UNROLL=4\] (declared default)' <<<"$out" && fail "the file's values ran beside --config: $out"
bench=$("$bin/apsp_bench" --dry-run --n 1000 --kernel "$planted/unrolled_kernel.cu") || fail "$bench"
grep -qF 'n = 1000: unrolled_kernel[TILE=32,UNROLL=4] (declared default)' <<<"$bench" || fail "the bench's name: $bench"
tune=$("$bin/tuner" --dry-run --n 1000 --kernel "$planted/unrolled_kernel.cu" --param UNROLL=1,8) || fail "$tune"
grep -qF 'unrolled_kernel: 2 point(s) over UNROLL={1,8}' <<<"$tune" || fail "the tuner's space: $tune"
grep -qF 'reference: unrolled_kernel[TILE=32,UNROLL=4] (declared default)' <<<"$tune" || fail "the tuner's name: $tune"
expect 2 "unrolled_kernel: unknown parameter 'NOPE' (it has: TILE, UNROLL)" \
  "$bin/apsp_bench" --dry-run --kernel "$planted/unrolled_kernel.cu" --config 'unrolled_kernel[NOPE=2]'
expect 2 "unrolled_kernel: unknown parameter 'NOPE' (it has: TILE, UNROLL)" \
  "$bin/apsp" x.txt --kernel "$planted/unrolled_kernel.cu" --config 'unrolled_kernel[NOPE=2]'
# A macro fixed with a bare #define is no parameter: --param says how to make it one.
expect 2 "--param THREADS_X: the file fixes THREADS_X" "$bin/tuner" --dry-run --kernel "$ex/fw32.cu" --param THREADS_X=16,32

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
