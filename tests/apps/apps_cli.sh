#!/usr/bin/env bash
# CLI tests of apsp and gen_graph.
#   apps_cli.sh golden   BUILD_DIR   apsp --variant cpu reproduces the checked-in golden outputs
#   apps_cli.sh gpu      BUILD_DIR   every variant through apsp gives the golden bytes (77: no GPU);
#                                    auto tries 16 bits on every golden graph whose weights fit
#                                    and proves each result exact; the boundary_* graphs (largest
#                                    distance 2^30 - 2 and 2^30 - 1) fail the int32 proof, are
#                                    solved in 64 bits and still print the contest's 1073741823
#   apps_cli.sh roundtrip BUILD_DIR  gen_graph | apsp equals the independent Python solver
#   apps_cli.sh bad      BUILD_DIR   every reader fault: one line, exit 2 (refused), nothing written
#   apps_cli.sh checks   BUILD_DIR   checked before any work: output folders, memory (ulimit -v);
#                                    -o - is standard output; pipes and /dev/stdin are read
#   apps_cli.sh progress BUILD_DIR   a long CPU solve announces its estimate and shows progress
#   apps_cli.sh verify   BUILD_DIR   apsp --verify: the certificate holds on every golden graph (CPU)
#   apps_cli.sh gpu_verify BUILD_DIR the same on the GPU, with the matrix built, solved, checked and
#                                    read back on the device in every format; a wrong solve
#                                    (planted_wrong, in apsp's test build) exits 1 with the fault,
#                                    nothing written (77: no GPU)
#   apps_cli.sh gpu_tuned BUILD_DIR  apsp --db takes a tuner pick only where the tuner measured it
#                                    faster than the shipped default, and no database is read
#                                    unless named (77: no GPU)
set -u
mode=$1 build=$2
tests=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

