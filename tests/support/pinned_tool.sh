# Sourced by the format and lint tests: the pinned version of a formatter or linter
# (scripts/lint-requirements.txt), where pip installed it for $PYTHON (python3 by default), and
# what a test does when it is missing: skip (77) with the reason, except under CI (CI=true), where
# scripts/setup.sh has installed it, so its absence fails (1).
#   source pinned_tool.sh; pinned_version SOURCE_DIR NAME; installed_version NAME; unavailable WHY
PYTHON=${PYTHON:-python3}

# The version scripts/lint-requirements.txt pins NAME to.
pinned_version() {
  sed -n "s/^$2==\([^ ]*\).*/\1/p" "$1/scripts/lint-requirements.txt"
}

# The version of pip's NAME for $PYTHON; empty where it is not installed.
installed_version() {
  "$PYTHON" -c 'import importlib.metadata as m, sys; print(m.version(sys.argv[1]))' "$1" 2>/dev/null
}

# A tool that is missing or of another version: one line saying so, then exit 1 under CI, 77
# elsewhere.
unavailable() {
  if [ "${CI:-}" = true ]; then
    echo "FAILED: $1 (CI=true, and scripts/setup.sh installs it)"
    exit 1
  fi
  echo "skipped: $1 (install it with scripts/setup.sh or" \
    "$PYTHON -m pip install -r scripts/lint-requirements.txt)"
  exit 77
}

# The tree's tracked files matching the patterns, or a copy's (no history) found by name.
source_files() {
  local src=$1
  shift
  if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$src" ls-files "$@"
  else
    local names=() p
    for p in "$@"; do names+=(-o -name "$p"); done
    (cd "$src" && find . -path ./build -prune -o -path ./.deps -prune -o \( "${names[@]:1}" \) -print)
  fi
}
