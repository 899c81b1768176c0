#!/usr/bin/env bash
# Every C++ and CUDA source of the tree is as the root .clang-format lays it out, by
# clang-format 14 (the version the tree was formatted with: others break some lines
# differently). Exit 77 (skipped) where that version is not installed.
#   check_format.sh SOURCE_DIR
set -u
src=${1:?usage: check_format.sh SOURCE_DIR}
cf=""
for c in clang-format-14 clang-format; do
  command -v "$c" >/dev/null || continue
  "$c" --version | grep -q 'version 14\.' && { cf=$c; break; }
done
[ -n "$cf" ] || { echo "clang-format 14 is not installed: format not checked"; exit 77; }
cd "$src" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h')
else  # a copy of the tree without its history
  mapfile -t files < <(find . -path ./build -prune -o -path ./.deps -prune -o \
    \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) -print)
fi
[ ${#files[@]} -gt 0 ] || { echo "no sources found under $src"; exit 1; }
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
if ! "$cf" --dry-run -Werror "${files[@]}" 2>"$log"; then
  grep -o '^[^:]*:[0-9]*:[0-9]*: error' "$log" | cut -d: -f1 | sort -u | sed 's/^/not formatted: /'
  echo "fix with: $cf -i FILE (the root .clang-format)"
  exit 1
fi
echo "${#files[@]} files formatted as .clang-format says"
