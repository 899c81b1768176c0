#!/usr/bin/env bash
# Set-up for a fresh clone: installs what is missing from Debian/Ubuntu packages and pip, checks
# that the CUDA toolkit is there, configures and builds the release preset, then installs the
# Python package apsp_lab from that same build. Safe to run again: what is there is kept, and a
# second run builds and installs only what changed. scripts/run.sh and scripts/test.sh run it
# first, so a fresh clone needs only one of them.
set -euo pipefail
cd "$(dirname "$0")/.."

# libbenchmark-tools: Google Benchmark's compare.py (/usr/share/benchmark), which a test runs on
# apsp_bench's --gbench-json files.
packages=(g++ cmake ninja-build git python3 python3-pip libfmt-dev nlohmann-json3-dev libbenchmark-dev libgtest-dev zlib1g-dev
          libbenchmark-tools libcli11-dev clang)
# Debian's headless Chromium and a font: the HTML report's browser test (tests/reports) opens
# the page in it; under CI=true a missing browser fails that test.
if apt-cache show chromium >/dev/null 2>&1; then packages+=(chromium fonts-dejavu-core); fi
# clang's libFuzzer and sanitizer runtimes (the fuzz tests, tests/fuzz): only a recommendation of
# clang, so named here; a release that packs them into clang itself has no such package.
if apt-cache show libclang-rt-dev >/dev/null 2>&1; then packages+=(libclang-rt-dev); fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
else
  echo "setup: all packages present"
fi

if ! command -v nvcc >/dev/null; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  else
    echo "setup: nvcc not found. Install the CUDA toolkit (12.4 or newer) and put its bin/ on" \
         "PATH, e.g. export PATH=/usr/local/cuda/bin:\$PATH" >&2
    exit 1
  fi
fi
echo "setup: $(nvcc --version | tail -n 1)"

# matplotlib for apsp_report's plots, for the python3 the tools will call.
if ! python3 -c 'import matplotlib' 2>/dev/null; then
  echo "setup: installing matplotlib for $(command -v python3)"
  python3 -m pip install --quiet matplotlib || DEBIAN_FRONTEND=noninteractive ${sudo:-} apt-get install -y -qq python3-matplotlib >/dev/null
fi

# numpy and scipy for compare.py, for the same python3.
if ! python3 -c 'import numpy, scipy' 2>/dev/null; then
  echo "setup: installing numpy and scipy for $(command -v python3)"
  python3 -m pip install --quiet numpy scipy || DEBIAN_FRONTEND=noninteractive ${sudo:-} apt-get install -y -qq python3-scipy >/dev/null
fi

# networkx for the graph-format test (tests/apps/graph_files.py), which writes graphs with NetworkX.
if ! python3 -c 'import networkx' 2>/dev/null; then
  echo "setup: installing networkx for $(command -v python3)"
  python3 -m pip install --quiet networkx || DEBIAN_FRONTEND=noninteractive ${sudo:-} apt-get install -y -qq python3-networkx >/dev/null
fi

# The Python package's build (nanobind, scikit-build-core) and its tests (pytest), for the same
# python3: configured below, the release build makes the module too (python/).
if ! python3 -c 'import nanobind, scikit_build_core, pytest' 2>/dev/null; then
  echo "setup: installing nanobind, scikit-build-core and pytest for $(command -v python3)"
  python3 -m pip install --quiet nanobind scikit-build-core pytest
fi

# The pinned formatter and linter (scripts/lint-requirements.txt: the clang-format the C++ was
# formatted with, and ruff), for the same python3: the format, ruff_format and ruff_lint tests use
# exactly these versions, whatever else is on PATH, and fail under CI without them.
pins_installed='import importlib.metadata as m, sys
pins = [line.split("#")[0].strip() for line in open(sys.argv[1])]
sys.exit(any(m.version(p.split("==")[0]) != p.split("==")[1] for p in pins if p))'
if ! python3 -c "$pins_installed" scripts/lint-requirements.txt 2>/dev/null; then
  echo "setup: installing $(grep -v '^#' scripts/lint-requirements.txt | xargs) for $(command -v python3)"
  python3 -m pip install --quiet -r scripts/lint-requirements.txt
fi

cmake --preset release >/dev/null
cmake --build --preset release

# apsp_lab for the same python3, from the module the build above made: the kernels are compiled
# once (python/from_build.cmake; a plain `python3 -m pip install .` builds a tree of its own).
# Skipped while the installed copy is this build's: the stamp names the python3 it went to and is
# newer than the module, the package's sources in the build tree and pyproject.toml.
stamp=build/release/python-wheel/installed-for
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(command -v python3)" ] ||
   [ -n "$(find build/release/python/apsp_lab pyproject.toml -newer "$stamp" \
             -not -path '*/__pycache__*' -print -quit)" ] ||
   ! (cd / && python3 -c 'import apsp_lab' 2>/dev/null); then
  echo "setup: installing apsp_lab for $(command -v python3) from build/release"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --no-build-isolation \
    -C build-dir=build/release/python-wheel \
    -C cmake.define.APSP_PYTHON_FROM_BUILD=build/release .
  command -v python3 > "$stamp"
fi
echo "setup: build/release is built and apsp_lab installed"
