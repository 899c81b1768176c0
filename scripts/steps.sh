# Sourced by the device scripts (device-check.sh, multi-gpu-check.sh), after they set $logs: a
# step runs one command into a log there and records PASS or FAIL, for the summary printed last.
summary=()
step() {  # step LOG NAME COMMAND...: runs, appends to $logs/LOG.log, records PASS/FAIL
  local log=$1 name=$2; shift 2
  local t0=$SECONDS
  echo "=== $name: $*" >>"$logs/$log.log"
  if "$@" >>"$logs/$log.log" 2>&1; then summary+=("PASS  $name ($((SECONDS - t0)) s)")
  else summary+=("FAIL  $name ($((SECONDS - t0)) s): see $log.log"); fi
}
# Prints the summary (also to $logs/summary.txt); false if a step failed.
summary_passed() {
  printf '%s\n' "${summary[@]}" | tee "$logs/summary.txt"
  ! grep -q '^FAIL' "$logs/summary.txt"
}
