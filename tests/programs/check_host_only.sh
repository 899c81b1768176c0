#!/usr/bin/env bash
# Fails if a program that must run without the CUDA runtime (apsp_report) links it anyway:
# checked on the link command (a static cudart that no symbol pulls in would not show in the
# binary, but is one include away from being used), the symbols, and the shared libraries.
#   check_host_only.sh BINARY [NINJA BUILD_DIR TARGET]
set -u
binary=$1
fail=0
if [ $# -ge 4 ]; then
  # ninja -t commands lists every command that builds TARGET; the link is the last one.
  link=$("$2" -C "$3" -t commands "$4" | tail -n 1)
  [ -n "$link" ] || { echo "no link command for $4"; exit 1; }
  if grep -Eiq 'cudart|libcuda|/cuda[^ ]*/lib' <<<"$link"; then
    echo "$4's link line names the CUDA runtime:"
    echo "$link"
    fail=1
  fi
fi
if ! syms=$(nm -C "$binary" 2>&1); then
  echo "nm failed on $binary: $syms"
  exit 1
fi
if cuda_syms=$(grep -Ei '\bcuda|__cuda|cudart' <<<"$syms"); then
  echo "$binary has CUDA symbols:"
  head -n 10 <<<"$cuda_syms"
  fail=1
fi
if libs=$(ldd "$binary" 2>&1) && grep -Ei 'libcuda|libcudart' <<<"$libs"; then
  echo "$binary loads the CUDA libraries above"
  fail=1
fi
[ $fail -eq 0 ] && echo "$binary: no CUDA in its link line, symbols or shared libraries"
exit $fail
