#!/usr/bin/env bash
# On the GPU machine: build, run the whole test suite, then compute-sanitizer memcheck and
# racecheck on every variant (default config) at sizes that are no multiple of any tile, on
# sm90_u16's graphs, and on sm90's ring (racecheck on a second build: APSP_RACECHECK_BUILD).
# Logs go to $OUT (or ./device-check-logs): build, ctest, gpu-tests and sanitizers .log; a
# summary is printed last. The arguments pick the parts that run (both by default): tests
# (build, ctest, every config) and sanitizers (their own build and runs), so the two can go to
# separate commands on a machine that limits a command's time; each part builds what it needs.
#   source .deps/env.sh && [APSP_GIT=<commit>] scripts/device-check.sh [tests] [sanitizers]
# Exit: 0 every step passed, 1 a step failed (the summary names it), 2 an unknown part.
set -uo pipefail
cd "$(dirname "$0")/.."
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(tests sanitizers)
for p in "${parts[@]}"; do
  case $p in tests | sanitizers) ;; *) echo "device-check.sh: unknown part '$p' (tests, sanitizers)" >&2; exit 2 ;; esac
done
wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
logs=${OUT:-device-check-logs}
mkdir -p "$logs"
source scripts/steps.sh
finish() {  # the test counts, then the summary; exits 1 if a step failed
  if wants tests; then
    grep -h "tests passed" "$logs/ctest.log"
    grep -h "PASSED\|FAILED" "$logs/gpu-tests.log"
  fi
  summary_passed || exit 1
  exit 0
}
nvidia-smi --query-gpu=name,compute_cap,clocks.sm,clocks.max.sm,driver_version --format=csv \
  | tee "$logs/gpu.txt"
# Host warnings stay warnings here: the GPU machine's GCC 13 reports false positives in libstdc++
# (-Warray-bounds in std::copy); CI, on the project's own compiler, keeps them errors.
step build configure cmake --preset release -DAPSP_WERROR=OFF ${APSP_GIT:+-DAPSP_GIT=$APSP_GIT}
tests=build/release/tests/gpu_variant_tests
if wants tests; then
  step build build cmake --build --preset release
  # Every test but gpu_variants and gpu_i64, which are the next step's binary (all of it).
  step ctest ctest ctest --preset release -E '^gpu_(variants|i64)$'
  step gpu-tests "gpu tests, every config" "$tests" --gtest_brief=1
fi
wants sanitizers || finish
step build "build (memcheck)" cmake --build --preset release --target gpu_variant_tests
# racecheck does not see that __syncwarp orders a warp's reads of sm90's ring before lane 0's
# mbarrier arrival; it runs on a build where every thread arrives (APSP_RACECHECK_BUILD, the same
# order made visible to it; kernels/sm90.cuh). memcheck runs on the shipped build.
step build "configure (racecheck)" cmake -S . -B build/racecheck -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DAPSP_WERROR=OFF -DAPSP_RACECHECK_BUILD=ON ${APSP_GIT:+-DAPSP_GIT=$APSP_GIT}
step build "build (racecheck)" cmake --build build/racecheck --target gpu_variant_tests
declare -A tests_for=([memcheck]=$tests [racecheck]=build/racecheck/tests/gpu_variant_tests)
# 77 and 200: neither a multiple of 32 nor of 64, so every variant runs partial tiles; 200 gives
# sm90 four 64-tiles, so its look-ahead rounds have ordinary, row/column and waiting blocks.
export APSP_TEST_SIZES=77,200 APSP_TEST_DEFAULTS_ONLY=1
for v in $("$tests" --gtest_list_tests | sed -n 's|^  EqualsTheCpuReference/\([A-Za-z0-9_]*\).*|\1|p'); do
  for tool in memcheck racecheck; do
    step sanitizers "$tool $v" compute-sanitizer --tool "$tool" --error-exitcode 1 "${tests_for[$tool]}" \
      --gtest_filter="AllVariants/VariantTest.EqualsTheCpuReference/$v"
  done
done
# sm90_u16 on its own graphs (unweighted, weights 0..3, unreachable pairs), every config.
for tool in memcheck racecheck; do
  step sanitizers "$tool sm90_u16, every config" compute-sanitizer --tool "$tool" --error-exitcode 1 \
    "${tests_for[$tool]}" --gtest_filter='Sm90U16/U16Config.*'
done
# blocked_i64 on its own graphs (weights to 2^31 - 1, entries near 2^52), every config.
for tool in memcheck racecheck; do
  step sanitizers "$tool blocked_i64, every config" compute-sanitizer --tool "$tool" --error-exitcode 1 \
    "${tests_for[$tool]}" --gtest_filter='BlockedI64/BlockedI64Config.*'
done
# sm90's ring (the panel at look-ahead 1 and the pairs of rounds, tile 128; int32's pairs at tile
# 64 with their short chain, look-ahead 3, 4 and 5) runs only where a round has ordinary tiles: three
# tiles of 128 at least (300), five for a pair's pass (520); at tile 64, 5, 8 and 9 tiles (pairs
# only, and an odd last round).
export APSP_TEST_SIZES=300,456,520
unset APSP_TEST_DEFAULTS_ONLY
ring=AllVariants/VariantTest.EqualsTheCpuReference/sm90
for tool in memcheck racecheck; do
  step sanitizers "$tool sm90's ring" compute-sanitizer --tool "$tool" --error-exitcode 1 "${tests_for[$tool]}" \
    --gtest_filter="${ring}*_chunk_16_lookahead_?_per_thread_8_tile_128_:${ring}_chunk_16_lookahead_3_per_thread_?_tile_64_:${ring}_chunk_16_lookahead_5_per_thread_?_tile_64_:${ring}_chunk_16_lookahead_4_per_thread_4_tile_64_"
done
finish
