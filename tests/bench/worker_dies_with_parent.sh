#!/usr/bin/env bash
# The kernel worker (apsp_worker --serve, started by apsp_bench and the tuner for --kernel) never
# outlives the program that started it, even when it never sees the end of its input (a kernel
# that hangs, or here: its input held open by someone else): a program stopped by a signal
# leaves no worker holding the GPU. No GPU needed: without one the worker waits for its first
# command to answer it with the error.
#   worker_dies_with_parent.sh APSP_WORKER
set -u
worker=$1
dir=$(mktemp -d)
fail() { echo "FAIL: $*"; exit 1; }
mkfifo "$dir/input"
exec 3<>"$dir/input"  # held open here: the worker's input never ends
trap 'exec 3>&-; rm -rf "$dir"' EXIT
# The parent: starts the worker, says its pid, then waits in place (exec: the same process).
bash -c '"$1" --serve <"$2" >/dev/null 2>&1 & echo $! >"$3.tmp"; mv "$3.tmp" "$3"; exec sleep 100000' \
  parent "$worker" "$dir/input" "$dir/pid" &
parent=$!
state() { sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null; }
waited=0
# Until the worker runs its own program and waits for input (past its first lines).
until [ -f "$dir/pid" ] && pid=$(cat "$dir/pid") &&
      [ "$(readlink -f "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$worker")" ] &&
      [ "$(state "$pid")" = S ]; do
  ((waited++ < 3000)) || fail "the worker did not start within 300 s"
  sleep 0.1
done
kill -KILL "$parent"
wait "$parent" 2>/dev/null
waited=0
while [ -n "$(state "$pid")" ] && [ "$(state "$pid")" != Z ]; do
  ((waited++ < 3000)) || { kill -KILL "$pid"; fail "the worker $pid outlived its parent"; }
  sleep 0.1
done
echo "ok: the worker ended with its parent"
