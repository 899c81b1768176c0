#!/usr/bin/env bash
# On a GPU machine: tune every variant's parameters at the policy sizes and write this device's
# policy table (policies/<device>.json) with its provenance. Commit the file; the programs
# compile it in and use it as each variant's default per n on this device model.
#   scripts/tune-policy.sh [BUILD_DIR] [extra tuner options]
# The sizes bracket the changes the notes measured (tile 64 with look-ahead 2 at n = 1000,
# look-ahead 1 at 2500, tile 128 at 10000); ranges meet at the geometric means between them.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
shift || true
db=${APSP_POLICY_DB:-policy-tuning.json}
device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
name=$(tr 'A-Z' 'a-z' <<<"$device" | tr -cs 'a-z0-9' '-' | sed 's/-$//')
"$build/tuner" --search all --n 1000,2500,5000,10000 --min-time 0.2 --db "$db" "$@"
# sm90's picks change most between those sizes (tile 64's schedules; docs/perf-notes.md).
"$build/tuner" --search tile --variant sm90 --n 1600,2000,3000,4000 --min-time 0.2 --db "$db" "$@"
"$build/tuner" --emit-policy "policies/$name.json" --db "$db"
# sm90_u16 solves only graphs whose distances fit 16 bits: tuned on unweighted ones, in a table
# of its own for the same device (harness/tune/policy.hpp reads both).
"$build/tuner" --search tile --variant sm90_u16 --wmax 1 --n 1000,2500,5000,10000 --min-time 0.2 \
  --db "${db%.json}-u16.json" --emit-policy "policies/$name-u16.json" "$@"
