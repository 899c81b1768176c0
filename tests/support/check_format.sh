#!/usr/bin/env bash
# Every C++ and CUDA source of the tree is as the root .clang-format lays it out, by the
# clang-format that scripts/lint-requirements.txt pins (the wheel pip installs for python3:
# other versions break some lines differently), never whichever clang-format is first on PATH.
# Where it is missing or another version: skipped (77), except under CI=true, where that fails.
#   check_format.sh SOURCE_DIR
set -u
src=${1:?usage: check_format.sh SOURCE_DIR}
source "$(dirname "$0")/pinned_tool.sh"
want=$(pinned_version "$src" clang-format)
[ -n "$want" ] || { echo "no clang-format pin in $src/scripts/lint-requirements.txt"; exit 1; }
have=$(installed_version clang-format)
[ -n "$have" ] || unavailable "clang-format $want is not installed for $PYTHON: format not checked"
[ "$have" = "$want" ] ||
  unavailable "clang-format $have is installed for $PYTHON, not $want: format not checked"
# The wheel's own binary, not its console script, which may be shadowed on PATH.
cf=$("$PYTHON" -c 'import importlib.metadata as m
print(m.distribution("clang-format").locate_file("clang_format/data/bin/clang-format"))')
"$cf" --version 2>/dev/null | grep -q "version $want\b" ||
  unavailable "$cf does not run as clang-format $want: format not checked"
mapfile -t files < <(source_files "$src" '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
[ ${#files[@]} -gt 0 ] || { echo "no sources found under $src"; exit 1; }
cd "$src" || exit 1
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
if ! "$cf" --dry-run -Werror "${files[@]}" 2>"$log"; then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' "$log" | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
  echo "fix with: $cf -i FILE (the root .clang-format)"
  exit 1
fi
echo "${#files[@]} files formatted as .clang-format says, by clang-format $want"
