#!/usr/bin/env bash
# Fails if naive's kernel (kernels/naive.cuh), the baseline of every speedup, compiles to PTX
# with an integer division or remainder. A row-stride loop made nvcc divide for its
# trip count in every thread and naive ran 30% slow on the H200 (docs/perf-notes.md);
# that kernel's PTX has a div.u32, today's none. CPU only: nvcc -ptx, no GPU.
#   naive_ptx.sh NVCC SOURCE_DIR
set -u
nvcc=$1 src=$2
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cat >"$dir/naive_ptx.cu" <<'CU'
#include "kernels/naive.cuh"
// Takes the kernel's address so that nvcc emits it.
void* naive_step_address() { return reinterpret_cast<void*>(&apsp::kernels::naive_step); }
CU
if ! "$nvcc" -std=c++20 -ptx -arch=sm_90 -I"$src" "$dir/naive_ptx.cu" -o "$dir/naive.ptx" 2>"$dir/err"; then
  echo "nvcc failed:"; cat "$dir/err"; exit 1
fi
# The entry of naive_step, from its .entry line to the closing brace of its body.
body=$(sed -n '/\.entry .*naive_step/,/^}/p' "$dir/naive.ptx")
[ -n "$body" ] || { echo "no naive_step entry in the PTX"; exit 1; }
if divisions=$(grep -E '^\s*(@!?%p[0-9]+\s+)?(div|rem)\.' <<<"$body"); then
  echo "naive_step divides in every thread:"
  echo "$divisions"
  exit 1
fi
echo "naive_step: $(grep -cE '^\s+[a-z@]' <<<"$body") PTX lines, no div or rem"
