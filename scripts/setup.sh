#!/usr/bin/env bash
# Set-up for a fresh clone: installs what is missing from Debian/Ubuntu packages, checks that
# the CUDA toolkit is there, then configures and builds the release preset. Safe to run again.
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

cmake --preset release
cmake --build --preset release
echo "setup: built build/release; run the tests with: scripts/test.sh"