case $mode in
golden)
  for f in "$tests"/data/*.txt; do
    "$build/apsp" "$f" --variant cpu -o "$tmp/out" 2>/dev/null || fail "apsp exited $? on $f"
    cmp -s "$tmp/out" "${f%.txt}.expected" || fail "$(basename "$f"): output differs from the golden file"
  done
  echo "golden outputs reproduced on the CPU" ;;
gpu)
  "$build/apsp_bench" --list >/dev/null || fail "apsp_bench --list"
  "$build/apsp" "$tests/data/single.txt" --variant naive >/dev/null 2>&1
  [ $? -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
  for v in $("$build/apsp_bench" --list | awk '/^[a-z]/ {print $1}') auto; do
    for f in "$tests"/data/*.txt; do
      boundary=no
      case $(basename "$f") in boundary_*) boundary=yes ;; esac
      if [ "$v" = sm90_u16 ] && [ $boundary = yes ]; then
        # Weights of 2^30 are no 16-bit graph's: asked for by name, it is refused before any work.
        "$build/apsp" "$f" --variant "$v" -o "$tmp/out" 2>"$tmp/err"
        [ $? -eq 2 ] || fail "sm90_u16 on $(basename "$f"): not refused: $(cat "$tmp/err")"
        continue
      fi
      "$build/apsp" "$f" --variant "$v" -o "$tmp/out" 2>"$tmp/err"
      rc=$?
      [ $rc -eq 0 ] || fail "apsp --variant $v exited $rc on $f: $(cat "$tmp/err")"
      cmp -s "$tmp/out" "${f%.txt}.expected" || fail "$v on $(basename "$f"): bytes differ"
      # Every result proven exact; auto tries 16 bits wherever the weights fit (all of these).
      grep -q ": exact (" "$tmp/err" || fail "$v on $(basename "$f"): no proof: $(cat "$tmp/err")"
      if [ "$v" = auto ] && [ $boundary = no ]; then
        grep -q "solving with sm90_u16\[.*16-bit distances" "$tmp/err" || fail "auto on $(basename "$f"): $(cat "$tmp/err")"
      fi
      if [ $boundary = yes ]; then
        grep -q "exact (int64)" "$tmp/err" || fail "$v on $(basename "$f"): not the 64-bit path: $(cat "$tmp/err")"
      fi
    done
  done
  echo "every variant gives the golden bytes" ;;
verify)
  for f in "$tests"/data/*.txt; do
    "$build/apsp" "$f" --variant cpu --verify -o "$tmp/out" 2>"$tmp/err" || fail "apsp --verify exited $? on $f"
    grep -q "verified: the shortest-path certificate holds" "$tmp/err" || fail "no verdict: $(cat "$tmp/err")"
    cmp -s "$tmp/out" "${f%.txt}.expected" || fail "$(basename "$f"): output differs from the golden file"
  done
  echo "the certificate holds on every golden output (CPU)" ;;
gpu_verify)
  "$build/apsp" "$tests/data/single.txt" --variant naive >/dev/null 2>&1
  [ $? -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
  "$build/gen_graph" --V 1000 --E 20000 --wmin 0 --wmax 5 --seed 11 -o "$tmp/g.txt" || fail "gen_graph"
  "$build/apsp" "$tmp/g.txt" --variant cpu -o "$tmp/cpu.txt" 2>/dev/null || fail "apsp --variant cpu"
  for fmt in text bin npy; do
    "$build/apsp" "$tmp/g.txt" --variant cpu --format $fmt -o "$tmp/cpu.$fmt" 2>/dev/null || fail "cpu $fmt"
    "$build/apsp" "$tmp/g.txt" --verify --format $fmt -o "$tmp/gpu.$fmt" 2>"$tmp/err" || fail "gpu $fmt: $(cat "$tmp/err")"
    grep -q "verified: the shortest-path certificate holds" "$tmp/err" || fail "no verdict: $(cat "$tmp/err")"
    cmp -s "$tmp/gpu.$fmt" "$tmp/cpu.$fmt" || fail "$fmt: the GPU's bytes differ from the CPU's"
  done
  # planted_wrong sets d[V-1][0] = 0: wrong only where no zero-weight path joins them, so weights >= 1.
  "$build/gen_graph" --V 500 --E 5000 --wmin 1 --wmax 9 --seed 12 -o "$tmp/positive.txt" || fail "gen_graph"
  APSP_TEST_VARIANTS=1 "$build/tests/apps/apsp_with_test_variants" "$tmp/positive.txt" --variant planted_wrong --verify -o "$tmp/wrong.txt" 2>"$tmp/err"
  rc=$?
  [ $rc -eq 1 ] || fail "a wrong solve with --verify exited $rc: $(cat "$tmp/err")"
  grep -q "fails the shortest-path certificate: d\[" "$tmp/err" || fail "no fault named: $(cat "$tmp/err")"
  [ -e "$tmp/wrong.txt" ] && fail "a wrong solve left an output"
  echo "the GPU's matrix, built, checked and read back on the device, equals the CPU's in every format; a wrong one is refused" ;;
gpu_tuned)
  # Weights past 16 bits: auto's solver is sm90, the variant the batch search's entries compete with.
  "$build/gen_graph" --V 300 --density 0.05 --wmax 40000 --seed 3 -o "$tmp/g.txt" || fail "gen_graph"
  "$build/tuner" --search batch --n 300 --min-time 0.01 --db "$tmp/db.json" >"$tmp/tuner.log" 2>&1
  rc=$?
  [ $rc -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
  [ $rc -eq 0 ] || fail "tuner exited $rc: $(tail -3 "$tmp/tuner.log")"
  "$build/apsp" "$tmp/g.txt" --variant cpu -o "$tmp/expected" 2>/dev/null || fail "apsp --variant cpu"
  # A tuning.json in the current folder is not read: apsp says which default it used.
  (cd "$tmp" && cp db.json tuning.json && "$build/apsp" g.txt -o plain) 2>"$tmp/plain.err" || fail "apsp without --db"
  grep -q "solving with sm90\[" "$tmp/plain.err" || fail "without --db: $(cat "$tmp/plain.err")"
  "$build/apsp" "$tmp/g.txt" --db "$tmp/db.json" -o "$tmp/tuned" 2>"$tmp/tuned.err" || fail "apsp --db"
  cmp -s "$tmp/tuned" "$tmp/expected" || fail "apsp --db: output differs from the CPU"
  cmp -s "$tmp/plain" "$tmp/expected" || fail "apsp: output differs from the CPU"
  line=$(grep "solving with" "$tmp/tuned.err")
  echo "$line"
  if grep -q "tuned in" <<<"$line"; then  # a pick: it must have beaten the default where measured
    python3 - "$line" <<'PY' || fail "a pick that did not beat the default: $line"
import re, sys
pick, ref = map(float, re.search(r": ([0-9.]+) ms against the default's ([0-9.]+) ms", sys.argv[1]).groups())
assert pick < ref, (pick, ref)
PY
  else
    grep -q "nothing beat it" <<<"$line" || fail "no pick and no reason: $line"
  fi
  echo "apsp --db picks only what beat the default; no database read unless named" ;;
roundtrip)
  for args in "--V 50 --density 0.1 --seed 1" "--V 33 --kind grid --wmin 0 --wmax 3" \
              "--V 40 --kind star --seed 9" "--V 64 --kind components --components 5 --density 0.3" \
              "--V 45 --E 300 --wmin 0 --wmax 2 --seed 4"; do
    # shellcheck disable=SC2086
    "$build/gen_graph" $args -o "$tmp/g.txt" || fail "gen_graph $args"
    "$build/gen_graph" $args | cmp -s - "$tmp/g.txt" || fail "gen_graph $args: stdout and -o differ"
    "$build/gen_graph" $args | "$build/apsp" - --variant cpu > "$tmp/out" 2>/dev/null || fail "apsp on gen_graph $args"
    python3 "$tests/support/independent_apsp.py" "$tmp/g.txt" > "$tmp/expected"
    cmp -s "$tmp/out" "$tmp/expected" || fail "gen_graph $args | apsp differs from the independent solver"
  done
  echo "round trips equal the independent solver" ;;
bad)
  while IFS='|' read -r file message; do
    echo "keep me" > "$tmp/existing"
    "$build/apsp" "$tests/data/bad/$file" -o "$tmp/existing" 2>"$tmp/err" >"$tmp/stdout"
    rc=$?
    [ $rc -eq 2 ] || fail "$file: exit $rc, expected 2"
    [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "$file: expected one line on stderr: $(cat "$tmp/err")"
    grep -qF "$message" "$tmp/err" || fail "$file: stderr '$(cat "$tmp/err")' lacks '$message'"
    [ "$(cat "$tmp/existing")" = "keep me" ] || fail "$file: the existing output was touched"
    [ -s "$tmp/stdout" ] && fail "$file: wrote to stdout"
    ls "$tmp" | grep -q '\.tmp\.' && fail "$file: a temporary file was left behind"
  done <<'LIST'
short.txt|short.txt:3:1: end of input after 1 of 2 edges
vertex.txt|vertex.txt:2:3: vertex 3 out of range [0, 3)
negative.txt|negative.txt:2:5: negative weight -5
notint.txt|notint.txt:1:3: expected an integer, found 'x'
zero.txt|zero.txt:1:1: V must be positive, got 0
overflow.txt|overflow.txt:2:5: weight 3000000000 is above 2147483647
empty.txt|empty.txt:1:1: empty input
LIST
  # Bytes an editor hides: shown escaped, in one line, with a message or hint of their own (a
  # byte order mark is skipped: apsp_formats.sh).
  printf '2 1\n0 1\0 5\n' > "$tmp/nul.txt"
  printf '2 1\r0 1 5\r' > "$tmp/cr.txt"
  while IFS='|' read -r file message; do
    "$build/apsp" "$tmp/$file" 2>"$tmp/err" >/dev/null; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -qF "$message" "$tmp/err" \
      || fail "$file: rc $rc, stderr '$(cat -v "$tmp/err")' lacks '$message'"
  done <<'LIST'
nul.txt|nul.txt:2:3: expected an integer, found '1\0'
cr.txt|cr.txt:1:5: expected 2 integers 'V E', found 5 (the lines end in CR alone, as on classic Mac OS: convert them to \n
LIST
  "$build/apsp" /nonexistent.txt 2>"$tmp/err"; [ $? -eq 2 ] && grep -q "cannot open" "$tmp/err" || fail "missing file"
  "$build/gen_graph" --V 10 --wmin 5 --wmax 4 -o "$tmp/g" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && [ ! -e "$tmp/g" ] && grep -qF "need 0 <= wmin <= wmax, got [5, 4]" "$tmp/err" || fail "gen_graph wmin > wmax: rc $rc $(cat "$tmp/err")"
  echo "every bad input refused, nothing written" ;;
checks)
  g=$tests/data/single.txt
  # The output folder is checked first: a missing input is not even opened.
  "$build/apsp" /nonexistent-input.txt -o /nonexistent-folder/x.txt 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "apsp: -o /nonexistent-folder/x.txt: the folder /nonexistent-folder does not exist" ] \
    || fail "apsp -o into a missing folder: rc $rc, $(cat "$tmp/err")"
  "$build/gen_graph" --V 3 -o /nonexistent-folder/g.txt 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "the folder /nonexistent-folder does not exist" "$tmp/err" || fail "gen_graph -o: rc $rc"
  # -o - is standard output, not a file named "-".
  (cd "$tmp" && "$build/apsp" "$g" --variant cpu -o - >stdout.txt 2>/dev/null) || fail "apsp -o -"
  cmp -s "$tmp/stdout.txt" "${g%.txt}.expected" || fail "apsp -o -: standard output differs from the golden file"
  (cd "$tmp" && "$build/gen_graph" --V 4 -o - >/dev/null) || fail "gen_graph -o -"
  [ -e "$tmp/-" ] && fail "a file named '-' was created"
  # Pipes: process substitution and /dev/stdin are streamed.
  "$build/apsp" <(cat "$g") --variant cpu >"$tmp/out" 2>/dev/null || fail "apsp <(cat FILE)"
  cmp -s "$tmp/out" "${g%.txt}.expected" || fail "apsp <(cat FILE): wrong output"
  "$build/apsp" /dev/stdin --variant cpu <"$g" >"$tmp/out" 2>/dev/null || fail "apsp /dev/stdin"
  cmp -s "$tmp/out" "${g%.txt}.expected" || fail "apsp /dev/stdin: wrong output"
  cat "$g" | "$build/apsp" /dev/stdin --variant cpu >"$tmp/out" 2>/dev/null || fail "cat FILE | apsp /dev/stdin"
  cmp -s "$tmp/out" "${g%.txt}.expected" || fail "cat FILE | apsp /dev/stdin: wrong output"
  # A folder as input: one line, no std::bad_alloc.
  "$build/apsp" "$tmp" 2>"$tmp/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "is a folder, not an edge-list file" "$tmp/err" || fail "apsp FOLDER: rc $rc, $(cat "$tmp/err")"
  # The memory check counts what ulimit -v leaves, not the machine's RAM.
  (ulimit -v 1000000; echo "30000 0" | "$build/apsp" - --variant cpu -o "$tmp/big" 2>"$tmp/err"); rc=$?
  [ $rc -eq 2 ] && grep -q "more than the .* available (what ulimit -v leaves)" "$tmp/err" \
    || fail "ulimit -v: rc $rc, $(cat "$tmp/err")"
  echo "outputs, memory and pipes checked before any work" ;;
progress)
  # No silent long work without a GPU: a CPU solve estimated over a minute says so in one line
  # (with how to use a GPU), and on a terminal a progress line shows the share done and the time
  # left. (V = 10000 took 80 s on 2 cores, and its first second's rate said under a minute: the
  # line never came.) V = 16000 on 2 threads, about 6 min here, stays over a minute on faster
  # cores; it is stopped once both have shown.
  command -v script >/dev/null || { echo "script(1) missing: skipped"; exit 77; }
  "$build/gen_graph" --V 16000 --density 0.01 --seed 5 -o "$tmp/g.txt" || fail "gen_graph"
  script -qfc "exec $build/apsp $tmp/g.txt --variant cpu --threads 2 -o $tmp/out" /dev/null >"$tmp/tty" 2>&1 &
  tty_pid=$!
  # Up to 5 min for both lines: a loaded machine draws them later; the loop ends when both show.
  for _ in $(seq 600); do
    grep -q "will take about" "$tmp/tty" && grep -q "solving V = 16000 on the CPU: [0-9]*% (about" "$tmp/tty" && break
    sleep 0.5
  done
  apsp_pid=$(ps -o pid= --ppid "$tty_pid" | tr -d ' ')
  [ -n "$apsp_pid" ] && kill "$apsp_pid"
  wait "$tty_pid"
  grep -q "apsp: the CPU solve of V = 16000 will take about [0-9.]* \(s\|min\) (at the rate so far); with a CUDA device present" "$tmp/tty" \
    || fail "no estimate line: $(cat -v "$tmp/tty")"
  grep -q "solving V = 16000 on the CPU: [0-9]*% (about [0-9.]* \(s\|min\) left)" "$tmp/tty" \
    || fail "no progress line on a terminal: $(cat -v "$tmp/tty")"
  echo "a long CPU solve: estimate and progress shown" ;;
*) fail "unknown mode $mode" ;;
esac
