#!/usr/bin/env bash
# cmake --install into a fresh prefix, then the installed apsp_report, run from elsewhere, must
# find its plotting script in the prefix; the host-only programs must not name the source or
# build tree; moved away from its script, apsp_report must say so in one line.
#   install_check.sh CMAKE BUILD_DIR SOURCE_DIR FIXTURES_DIR REPORT_PLOTS_SH
set -u
cmake=$1 build=$2 source=$3 fixtures=$4 report_plots=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log"; echo "cmake --install failed"; exit 1; }
for f in bin/apsp_bench bin/tuner bin/apsp bin/gen_graph bin/apsp_report bin/closure_probe \
         share/apsp-kernel-lab/plot_results.py; do
  [ -f "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
# Host-only programs: no path of this machine's trees (the CUDA programs' device line tables,
# from -lineinfo, do hold the source paths: nvcc has no prefix map for them).
for prog in apsp_report gen_graph; do
  if strings -a "$prefix/bin/$prog" | grep -F -e "$source" -e "$build"; then
    echo "$prog names the source or build tree (above)"
    exit 1
  fi
done

unset APSP_PLOT_SCRIPT
mkdir "$tmp/elsewhere"
cd "$tmp/elsewhere" || exit 1
if python3 -c 'import matplotlib' 2>/dev/null; then
  "$report_plots" "$prefix/bin/apsp_report" "$fixtures" || exit 1
else
  "$prefix/bin/apsp_report" "$fixtures/h200_bench.json" --out "$tmp/r" 2>"$tmp/err" \
    || { cat "$tmp/err"; exit 1; }
  ! grep -q "plot_results.py" "$tmp/err" || { cat "$tmp/err"; exit 1; }
fi

# A lone copy of the program: no script beside it nor in ../share.
mkdir "$tmp/lone"
cp "$prefix/bin/apsp_report" "$tmp/lone/"
"$tmp/lone/apsp_report" "$fixtures/h200_bench.json" --out "$tmp/r2" 2>"$tmp/err" \
  || { cat "$tmp/err"; exit 1; }
expected="apsp_report: Plots skipped: plot_results.py is neither at $tmp/lone/plot_results.py nor at $tmp/share/apsp-kernel-lab/plot_results.py (set APSP_PLOT_SCRIPT)."
[ "$(cat "$tmp/err")" = "$expected" ] || { echo "expected: $expected"; echo "got: $(cat "$tmp/err")"; exit 1; }
# ... and an override naming no script: refused before any work (exit 2), nothing written.
APSP_PLOT_SCRIPT=$tmp/nowhere.py "$tmp/lone/apsp_report" "$fixtures/h200_bench.json" --out "$tmp/r3" \
  2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] || { echo "APSP_PLOT_SCRIPT naming no file: exit $rc, expected 2"; exit 1; }
grep -qx "apsp_report: APSP_PLOT_SCRIPT=$tmp/nowhere.py: no such file (unset it for the default plotting script)" "$tmp/err" \
  || { echo "got: $(cat "$tmp/err")"; exit 1; }
[ ! -e "$tmp/r3" ] || { echo "APSP_PLOT_SCRIPT naming no file: $tmp/r3 was made"; exit 1; }
echo "installed under a temporary prefix; the installed apsp_report plots from $tmp/elsewhere"
