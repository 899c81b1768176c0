#!/usr/bin/env bash
# tuner --graph FILE without a GPU (the GPU hidden): the file is read and checked before any work
# (what auto chose on stderr; a fault with its line and column, exit 2), its V is the one size of
# the dry run, and a search then stops at the missing device (exit 3).
#   tuner_graph_file.sh TUNER GEN_GRAPH
set -u
tuner=$1 gen_graph=$2
source "$(dirname "$0")/../support/cli_lib.sh"
export CUDA_VISIBLE_DEVICES=
dir=$(mktemp -d) || fail "mktemp -d"
trap 'rm -rf "$dir"' EXIT

"$gen_graph" --kind road --V 300 --wmax 35000 --long-edges 10 -o "$dir/road.txt" || fail "gen_graph"
# The same graph as DIMACS .gr.gz: 1-based arcs.
{
  read -r V E
  echo "p sp $V $E"
  while read -r u v w; do echo "a $((u + 1)) $((v + 1)) $w"; done
} <"$dir/road.txt" | gzip >"$dir/road.gr.gz" || fail "writing road.gr.gz"

out=$("$tuner" --dry-run --search batch --variant batched --graph "$dir/road.gr.gz" --db "$dir/db.json" 2>"$dir/err")
rc=$?
[ $rc -eq 0 ] || fail "dry run exited $rc: $(cat "$dir/err")"
grep -qF "tuner: input format: dimacs, by the extension .gr" "$dir/err" || fail "stderr: $(cat "$dir/err")"
grep -qF "n = 300:" <<<"$out" || fail "the dry run does not plan n = 300 (the file's V): $out"
grep -qF "n = 2500" <<<"$out" && fail "the dry run plans the default sizes, not the file's V: $out"
grep -qF "graph: $dir/road.gr.gz (V = 300, " <<<"$out" || fail "the dry run does not name the graph file: $out"
echo "ok: the dry run plans n = 300 on $dir/road.gr.gz"

# A malformed file: one line with its line and column, exit 2, no database started.
printf 'p sp 3 2\na 1 2 5\na 1 9 5\n' >"$dir/bad.gr"
expect 2 "$dir/bad.gr:3:5:" "$tuner" --search batch --graph "$dir/bad.gr" --db "$dir/bad-db.json"
[ -e "$dir/bad-db.json" ] && fail "a database was started for a refused graph"
expect 2 "tuner: --input-format: bogus not in" "$tuner" --graph "$dir/road.txt" --input-format bogus
# The file is an input: an output naming it is refused before any work.
expect 2 "are the same file" "$tuner" --search batch --graph "$dir/road.txt" --json "$dir/road.txt"
# A real search needs the GPU: the graph is read first, then exit 3.
expect 3 "tuner: no CUDA device found" "$tuner" --search batch --graph "$dir/road.txt" --db "$dir/db.json"
echo "all ok"
