#!/usr/bin/env bash
# apsp --paths and --path through the command line.
#   apsp_paths.sh cpu BUILD_DIR   --variant cpu: the path line, the next-hop matrix checked by an
#                                 independent walker (every path follows edges, weighs its
#                                 distance, repeats no vertex; -1 on the diagonal and where
#                                 unreachable), text = bin = npy, who has standard output, and
#                                 bad --path / --paths refused with exit 2 before any work
#                                 a SNAP list's ids (sparse: 5, 7, 100) spoken by --path,
#                                 --sources, the next hops and --row-ids; the 64-bit path's
#                                 next hops and path (weights of 2^31 - 1)
#   apsp_paths.sh gpu BUILD_DIR   the GPU's next hops and path lines equal the CPU's, byte for
#                                 byte, on those graphs too (77: no GPU)
set -u
mode=$1 build=$2
apsp=$build/apsp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A zero-weight cycle 0 -> 1 -> 2 -> 0 with one exit to 3 (from 1), a duplicate edge (the
# lighter decides), self loops, a zero-weight edge straight to a target (4 -> 3), and 5, 6 apart.
cat > "$tmp/g.txt" <<'G'
7 11
0 1 0
1 2 0
2 0 0
1 3 4
0 4 9
0 4 5
1 1 0
3 3 2
4 3 0
5 6 1
6 5 0
G

# Sparse SNAP ids 5, 7 and 100 (rows 0, 1, 2), and weights only the 64-bit path takes.
printf '# a SNAP list\n5 100 3\n100 7 2\n7 5 1\n' > "$tmp/snap.txt"
printf '4 4\n0 1 2147483647\n1 2 5\n0 2 2147483647\n2 3 0\n' > "$tmp/wide.txt"

# The independent check: python3 walker.py GRAPH DIST NEXT (text matrices).
cat > "$tmp/walker.py" <<'PY'
import sys
graph, dist, nxt = sys.argv[1:4]
lines = open(graph).read().split("\n")
n = int(lines[0].split()[0])
INF = 1073741823
w = {}
for line in lines[1:]:
    if line.strip():
        a, b, c = map(int, line.split())
        if a != b:
            w[(a, b)] = min(c, w.get((a, b), INF))
d = [list(map(int, l.split())) for l in open(dist)]
h = [list(map(int, l.split())) for l in open(nxt)]
assert len(h) == n and all(len(r) == n for r in h), "next-hop matrix shape"
for i in range(n):
    for j in range(n):
        if i == j or d[i][j] == INF:
            assert h[i][j] == -1, f"next[{i}][{j}] = {h[i][j]}, expected -1"
            continue
        seen, v, total = {i}, i, 0
        while v != j:
            u = h[v][j]
            assert (v, u) in w, f"next[{i}][{j}]: {v} -> {u} is no edge"
            assert u not in seen, f"next[{i}][{j}]: the walk repeats {u}"
            seen.add(u)
            total += w[(v, u)]
            v = u
        assert total == d[i][j], f"next[{i}][{j}]: the path weighs {total}, d = {d[i][j]}"
print(f"{n} x {n}: every path follows edges and weighs its distance")
PY

case $mode in
cpu)
  out=$("$apsp" --variant cpu "$tmp/g.txt" -o "$tmp/d.txt" --paths "$tmp/p.txt" --path 2 3 2>"$tmp/err") ||
    fail "apsp exited $?: $(cat "$tmp/err")"
  [ "$out" = "path 2 -> 3: 2 0 1 3 (length 4)" ] || fail "the path line: '$out'"
  python3 "$tmp/walker.py" "$tmp/g.txt" "$tmp/d.txt" "$tmp/p.txt" || fail "the next hops of the hand-made graph"
  [ "$(sed -n 3p "$tmp/p.txt")" = "0 0 -1 0 0 -1 -1" ] || fail "row 2 of the next hops: $(sed -n 3p "$tmp/p.txt")"
  out=$("$apsp" --variant cpu "$tmp/g.txt" --path 0 5 2>/dev/null) || fail "--path 0 5"
  [ "$out" = "path 0 -> 5: unreachable" ] || fail "unreachable: '$out'"
  out=$("$apsp" --variant cpu "$tmp/g.txt" --path 6 6 2>/dev/null) || fail "--path 6 6"
  [ "$out" = "path 6 -> 6: 6 (length 0)" ] || fail "S = T: '$out'"
  # Standard output: --paths - is the next-hop matrix alone; without -o no distances are written.
  "$apsp" --variant cpu "$tmp/g.txt" --paths - > "$tmp/p_stdout.txt" 2>/dev/null || fail "--paths -"
  cmp -s "$tmp/p.txt" "$tmp/p_stdout.txt" || fail "--paths - differs from --paths FILE"
  # Random graphs with many zero weights, through gen_graph.
  for seed in 1 2 3; do
    "$build/gen_graph" --V 60 --density 0.06 --wmin 0 --wmax 2 --seed $seed -o "$tmp/r.txt" || fail "gen_graph"
    "$apsp" --variant cpu "$tmp/r.txt" -o "$tmp/rd.txt" --paths "$tmp/rp.txt" 2>/dev/null || fail "apsp on seed $seed"
    python3 "$tmp/walker.py" "$tmp/r.txt" "$tmp/rd.txt" "$tmp/rp.txt" >/dev/null || fail "seed $seed"
  done
  # The formats: bin and npy hold the text's matrix.
  for f in bin npy; do
    "$apsp" --variant cpu "$tmp/g.txt" --format $f -o "$tmp/d.$f" --paths "$tmp/p.$f" 2>/dev/null || fail "--format $f"
  done
  python3 - "$tmp" <<'PY' || fail "bin or npy next hops"
