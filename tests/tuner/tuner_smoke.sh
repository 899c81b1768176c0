#!/usr/bin/env bash
# The tuner on the GPU at a small n: it measures every compiled sm90 config and prints a
# leaderboard; a rerun measures nothing (the database resumes); --fresh measures again. Last,
# one point above the CPU reference's range (n = 2100, verified against naive's output: the
# tuner's default reference there, "auto", once named no variant and every such n failed).
# Exit 77 (skipped) without a GPU.   tuner_smoke.sh TUNER
set -u
tuner=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { "$tuner" --search tile --variant sm90 --n 100 --min-time 0.01 --db "$dir/db.json" "$@" 2>&1; }
out=$(run); rc=$?
[ $rc -eq 3 ] && { echo "no GPU: skipped"; exit 77; }
echo "$out"
[ $rc -eq 0 ] || { echo "tuner exited $rc"; exit 1; }
# Every compiled sm90 config is measured once (combinations without a kernel are skipped).
measured() { sed -n 's/^sm90 at n = 100: grid search evaluated [0-9]* point(s), \([0-9]*\) measured now.*/\1/p' <<<"$1"; }
points=$(measured "$out")
[ -n "$points" ] && [ "$points" -ge 6 ] || { echo "first run measured '${points}' points"; exit 1; }
# On an empty database every point it evaluated was measured now.
evaluated=$(sed -n 's/^sm90 at n = 100: grid search evaluated \([0-9]*\) point(s).*/\1/p' <<<"$out")
[ "$evaluated" = "$points" ] || { echo "evaluated '$evaluated' points, measured $points"; exit 1; }
grep -q "^1 .*sm90\[" <<<"$out" || { echo "no leaderboard"; exit 1; }
out=$(run) || { echo "rerun failed"; exit 1; }
[ "$(measured "$out")" = 0 ] || { echo "rerun measured again: $out"; exit 1; }
out=$(run --fresh) || { echo "--fresh failed"; exit 1; }
[ "$(measured "$out")" = "$points" ] || { echo "--fresh did not remeasure: $out"; exit 1; }
python3 - "$dir/db.json" "$points" <<'PY'
import json, sys
db = json.load(open(sys.argv[1]))
points = int(sys.argv[2])
assert db["schema"] == "apsp-tuning/2"
names = sorted(e["name"] for e in db["entries"])
assert len(names) == points + 1 and len(set(names)) == points + 1, names  # naive + sm90, no duplicates
assert all(e["status"] == "ok" and e["median_ms"] > 0 and e["samples_ms"] for e in db["entries"])
print("database:", len(names), "entries")
PY
out=$("$tuner" --search tile --variant sm90 --n 2100 --budget 1 --min-time 0.01 --db "$dir/db2100.json" 2>&1) ||
  { echo "tuner at n = 2100 failed: $out"; exit 1; }
grep -qE "^sm90 at n = 2100: .* [1-9][0-9]* measured now" <<<"$out" || { echo "tuner at n = 2100 measured nothing: $out"; exit 1; }
echo "ok: the tuner verifies above the CPU reference's range"
