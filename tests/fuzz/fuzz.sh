#!/usr/bin/env bash
# The fuzz tests (tests/CMakeLists.txt). Exit 0 when the target ran clean, 1 on any finding or
# fault, and 77 (ctest: skipped) only where clang++ cannot build a libFuzzer binary (no clang, or
# no compiler-rt); under CI (CI=true) that fails too, since scripts/setup.sh installs clang there.
#   fuzz.sh build SOURCE_DIR BUILD_DIR CUDA_INCLUDE   configure (once) and build every target
#   fuzz.sh run BUILD_DIR TARGET SECONDS CORPUS   fuzz TARGET for SECONDS from the seed CORPUS
set -euo pipefail

# A fuzzer that cannot be built here: skipped, except under CI, which must fuzz.
cannot_fuzz() {
  if [ "${CI:-}" = true ]; then
    echo "fuzz: $1: FAILED (CI=true: scripts/setup.sh installs clang and compiler-rt)"
    exit 1
  fi
  echo "fuzz: $1: skipped"
  exit 77
}

mode=$1
case "$mode" in
  build)
    src=$2 out=$3 cuda_include=$4
    clang=$(command -v clang++ || true)
    [ -n "$clang" ] || cannot_fuzz "no clang++ (scripts/setup.sh installs it)"
    probe=$(mktemp -d)
    trap 'rm -rf "$probe"' EXIT
    echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' > "$probe/p.cpp"
    if ! "$clang" -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2> "$probe/log"; then
      cannot_fuzz "$clang cannot link -fsanitize=fuzzer ($(head -n 1 "$probe/log"))"
    fi
    if [ ! -f "$out/build.ninja" ]; then
      cmake -S "$src/tests/fuzz" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER="$clang" -DAPSP_CUDA_INCLUDE="$cuda_include" > "$out.configure.log" 2>&1 \
        || { cat "$out.configure.log"; exit 1; }
    fi
    cmake --build "$out" -j "${APSP_FUZZ_JOBS:-2}"
    ;;
  run)
    out=$2 target=$3 seconds=$4 seeds=$5
    bin="$out/fuzz_$target"
    [ -x "$bin" ] || cannot_fuzz "$bin was not built (fuzz_build skipped)"
    # New inputs go to the build folder's corpus; the seeds in the repository are read only.
    work="$out/corpus/$target" artifacts="$out/artifacts/$target/"
    mkdir -p "$work" "$artifacts"
    # -rss_limit_mb: the readers bound what they allocate; -timeout: no input may take 10 s.
    # libFuzzer's own codes for a finding (77) and a timeout (70) are set to 1: 77 is ctest's
    # skip code. Its out-of-memory exit (71) has no flag; every code but 0 is a failure below.
    log="$out/fuzz_$target.log"
    rc=0
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -error_exitcode=1 \
      -timeout_exitcode=1 -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "$seeds" \
      > "$log" 2>&1 || rc=$?
    # The run count and the final stats; on a failure the finding, without the dictionary.
    grep -E '^#[0-9]+[[:space:]]+DONE|^Done|^stat::' "$log" || true
    [ "$rc" -eq 0 ] && exit 0
    # From the first report of the fault (sanitizer, uncaught exception, a fuzz_check finding).
    first=$(grep -n -m1 -E 'runtime error|==[0-9]+==ERROR|FUZZ FINDING|deadly signal|terminate called|ERROR: libFuzzer' "$log" | cut -d: -f1 || true)
    sed -n "${first:-1},\$p" "$log" | sed '/Recommended dictionary/,/End of recommended dictionary/d' | head -n 60
    echo "fuzz_$target: FAILED (libFuzzer exit $rc); the input is in $artifacts; add it to $seeds once fixed"
    ls -l "$artifacts" || true
    exit 1
    ;;
  *) echo "usage: fuzz.sh build SRC OUT CUDA_INCLUDE | run OUT TARGET SECONDS CORPUS" >&2; exit 2 ;;
esac
