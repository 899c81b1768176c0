#!/usr/bin/env bash
# apsp_report --db ranks entries measured on graph files (tuner --graph) per file: two files
# are two graphs, each with its own leaderboard, named "file PATH".
#   report_file_graphs.sh APSP_REPORT FIXTURES
set -u
report=$1 fixtures=$2
source "$(dirname "$0")/../support/cli_lib.sh"
dir=$(mktemp -d) || fail "mktemp -d"
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/db.json" <<'PY' || fail "python3 could not write the database"
import json, sys
def entry(file, batch2, ms):
    return {"device": {"name": "NVIDIA H200", "cc": "9.0", "sms": 132}, "variant": "batched",
            "n": 300, "config": {"batch2": batch2, "batch3": 2},
            "name": f"batched[batch2={batch2},batch3=2]",
            "graph": {"kind": "file", "density": 0, "wmax": 0, "file": file}, "seed": 1,
            "build": {"commit": "c", "kernels": "k"}, "status": "ok", "reason": "",
            "samples_ms": [ms], "median_ms": ms, "date": "d"}
json.dump({"schema": "apsp-tuning/2",
           "entries": [entry("a.gr", 1, 2.0), entry("a.gr", 2, 1.0), entry("b.gr", 1, 3.0)]},
          open(sys.argv[1], "w"))
PY
out=$("$report" "$fixtures/h200_bench.json" --format md --db "$dir/db.json") || fail "apsp_report exited $?"
grep -qF "| NVIDIA H200 | file a.gr | k | batched | 300 | 1 | batched[batch2=2,batch3=2] |" <<<"$out" ||
  fail "no first place on a.gr: $out"
grep -qF "| NVIDIA H200 | file b.gr | k | batched | 300 | 1 | batched[batch2=1,batch3=2] |" <<<"$out" ||
  fail "b.gr is not ranked alone: $out"
echo "ok: one leaderboard per graph file"