import struct, sys
import numpy as np
t = sys.argv[1]
want = np.array([[int(x) for x in l.split()] for l in open(f"{t}/p.txt")], dtype=np.int32)
got = np.load(f"{t}/p.npy")
assert got.dtype == np.int32 and got.shape == want.shape and (got == want).all(), "npy differs"
raw = open(f"{t}/p.bin", "rb").read()
assert raw[:8] == b"APSPDST1" and struct.unpack("<q", raw[8:16])[0] == want.shape[0]
assert (np.frombuffer(raw[16:], dtype="<i4").reshape(want.shape) == want).all(), "bin differs"
PY
  # Refused with exit 2 and one line, before any work (the input need not even exist, the
  # output is not touched).
  echo old > "$tmp/keep.txt"
  refuse() {  # refuse EXPECTED-TEXT ARGS...
    local want=$1
    shift
    "$apsp" "$@" > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    [ $rc -eq 2 ] || fail "apsp $*: exit $rc, expected 2"
    [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "apsp $*: not one line: $(cat "$tmp/err")"
    grep -qF -- "$want" "$tmp/err" || fail "apsp $*: '$(cat "$tmp/err")' lacks '$want'"
    [ ! -s "$tmp/out" ] || fail "apsp $*: wrote to standard output"
    [ "$(cat "$tmp/keep.txt")" = old ] || fail "apsp $*: -o was touched"
  }
  refuse "--path 0 7: vertex 7 is out of range [0, 7)" --variant cpu "$tmp/g.txt" --path 0 7 -o "$tmp/keep.txt"
  refuse "--path 9 1: vertex 9 is out of range [0, 7)" --variant cpu "$tmp/g.txt" --path 9 1 --paths "$tmp/keep.txt"
  refuse "--path: -1 is out of range [0, 9223372036854775807]" --variant cpu "$tmp/nonexistent.txt" --path -1 2
  refuse "--path: 'x' is not an integer" --variant cpu "$tmp/nonexistent.txt" --path 0 x
  refuse "--path" --variant cpu "$tmp/g.txt" --path 0
  refuse "--path prints on standard output: give -o a file" --variant cpu "$tmp/nonexistent.txt" --path 0 1 -o -
  refuse "--paths - and --path both write standard output" --variant cpu "$tmp/nonexistent.txt" --path 0 1 --paths -
  refuse "--paths - and -o - both write standard output" --variant cpu "$tmp/nonexistent.txt" --paths - -o -
  refuse "--row-ids - and -o - both write standard output" --variant cpu "$tmp/nonexistent.txt" --row-ids - -o -
  refuse "--row-ids - and --summary both write standard output" --variant cpu "$tmp/nonexistent.txt" --row-ids - --summary
  refuse "--paths /nonexistent-folder/p.txt: the folder /nonexistent-folder does not exist" \
    --variant cpu "$tmp/nonexistent.txt" --paths /nonexistent-folder/p.txt
  # A SNAP list's ids: rows in increasing id order, and every answer in the file's ids.
  snap=(--variant cpu --input-format snap "$tmp/snap.txt")
  [ "$("$apsp" "${snap[@]}" 2>/dev/null)" = "$(printf '0 5 3\n1 0 4\n3 2 0')" ] || fail "SNAP rows"
  [ "$("$apsp" "${snap[@]}" --row-ids - -o /dev/null 2>/dev/null)" = "$(printf '5\n7\n100')" ] \
    || fail "--row-ids"
  [ "$("$apsp" "${snap[@]}" --row-ids - 2>/dev/null)" = "$(printf '5\n7\n100')" ] \
    || fail "--row-ids - alone takes standard output"
  [ "$("$apsp" "${snap[@]}" --sources 100,5 2>/dev/null)" = "$(printf '3 2 0\n0 5 3')" ] \
    || fail "--sources in SNAP ids"
  [ "$("$apsp" "${snap[@]}" --path 5 7 -o /dev/null 2>/dev/null)" = "path 5 -> 7: 5 100 7 (length 5)" ] \
    || fail "--path in SNAP ids"
  [ "$("$apsp" "${snap[@]}" --paths - 2>/dev/null)" = "$(printf -- '-1 100 100\n5 -1 5\n7 7 -1')" ] \
    || fail "next hops in SNAP ids"
  # An id the file does not have is refused once the file is read (after its note), exit 2.
  for args in "--sources 6|--sources: 6 names no vertex of $tmp/snap.txt (its ids run from 5 to 100)" \
              "--path 1 5|--path 1 5: 1 names no vertex of $tmp/snap.txt (its ids run from 5 to 100)"; do
    "$apsp" "${snap[@]}" ${args%%|*} -o "$tmp/keep.txt" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(tail -n 1 "$tmp/err")" = "apsp: ${args#*|}" ] && [ ! -s "$tmp/out" ] \
      && [ "$(cat "$tmp/keep.txt")" = old ] || fail "${args%%|*}: exit $rc, $(cat "$tmp/err")"
  done
  # Weights of 2^31 - 1: the 64-bit path answers paths as int32 does.
  [ "$("$apsp" --variant cpu "$tmp/wide.txt" --path 0 3 2>/dev/null)" = \
    "path 0 -> 3: 0 2 3 (length 2147483647)" ] || fail "--path in 64 bits"
  [ "$("$apsp" --variant cpu "$tmp/wide.txt" --paths - 2>/dev/null)" = \
    "$(printf -- '-1 1 2 2\n-1 -1 2 2\n-1 -1 -1 3\n-1 -1 -1 -1')" ] || fail "--paths in 64 bits"
  echo "paths on the CPU: path lines, next hops checked, text = bin = npy, SNAP ids, 64 bits, bad arguments refused" ;;
gpu)
  "$apsp" "$tmp/g.txt" --variant naive > /dev/null 2>&1
  [ $? -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
  "$build/gen_graph" --V 300 --density 0.02 --wmin 0 --wmax 2 --seed 5 -o "$tmp/r.txt" || fail "gen_graph"
  "$build/gen_graph" --kind chain --V 200 --wmin 0 --wmax 0 -o "$tmp/chain.txt" || fail "gen_graph"
  for g in snap wide; do  # SNAP ids and the 64-bit path, the same on the GPU as on the CPU
    for opt in "--paths -" "--path 5 100" "--sources 100,7" "--row-ids -"; do
      [ $g = wide ] && [ "$opt" != "--paths -" ] && opt="--path 0 3"
      c=$("$apsp" --variant cpu "$tmp/$g.txt" $opt -o /dev/null 2>/dev/null) || fail "CPU $opt on $g"
      d=$("$apsp" "$tmp/$g.txt" $opt -o /dev/null 2>"$tmp/err") || fail "GPU $opt on $g: $(cat "$tmp/err")"
      [ "$c" = "$d" ] || fail "$g, $opt: GPU '$d', CPU '$c'"
    done
  done
  for g in g r chain; do
    "$apsp" --variant cpu "$tmp/$g.txt" -o "$tmp/cd.txt" --paths "$tmp/cp.txt" 2>/dev/null || fail "CPU on $g"
    "$apsp" "$tmp/$g.txt" -o "$tmp/gd.txt" --paths "$tmp/gp.txt" 2>"$tmp/err" || fail "GPU on $g: $(cat "$tmp/err")"
    grep -q "solving with" "$tmp/err" || fail "$g did not solve on the GPU: $(cat "$tmp/err")"
    cmp -s "$tmp/cd.txt" "$tmp/gd.txt" || fail "$g: the distances differ"
    cmp -s "$tmp/cp.txt" "$tmp/gp.txt" || fail "$g: the next hops differ between the GPU and the CPU"
    python3 "$tmp/walker.py" "$tmp/$g.txt" "$tmp/gd.txt" "$tmp/gp.txt" > /dev/null || fail "$g on the GPU"
    for st in "0 3" "2 3" "0 5" "1 1" "0 199"; do
      set -- $st
      [ "$2" -lt "$(head -1 "$tmp/$g.txt" | cut -d' ' -f1)" ] || continue
      c=$("$apsp" --variant cpu "$tmp/$g.txt" --path $st 2>/dev/null) || fail "CPU --path $st on $g"
      d=$("$apsp" "$tmp/$g.txt" --path $st 2>/dev/null) || fail "GPU --path $st on $g"
      [ "$c" = "$d" ] || fail "$g, --path $st: GPU '$d', CPU '$c'"
    done
  done
  echo "the GPU's next hops and paths equal the CPU's" ;;
*) fail "unknown mode $mode" ;;
esac
