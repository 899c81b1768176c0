#!/usr/bin/env bash
# apsp --format text|bin|npy on the CPU path: each is the same matrix as the expected text;
# np.load reads the npy file as int32 (V, V); bin's header is "APSPDST1" and V as int64.
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
