#!/usr/bin/env bash
# apsp as a cluster launcher runs it: one process per rank, each told who it is by torchrun's
# variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT), here P = 2 and 4 processes on
# this host; their distances, certified, must be the bytes one GPU writes.
#   multi_process.sh BUILD_DIR        (77: no GPU, or a build without NCCL)
# Where the host has fewer GPUs than P, the processes share GPU 0, and each says through
# NCCL_HOSTID that it is a host of its own (NCCL refuses two ranks on one GPU of one host): the
# panels and bands then go through NCCL's socket transport on the loopback, as between hosts.
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$build/apsp" "$(dirname "$0")/../data/single.txt" --variant naive >/dev/null 2>&1
[ $? -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
# 3 components (unreachable pairs), zero weights, duplicates (E drawn with replacement); V a
# multiple of no tile.
"$build/gen_graph" --kind components --components 3 --V 1531 --density 0.004 --wmin 0 --wmax 9 \
  --seed 44 -o "$tmp/g.txt" || fail "gen_graph"
"$build/apsp" "$tmp/g.txt" --format bin -o "$tmp/one.bin" 2>"$tmp/err" || fail "one GPU: $(cat "$tmp/err")"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# P processes of apsp ARGS..., rank 0's stderr in $tmp/err.0 and so on; the exit codes in $tmp/rc.R.
launch() {
  local P=$1; shift
  local port; port=$(free_port)
  local r
  for ((r = 0; r < P; r++)); do
    (
      export RANK=$r WORLD_SIZE=$P LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port
      export APSP_RENDEZVOUS_TIMEOUT=60
      if [ "$gpus" -lt "$P" ]; then
        export NCCL_HOSTID="apsp-test-$r" NCCL_SOCKET_IFNAME=lo NCCL_IB_DISABLE=1
      fi
      "$build/apsp" "$@" 2>"$tmp/err.$r" >"$tmp/out.$r"
      echo $? >"$tmp/rc.$r"
    ) &
  done
  wait
}

for P in 2 4; do
  rm -f "$tmp"/rc.* "$tmp/multi.bin"
  launch $P "$tmp/g.txt" --verify --timing --format bin -o "$tmp/multi.bin"
  for ((r = 0; r < P; r++)); do
    [ "$(cat "$tmp/rc.$r")" = 0 ] || fail "P = $P: process $r exited $(cat "$tmp/rc.$r"): $(cat "$tmp/err.$r")"
  done
  cmp -s "$tmp/multi.bin" "$tmp/one.bin" || fail "P = $P: the bytes differ from one GPU's"
  grep -q "verified: the shortest-path certificate holds" "$tmp/err.0" || fail "P = $P: no verdict: $(cat "$tmp/err.0")"
  grep -q "solving with sm90.* on $P " "$tmp/err.0" || fail "P = $P: $(cat "$tmp/err.0")"
  # only process 0 speaks
  for ((r = 1; r < P; r++)); do
    [ ! -s "$tmp/err.$r" ] && [ ! -s "$tmp/out.$r" ] || fail "P = $P: process $r printed: $(cat "$tmp/err.$r")"
  done
  echo "P = $P: $(grep -c . "$tmp/err.0") lines from process 0, the bytes of one GPU"
done

# A --gpus that disagrees with the launcher: refused at once by every process (exit 2).
launch 2 "$tmp/g.txt" --gpus 3 -o "$tmp/never.txt"
for r in 0 1; do
  [ "$(cat "$tmp/rc.$r")" = 2 ] || fail "--gpus 3 under 2 processes: process $r exited $(cat "$tmp/rc.$r")"
done
grep -q "one GPU a process" "$tmp/err.0" || fail "--gpus 3: $(cat "$tmp/err.0")"
[ ! -e "$tmp/never.txt" ] || fail "--gpus 3: an output was written"
echo "apsp under a launcher: the bytes of one GPU, P = 2 and 4"
