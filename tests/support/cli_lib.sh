# Shared by the CLI test scripts (source it): fail, and expect, which runs a program and checks
# its exit code and its stderr.
fail() { echo "FAIL: $*"; exit 1; }
# expect RC TEXT PROGRAM ARGS...: exit code RC, TEXT on stderr (and stderr's last line names it)
expect() {
  local rc=$1 text=$2; shift 2
  local err
  err=$("$@" 2>&1 >/dev/null)
  local got=$?
  [ $got -eq "$rc" ] || fail "$* exited $got, expected $rc: $err"
  grep -qF -- "$text" <<<"$err" || fail "$*: stderr lacks '$text': $err"
  echo "ok ($rc): $* -> $(tail -n 1 <<<"$err")"
}
# json_changed IN OUT PYTHON: the JSON file IN with the statement PYTHON applied to it (as d), into
# OUT (a reader's test: one value changed)
json_changed() {
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))' \
    "$1" "$2" "$3" || fail "python3 could not write $2"
}
