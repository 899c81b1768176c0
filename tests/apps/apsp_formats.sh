#!/usr/bin/env bash
# apsp --format text|bin|npy on the CPU path: each is the same matrix as the expected text;
# np.load reads the npy file as int32 (V, V); bin's header is "APSPDST1" and V as int64.
# Then the input side: every malformed contest edge list of DATA_DIR/bad/contest is refused as one
# through --input-format auto (never read as another format): exit 2, one line naming
# FILE:LINE:COLUMN, the format read and --input-format, nothing written.
#   apsp_formats.sh BIN_DIR DATA_DIR WORK_DIR
set -u
bin=$1 data=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
for f in text bin npy; do
  "$bin/apsp" --variant cpu --format $f "$data/components37.txt" -o "$work/out.$f" 2>/dev/null \
    || { echo "apsp --format $f failed"; exit 1; }
done
"$bin/apsp" --variant cpu --format npy "$data/components37.txt" > "$work/stdout.npy" 2>/dev/null || exit 1
cmp -s "$work/out.npy" "$work/stdout.npy" || { echo "-o and standard output differ"; exit 1; }
cmp -s "$work/out.text" "$data/components37.expected" || { echo "text differs from the expected output"; exit 1; }
python3 - "$work" "$data/components37.expected" <<'PY' || exit 1
import struct, sys
import numpy as np
work, expected = sys.argv[1], sys.argv[2]
want = np.array([[int(x) for x in line.split()] for line in open(expected)], dtype=np.int32)
got = np.load(f"{work}/out.npy")
assert got.dtype == np.int32 and got.shape == want.shape and (got == want).all(), "npy differs"
raw = open(f"{work}/out.bin", "rb").read()
assert raw[:8] == b"APSPDST1", raw[:8]
(n,) = struct.unpack("<q", raw[8:16])
assert n == want.shape[0] and len(raw) == 16 + 4 * n * n
assert (np.frombuffer(raw[16:], dtype="<i4").reshape(n, n) == want).all(), "bin differs"
print(f"text, bin and npy agree on a {n} x {n} matrix; unreachable:", int((want == 1073741823).sum()))
PY

hint="(read as edges: if this is another format, name it with --input-format dimacs, mtx or snap)"
refused() {  # refused FILE MESSAGE [ARGS...]: apsp ARGS FILE exits 2 with "FILE:MESSAGE HINT" alone
  local file=$1 message=$2; shift 2
  echo "keep me" > "$work/existing"
  "$bin/apsp" --variant cpu "$@" "$file" -o "$work/existing" > "$work/stdout" 2> "$work/err"
  local rc=$?
  [ $rc -eq 2 ] || { echo "FAIL: $file: exit $rc, expected 2: $(cat "$work/err")"; exit 1; }
  [ "$(cat "$work/err")" = "apsp: $file:$message $hint" ] \
    || { echo "FAIL: $file: stderr '$(cat "$work/err")', expected 'apsp: $file:$message $hint'"; exit 1; }
  [ "$(cat "$work/existing")" = "keep me" ] && [ ! -s "$work/stdout" ] \
    || { echo "FAIL: $file: something was written"; exit 1; }
  ls "$work" | grep -q '\.tmp\.' && { echo "FAIL: $file: a temporary file was left"; exit 1; }
  return 0
}
corpus=$data/bad/contest
listed=0
while IFS='|' read -r file message; do
  refused "$corpus/$file" "$message"
  listed=$((listed + 1))
done <<'LIST'
missing_weight.txt|2:4: expected 3 integers 'src dst w', found 2
extra_column.txt|2:7: expected 3 integers 'src dst w', found 4
fewer_edges.txt|4:1: end of input after 2 of 3 edges
more_edges.txt|3:1: unexpected content after the 1 edges the header announced
header_alone.txt|2:1: end of input after 0 of 2 edges
text_in_number.txt|3:3: expected an integer, found 'two'
text_in_header.txt|1:3: expected an integer, found 'edges'
pairs_after_header.txt|2:4: expected 3 integers 'src dst w', found 2
real_weight.txt|2:5: expected an integer, found '2.5'
no_header.txt|1:1: V must be positive, got 0
LIST
[ "$listed" -eq "$(ls "$corpus" | wc -l)" ] || { echo "FAIL: a file of $corpus is not listed"; exit 1; }
# The issue's case, on standard input: once read as SNAP and solved.
printf '3 1\n0 1\n' | "$bin/apsp" --variant cpu - > "$work/stdout" 2> "$work/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$work/stdout" ] \
  && [ "$(cat "$work/err")" = "apsp: <stdin>:2:4: expected 3 integers 'src dst w', found 2 $hint" ] \
  || { echo "FAIL: '3 1 / 0 1' on stdin: exit $rc, $(cat "$work/err")"; exit 1; }
# Named, the same file is refused without the hint; as SNAP it is a graph (ids 0, 1 and 3).
"$bin/apsp" --variant cpu --input-format edges "$corpus/missing_weight.txt" 2> "$work/err" > /dev/null
grep -qx "apsp: $corpus/missing_weight.txt:2:4: expected 3 integers 'src dst w', found 2" "$work/err" \
  || { echo "FAIL: --input-format edges: $(cat "$work/err")"; exit 1; }
"$bin/apsp" --variant cpu --input-format snap "$corpus/missing_weight.txt" > "$work/snap.txt" 2> "$work/err" \
  && grep -q "3 ids from 0 to 3, sparse" "$work/err" \
  || { echo "FAIL: --input-format snap: $(cat "$work/err")"; exit 1; }
# A byte order mark (Notepad's UTF-8) is skipped: the same matrix.
printf '\xEF\xBB\xBF' | cat - "$data/components37.txt" > "$work/bom.txt"
"$bin/apsp" --variant cpu "$work/bom.txt" -o "$work/bom.out" 2>/dev/null \
  && cmp -s "$work/bom.out" "$data/components37.expected" \
  || { echo "FAIL: a file with a byte order mark"; exit 1; }
echo "$listed malformed contest files refused as such, nothing written; a byte order mark skipped"
