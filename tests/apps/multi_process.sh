#!/usr/bin/env bash
# apsp and apsp_bench as a cluster launcher runs them: one process per rank, each told who it is
# by torchrun's variables (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT), here P = 2 and
# 4 processes on this host. apsp's distances, certified, must be the bytes one GPU writes; the
# bench's P-GPU runs must be verified (against the CPU reference, and by the certificate), and
# only process 0 may print or write.
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

# P processes of PROGRAM ARGS..., rank 0's stderr in $tmp/err.0 and so on; the exit codes in
# $tmp/rc.R. launch P ARGS... runs apsp.
launch_program() {
  local program=$1 P=$2; shift 2
  local port; port=$(free_port)
  local r
  for ((r = 0; r < P; r++)); do
    (
      export RANK=$r WORLD_SIZE=$P LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port
      export APSP_RENDEZVOUS_TIMEOUT=60
      if [ "$gpus" -lt "$P" ]; then
        export NCCL_HOSTID="apsp-test-$r" NCCL_SOCKET_IFNAME=lo NCCL_IB_DISABLE=1
      fi
      "$build/$program" "$@" 2>"$tmp/err.$r" >"$tmp/out.$r"
      echo $? >"$tmp/rc.$r"
    ) &
  done
  wait
}
launch() { launch_program apsp "$@"; }
# Every process of the last launch of P exited CODE.
all_exited() {
  local P=$1 code=$2 what=$3 r
  for ((r = 0; r < P; r++)); do
    [ "$(cat "$tmp/rc.$r")" = "$code" ] || fail "$what: process $r exited $(cat "$tmp/rc.$r"): $(cat "$tmp/err.$r")"
  done
}
# PROGRAM ARGS... under 2 processes: refused by both before any work (exit 2), process 0 saying
# TEXT, NEVER not written.
expect_refused() {
  local program=$1 text=$2 never=$3; shift 3
  launch_program "$program" 2 "$@"
  all_exited 2 2 "$program $*"
  grep -q "$text" "$tmp/err.0" || fail "$program $*: $(cat "$tmp/err.0")"
  [ ! -e "$never" ] || fail "$program $*: $never was written"
}

for P in 2 4; do
  rm -f "$tmp"/rc.* "$tmp/multi.bin"
  # --gpus all under a launcher is every process's GPU, not this host's (P = 2: fewer than a host
  # of four has); left out, it is the same.
  all=(); [ "$P" -eq 2 ] && all=(--gpus all)
  launch $P "$tmp/g.txt" "${all[@]}" --verify --timing --format bin -o "$tmp/multi.bin"
  all_exited $P 0 "P = $P"
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
expect_refused apsp "one GPU a process" "$tmp/never.txt" "$tmp/g.txt" --gpus 3 -o "$tmp/never.txt"
echo "apsp under a launcher: the bytes of one GPU, P = 2 and 4"

# The bench: every process runs the plan, sm90 on P GPUs collectively (each process its rank);
# its one-GPU runs in each process alone. Process 0 prints and writes the --json file.
only_process_0_speaks() {
  for ((r = 1; r < $1; r++)); do
    [ ! -s "$tmp/err.$r" ] && [ ! -s "$tmp/out.$r" ] || fail "$2: process $r printed: $(cat "$tmp/err.$r" "$tmp/out.$r")"
  done
}
for P in 2 4; do
  rm -f "$tmp"/rc.* "$tmp/bench.json"
  launch_program apsp_bench $P --variant sm90 --n 777,1531 --gpus 1,$P --reps 3 --min-reps 3 \
    --json "$tmp/bench.json"
  all_exited $P 0 "bench, P = $P"
  python3 - "$tmp/bench.json" "$P" <<'PY' || fail "bench, P = $P: $(cat "$tmp/out.0")"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
P = int(sys.argv[2])
for n in (777, 1531):
    multi = [r for r in runs if r["n"] == n and r["gpus"] == P]
    assert len(multi) == 1 and multi[0]["verified"] == "cpu-reference", (n, multi)
    assert multi[0]["median_ms"] > 0 and len(multi[0]["samples_ms"]) == 3, multi[0]
PY
  only_process_0_speaks $P "bench, P = $P"
  echo "bench P = $P: verified against the CPU reference, process 0 alone wrote"
done
rm -f "$tmp"/rc.* "$tmp/bench.json"
launch_program apsp_bench 2 --variant sm90 --n 2500 --gpus 2 --verify certificate --reps 3 \
  --json "$tmp/bench.json"
all_exited 2 0 "bench, certificate"
grep -q '"verified": "certificate"' "$tmp/bench.json" || fail "bench, certificate: $(cat "$tmp/out.0")"
only_process_0_speaks 2 "bench, certificate"
# A --gpus count other than 1 and P: refused by every process before any work (exit 2).
expect_refused apsp_bench "each count is 1 or 2" "$tmp/never.json" --variant sm90 --n 777 --gpus 3 \
  --json "$tmp/never.json"
echo "apsp_bench under a launcher: P = 2 and 4 verified, the certificate, a wrong --gpus refused"
