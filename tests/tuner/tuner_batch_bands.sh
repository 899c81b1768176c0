#!/usr/bin/env bash
# tuner --graphs on the GPU (exit 77, skipped, without one): two bands of every batch_shared
# config, each verified on every graph; the database holds the default of each band, and each
# band's pick is the default or faster than it. Then the search resumes from that database with
# every entry's samples_ms dropped (an "ok" entry may leave them out) and must pick again.
#   tuner_batch_bands.sh TUNER OUT_DIR
set -u
tuner=$1 out=$2
mkdir -p "$out"
rm -f "$out/db.json" "$out/bands.json" "$out/db_no_samples.json" "$out/resumed.json"
"$tuner" --graphs 2000 --bands 32,128 --min-time 0.05 --db "$out/db.json" --json "$out/bands.json"
rc=$?
if [ $rc -eq 3 ]; then echo "no GPU: skipped"; exit 77; fi
[ $rc -eq 0 ] || { echo "tuner exited $rc"; exit 1; }
python3 - "$out/db.json" "$out/bands.json" <<'PY' || exit 1
import json, sys
db = json.load(open(sys.argv[1]))
bands = json.load(open(sys.argv[2]))["bands"]
assert len(bands) == 2, bands
for b in bands:
    assert b["pick_ms"] <= b["default_ms"], b
    keys = [e for e in db["entries"] if e["n"] == b["band_n"] and e["name"] == b["default"]]
    assert keys and keys[0]["status"] == "ok", b
print("bands:", [(b["band_n"], b["pick"], b["pick_ms"], b["default_ms"]) for b in bands])
PY
python3 - "$out/db.json" "$out/db_no_samples.json" <<'PY' || exit 1
import json, sys
db = json.load(open(sys.argv[1]))
for e in db["entries"]:
    e.pop("samples_ms", None)
json.dump(db, open(sys.argv[2], "w"))
PY
"$tuner" --graphs 2000 --bands 32,128 --db "$out/db_no_samples.json" --json "$out/resumed.json" ||
  { echo "resumed tuner exited $?"; exit 1; }
python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))["bands"]) == 2' \
  "$out/resumed.json" || exit 1
