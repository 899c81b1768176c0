"""What a plain `pip install .` configures: the project with pyproject.toml's CMake defines
(the libraries and the module only: no programs, no tests), in a scratch folder, must configure
and have the module target _core. scripts/setup.sh installs apsp_lab from build/release instead,
so CI builds the kernels once; this keeps the package's own build path from breaking unseen.

    pip_configures.py SOURCE_DIR

Exit 0 configured with _core; 1 not; 77 (skipped) where neither tomllib nor tomli is there.
"""

import subprocess
import sys
import tempfile

try:
    import tomllib
except ModuleNotFoundError:
    try:
        import tomli as tomllib
    except ModuleNotFoundError:
        print("skipped: no TOML reader (Python 3.11's tomllib, or pip install tomli)")
        sys.exit(77)


def main(source):
    with open(f"{source}/pyproject.toml", "rb") as f:
        defines = tomllib.load(f)["tool"]["scikit-build"]["cmake"]["define"]
    args = [f"-D{name}={value}" for name, value in defines.items()]
    with tempfile.TemporaryDirectory() as build:
        configure = subprocess.run(
            ["cmake", "-S", source, "-B", build, "-G", "Ninja", *args],
            capture_output=True,
            text=True,
        )
        if configure.returncode != 0:
            print(configure.stdout[-4000:], configure.stderr[-4000:], sep="\n")
            print(f"FAILED: pip install .'s configure ({' '.join(args)})")
            return 1
        targets = subprocess.run(
            ["ninja", "-C", build, "-t", "targets", "all"], capture_output=True, text=True
        ).stdout
        if not any(line.startswith("_core:") for line in targets.splitlines()):
            print("FAILED: pip install .'s configure has no target _core")
            return 1
    print(f"pip install . configures the module _core ({' '.join(args)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
