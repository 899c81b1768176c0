#!/usr/bin/env bash
# Outputs that are not plain new files, through every program that writes, in a mktemp folder of
# its own (never /dev: the device nodes are made here with mknod where permitted, else skipped).
#   special_files.sh cpu BUILD_DIR FIXTURES   apsp, gen_graph and apsp_report write into a FIFO
#       (its reader gets everything, it stays a FIFO), follow a symlink (and a dangling one: its
#       target is created; the link stays), keep a 0600 file's mode, write into a descriptor
#       (/dev/fd/N, and /dev/stdout opened with >>, which appends), and exit 1 with one line on
#       a full device, which stays a device. Refused with exit 2 before any work (a malformed
#       input is then never read: reading it would be refused with another line): an empty
#       name, an output named twice or naming an input (a symlink to it too), a /dev/fd/N that
#       is not open, a missing folder; apsp_bench's and the tuner's checks through --dry-run.
#   special_files.sh gpu BUILD_DIR            apsp_bench --json, --md and --gbench-json into a
#       FIFO, and through a symlink onto a 0600 file (77: no GPU).
set -u
mode=$1 build=$2 fixtures=${3:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../support/cli_lib.sh"
exec 77>&- # the descriptor the "not open" cases name

# fifo NAME COMMAND...: runs COMMAND while a reader copies the FIFO $T/NAME into $T/NAME.got;
# COMMAND's exit code is left in $rc. The FIFO is then opened read-write once, so that a reader
# still waiting (the command failed before opening it) is released rather than left hanging.
fifo() {
  local name=$1
  shift
  rm -f "$T/$name" && mkfifo "$T/$name"
  cat "$T/$name" > "$T/$name.got" &
  local reader=$!
  "$@"
  rc=$?
  exec 3<> "$T/$name"
  exec 3>&-
  wait $reader
  [ -p "$T/$name" ] || fail "$T/$name is no longer a FIFO after: $*"
}

# node NAME MAJOR MINOR: a character device at $T/NAME; false where mknod is not permitted or
# the folder's filesystem does not open devices (nodev).
node() { mknod "$T/$1" c "$2" "$3" 2> /dev/null && : 2> /dev/null > "$T/$1"; }

# with OUT COMMAND...: COMMAND with every @ in its arguments replaced by OUT.
with() {
  local out=$1 a r=()
  shift
  for a in "$@"; do r+=("${a//@/$out}"); done
  "${r[@]}"
}

# writes_into WHAT EXPECTED COMMAND...: COMMAND (its output named @) into each kind of output in
# turn; each must receive exactly EXPECTED.
writes_into() {
  local what=$1 expected=$2
  shift 2
  fifo f with "$T/f" "$@"
  [ $rc -eq 0 ] || fail "$what into a FIFO exited $rc"
  cmp -s "$T/f.got" "$expected" || fail "$what: the FIFO's reader did not get the whole output"
  echo "ok: $what into a FIFO"

  echo old > "$T/target" && ln -sfn target "$T/link"
  with "$T/link" "$@" || fail "$what through a symlink"
  [ -L "$T/link" ] || fail "$what: the symlink became a file"
  cmp -s "$T/target" "$expected" || fail "$what: the symlink's target lacks the new content"
  rm -f "$T/created" && ln -sfn created "$T/dangling"
  with "$T/dangling" "$@" || fail "$what through a dangling symlink"
  [ -L "$T/dangling" ] && cmp -s "$T/created" "$expected" || fail "$what: dangling symlink"
  echo "ok: $what through a symlink (and a dangling one): the links stay"

  echo old > "$T/private" && chmod 600 "$T/private"
  with "$T/private" "$@" || fail "$what onto a 0600 file"
  [ "$(stat -c %a "$T/private")" = 600 ] || fail "$what: mode $(stat -c %a "$T/private")"
  cmp -s "$T/private" "$expected" || fail "$what: the 0600 file lacks the new content"
  echo "ok: $what onto a 0600 file: still 0600"

  with /dev/fd/3 "$@" 3> "$T/via-fd" || fail "$what into /dev/fd/3"
  cmp -s "$T/via-fd" "$expected" || fail "$what: /dev/fd/3 did not get the whole output"
  echo first > "$T/appended"
  with /dev/stdout "$@" >> "$T/appended" || fail "$what into /dev/stdout"
  cmp -s "$T/appended" <(
    echo first
    cat "$expected"
  ) || fail "$what: /dev/stdout opened with >> did not append"
  echo "ok: $what into /dev/fd/3, and into /dev/stdout opened with >>"

  if node full 1 7; then
    local err
    err=$(with "$T/full" "$@" 2>&1 > /dev/null)
    rc=$?
    [ $rc -eq 1 ] || fail "$what onto a full device exited $rc: $err"
    # One line says it (apsp's lines about where it solves and the proof come before it).
    [ "$(grep -v ': exact (' <<< "$err" | grep -vc ': solving on ')" -eq 1 ] && grep -qF "$T/full: " <<< "$err" ||
      fail "$what onto a full device: not one line naming it: $err"
    [ -c "$T/full" ] || fail "$what: the full device is no longer a device"
    rm -f "$T/full"
    echo "ok (1): $what onto a full device -> $(tail -n 1 <<< "$err")"
  else
    echo "skipped: mknod is not permitted here"
  fi
}

# apsp_bench's three outputs on a GPU: their content differs from run to run, so the FIFO's
# reader must get a whole file (its last line closes it), and the symlinked 0600 file new content.
gpu_outputs() {
  local sweep=("$build/apsp_bench" --variant naive --n 64 --min-time 0.01 --ceiling-time 0.01)
  "${sweep[@]}" --json "$T/probe.json" > /dev/null 2>&1
  rc=$?
  [ $rc -eq 3 ] && {
    echo "no GPU: skipped"
    exit 77
  }
  [ $rc -eq 0 ] || fail "apsp_bench exited $rc"
  for opt in --json --md --gbench-json; do
    fifo f "${sweep[@]}" $opt "$T/f" > /dev/null
    [ $rc -eq 0 ] && [ -s "$T/f.got" ] || fail "apsp_bench $opt into a FIFO ($rc)"
    if [ $opt != --md ]; then python3 -m json.tool "$T/f.got" > /dev/null || fail "$opt: not JSON"; fi
    echo old > "$T/target" && chmod 600 "$T/target" && ln -sfn target "$T/link"
    "${sweep[@]}" $opt "$T/link" > /dev/null || fail "apsp_bench $opt through a symlink"
    [ -L "$T/link" ] && [ "$(stat -c %a "$T/target")" = 600 ] && ! grep -qx old "$T/target" ||
      fail "apsp_bench $opt: the link, the mode or the new content was lost"
    echo "ok: apsp_bench $opt into a FIFO, and through a symlink onto a 0600 file"
  done
}

if [ "$mode" = gpu ]; then
  gpu_outputs
  exit 0
fi

apsp=$build/apsp
graph=(--V 40 --E 200 --seed 3)
"$build/gen_graph" "${graph[@]}" -o "$T/g.txt" || fail "gen_graph"
"$build/gen_graph" "${graph[@]}" > "$T/g.expect" || fail "gen_graph"
"$apsp" "$T/g.txt" --variant cpu > "$T/d.expect" || fail "apsp"
"$apsp" "$T/g.txt" --variant cpu --paths - > "$T/p.expect" || fail "apsp --paths -"
printf '3 1\n0 1\n' > "$T/bad.txt" # malformed

writes_into "apsp -o" "$T/d.expect" "$apsp" "$T/g.txt" --variant cpu -o @
writes_into "apsp --paths" "$T/p.expect" "$apsp" "$T/g.txt" --variant cpu -o "$T/d.out" --paths @
writes_into "gen_graph -o" "$T/g.expect" "$build/gen_graph" "${graph[@]}" -o @

# Refused before any work: the malformed input is never read.
ln -sfn x "$T/link-to-x"
ln -sfn bad.txt "$T/link-to-input"
expect 2 "--output: an empty file name" "$apsp" "$T/bad.txt" -o ''
expect 2 "--paths: an empty file name" "$apsp" "$T/bad.txt" --paths ''
expect 2 "-o $T/x and --paths $T/x are the same file" "$apsp" "$T/bad.txt" -o "$T/x" --paths "$T/x"
expect 2 "-o $T/x and --paths $T/link-to-x are the same file" \
  "$apsp" "$T/bad.txt" -o "$T/x" --paths "$T/link-to-x"
expect 2 "-o $T/bad.txt and the input $T/bad.txt are the same file" \
  "$apsp" "$T/bad.txt" -o "$T/bad.txt"
expect 2 "--paths $T/link-to-input and the input $T/bad.txt are the same file" \
  "$apsp" "$T/bad.txt" --paths "$T/link-to-input"
expect 2 "-o /dev/fd/77: descriptor 77 is not open" "$apsp" "$T/bad.txt" -o /dev/fd/77
expect 2 "-o $T/missing/x: the folder $T/missing does not exist" \
  "$apsp" "$T/bad.txt" -o "$T/missing/x"
[ ! -e "$T/x" ] && [ "$(cat "$T/bad.txt")" = "$(printf '3 1\n0 1')" ] || fail "a refusal wrote"
expect 2 "--output: an empty file name" "$build/gen_graph" --V 5 -o ''
expect 2 "-o /dev/fd/77: descriptor 77 is not open" "$build/gen_graph" --V 5 -o /dev/fd/77
expect 2 "the folder $T/missing does not exist" "$build/gen_graph" --V 5 -o "$T/missing/g.txt"

bench=$build/apsp_bench
expect 2 "--json: an empty file name" "$bench" --dry-run --n 64 --json ''
expect 2 "--json $T/r and --md $T/r are the same file" \
  "$bench" --dry-run --n 64 --json "$T/r" --md "$T/r"
expect 2 "--json $T/bad.txt and --graph $T/bad.txt are the same file" \
  "$bench" --dry-run --graph "$T/bad.txt" --json "$T/bad.txt"
expect 2 "--gbench-json $T/link-to-input and --graph $T/bad.txt are the same file" \
  "$bench" --dry-run --graph "$T/bad.txt" --gbench-json "$T/link-to-input"
expect 2 "--md /dev/fd/77: descriptor 77 is not open" "$bench" --dry-run --n 64 --md /dev/fd/77
expect 2 "the folder $T/missing does not exist" \
  "$bench" --dry-run --n 64 --json "$T/missing/r.json"

tuner=$build/tuner
expect 2 "--json: an empty file name" "$tuner" --dry-run --json ''
expect 2 "--json $T/db.json and --db $T/db.json are the same file" \
  "$tuner" --dry-run --json "$T/db.json" --db "$T/db.json"
expect 2 "--emit-policy $T/link-to-x and --db $T/x are the same file" \
  "$tuner" --db "$T/x" --emit-policy "$T/link-to-x"

# apsp_report --out: report.md alone (a plot script that draws nothing).
report=$build/apsp_report
printf 'print("progress 1 1")\n' > "$T/plot.py"
export APSP_PLOT_SCRIPT=$T/plot.py
mkdir -p "$T/rep"
"$report" "$fixtures/h200_bench.json" --out "$T/rep" > /dev/null || fail "apsp_report --out"
mv "$T/rep/report.md" "$T/report.expect"
fifo rep/report.md "$report" "$fixtures/h200_bench.json" --out "$T/rep" > /dev/null
[ $rc -eq 0 ] && cmp -s "$T/rep/report.md.got" "$T/report.expect" || fail "report.md into a FIFO"
rm "$T/rep/report.md"
echo old > "$T/report.target" && chmod 600 "$T/report.target"
ln -s ../report.target "$T/rep/report.md"
"$report" "$fixtures/h200_bench.json" --out "$T/rep" > /dev/null || fail "apsp_report via a link"
[ -L "$T/rep/report.md" ] && [ "$(stat -c %a "$T/report.target")" = 600 ] &&
  cmp -s "$T/report.target" "$T/report.expect" || fail "apsp_report --out: the link or mode lost"
echo "ok: apsp_report --out: report.md into a FIFO, and through a symlink onto a 0600 file"
expect 2 "--out: an empty file name" "$report" "$fixtures/h200_bench.json" --out ''
cp "$fixtures/h200_bench.json" "$T/rep/in.json" && ln -sfn in.json "$T/rep/report.md"
expect 2 "--out $T/rep/report.md and the results $T/rep/in.json are the same file" \
  "$report" "$T/rep/in.json" --out "$T/rep"
echo "all special-file checks passed"
