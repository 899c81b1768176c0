#!/usr/bin/env bash
# The tree's Python files as ruff, at the version scripts/lint-requirements.txt pins, wants them
# (its configuration: [tool.ruff] in the root pyproject.toml).
#   check_ruff.sh format SOURCE_DIR: laid out as `ruff format` lays them out
#   check_ruff.sh lint SOURCE_DIR:   no finding of `ruff check`
# Where ruff is missing or another version: skipped (77), except under CI=true, where that fails.
set -u
mode=${1:?usage: check_ruff.sh format|lint SOURCE_DIR}
src=${2:?usage: check_ruff.sh format|lint SOURCE_DIR}
case $mode in
  format) args=(format --check --diff) ;;
  lint) args=(check --no-fix --output-format concise) ;;
  *) echo "check_ruff.sh: unknown mode $mode (format or lint)"; exit 2 ;;
esac
source "$(dirname "$0")/pinned_tool.sh"
want=$(pinned_version "$src" ruff)
[ -n "$want" ] || { echo "no ruff pin in $src/scripts/lint-requirements.txt"; exit 1; }
have=$(installed_version ruff)
[ -n "$have" ] || unavailable "ruff $want is not installed for $PYTHON: Python not checked"
[ "$have" = "$want" ] ||
  unavailable "ruff $have is installed for $PYTHON, not $want: Python not checked"
mapfile -t files < <(source_files "$src" '*.py')
[ ${#files[@]} -gt 0 ] || { echo "no Python files found under $src"; exit 1; }
cd "$src" || exit 1
# No cache folder in the tree: tests run in parallel and a source tree may be read-only.
if ! "$PYTHON" -m ruff "${args[@]}" --no-cache "${files[@]}"; then
  echo "fix with: $PYTHON -m ruff ${args[0]}$([ "$mode" = lint ] && echo ' --fix') FILE" \
    "(pyproject.toml's [tool.ruff])"
  exit 1
fi
echo "${#files[@]} Python files pass ruff $want ${args[0]}"
