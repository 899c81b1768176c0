#!/usr/bin/env bash
# gen_graph --kind road, social and molecules through the command line: the same file for the
# same seed (another for another seed), the road at V = 100000 with weights up to 35000 that the
# old (V-1)*wmax bound refused, the molecules' archive as NumPy reads it (where there is NumPy),
# and the refusals (exit 2, nothing written).
#   gen_graph_kinds.sh GEN_GRAPH
set -u
gen_graph=$1
source "$(dirname "$0")/../support/cli_lib.sh"
dir=$(mktemp -d) || fail "mktemp -d"
trap 'rm -rf "$dir"' EXIT

for kind in "road --long-edges 50" "social --attach 4"; do
  # shellcheck disable=SC2086  # the kind and its option, split on purpose
  "$gen_graph" --kind $kind --V 2000 --seed 7 -o "$dir/a" || fail "gen_graph --kind $kind"
  # shellcheck disable=SC2086
  "$gen_graph" --kind $kind --V 2000 --seed 7 >"$dir/b" || fail "gen_graph --kind $kind to stdout"
  # shellcheck disable=SC2086
  "$gen_graph" --kind $kind --V 2000 --seed 8 -o "$dir/c" || fail "gen_graph --kind $kind --seed 8"
  cmp -s "$dir/a" "$dir/b" || fail "--kind $kind: two files of seed 7 differ"
  cmp -s "$dir/a" "$dir/c" && fail "--kind $kind: seeds 7 and 8 give the same file"
  echo "ok: --kind $kind: the same file for the same seed, another for another"
done

# The road of the issue's target: (V-1)*wmax = 3.5e9 reaches 2^30 - 1, and it is written.
"$gen_graph" --kind road --V 100000 --wmax 35000 --long-edges 1000 -o "$dir/road" ||
  fail "the V = 100000 road was refused"
read -r V E <"$dir/road"
[ "$V $E" = "100000 400734" ] || fail "the V = 100000 road's header is '$V $E'"
echo "ok: the V = 100000 road with weights up to 35000 ($E edges)"

molecules() { "$gen_graph" --kind molecules --graphs 500 --min-n 3 --max-n 40 "$@"; }
molecules --seed 7 -o "$dir/m7.npz" && molecules --seed 7 -o "$dir/m7b.npz" &&
  molecules --seed 8 -o "$dir/m8.npz" || fail "gen_graph --kind molecules"
cmp -s "$dir/m7.npz" "$dir/m7b.npz" || fail "--kind molecules: two archives of seed 7 differ"
cmp -s "$dir/m7.npz" "$dir/m8.npz" && fail "--kind molecules: seeds 7 and 8 give the same archive"
if python3 -c "import numpy" 2>/dev/null; then
  python3 - "$dir/m7.npz" <<'PY' || fail "the molecules' archive is not what np.load should read"
import sys
import zipfile

import numpy as np

assert zipfile.ZipFile(sys.argv[1]).testzip() is None  # every member's CRC holds
z = np.load(sys.argv[1])
assert sorted(z.files) == ["edge_index", "ptr"], z.files
ptr, edges = z["ptr"], z["edge_index"]
assert ptr.dtype == np.int64 and ptr.shape == (501,) and ptr[0] == 0
assert edges.dtype == np.int64 and edges.shape[0] == 2
sizes = np.diff(ptr)
assert sizes.min() >= 3 and sizes.max() <= 40, (sizes.min(), sizes.max())
graph = np.searchsorted(ptr, edges[0], side="right") - 1
assert np.all(np.diff(graph) >= 0), "edges not grouped by graph"
assert np.all(edges[1] >= ptr[graph]) and np.all(edges[1] < ptr[graph + 1])
pairs = set(zip(edges[0].tolist(), edges[1].tolist()))
assert all((b, a) in pairs for a, b in pairs), "a bond one way only"
PY
  echo "ok: --kind molecules: the same archive for the same seed; ptr and edge_index as NumPy reads them"
fi
expect 2 "--kind molecules needs --graphs" "$gen_graph" --kind molecules -o "$dir/refused"
expect 2 "--kind molecules writes an .npz: give -o FILE" "$gen_graph" --kind molecules --graphs 3
expect 2 "--graphs applies to --kind molecules only" "$gen_graph" --kind chain --V 3 --graphs 3 \
  -o "$dir/refused"
expect 2 "--V is required" "$gen_graph" --kind chain -o "$dir/refused"
expect 2 "gen_graph: --long-edges applies to --kind road only" \
  "$gen_graph" --kind grid --V 10 --long-edges 3 -o "$dir/refused"
expect 2 "reaching the unreachable value 1073741823" \
  "$gen_graph" --kind road --V 1000000 --wmax 1073741822 --long-edges 1 -o "$dir/refused"
expect 2 "--attach: 0 is out of range" "$gen_graph" --kind social --V 10 --attach 0 -o "$dir/refused"
[ -e "$dir/refused" ] && fail "a refused spec wrote its file"
echo "all ok"
