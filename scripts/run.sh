#!/usr/bin/env bash
# The main job on this machine, from a fresh clone (README's quick start): scripts/setup.sh first
# (what is missing is installed and built), then, where there is a CUDA GPU, the benchmark
#   ./build/release/apsp_bench --n 1000,2500,10000
# and where there is none, the first run without a GPU: a seeded 6-vertex graph solved on the CPU
# and the tables of a shipped H200 run. It says which before it starts. Arguments replace the
# bench's --n 1000,2500,10000 (e.g. scripts/run.sh --n 2500 --variant sm90).
#   scripts/run.sh [APSP_BENCH_ARGS...]
# Exit: setup.sh's code when the set-up failed; else the last program's.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
scripts/setup.sh || exit $?
if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  (($#)) || set -- --n 1000,2500,10000
  echo "run: a CUDA GPU is here: ./build/release/apsp_bench $*"
  exec ./build/release/apsp_bench "$@"
fi
echo "run: no CUDA GPU here: the first run without a GPU (README.md), a 6-vertex graph solved on" \
     "the CPU, then the tables of a shipped H200 run"
set -e
./build/release/gen_graph --kind random --V 6 --density 0.5 --wmax 9 | ./build/release/apsp - --variant cpu
./build/release/apsp_report tests/fixtures/h200_bench.json --format md
