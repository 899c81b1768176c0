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
