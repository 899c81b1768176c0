# The package under test: the build tree's (APSP_LAB_PYTHONPATH, set by CTest), else whatever
# `import apsp_lab` finds (an installed one).
import os
import sys

_path = os.environ.get("APSP_LAB_PYTHONPATH")
if _path and _path not in sys.path:
    sys.path.insert(0, _path)


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA device")
