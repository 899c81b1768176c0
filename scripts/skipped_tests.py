#!/usr/bin/env python3
"""Why each skipped test skipped, from ctest's JUnit file (ctest --output-junit FILE).

ctest prints no skipped test's output, and its LastTest.log says "Test Passed." for a skip; the
JUnit file keeps both the skip and the output. For every skipped test this prints its name and
its reason: the line a GoogleTest skip gave (after "FILE:LINE: Skipped"), else the test's last
line. Under CI (CI=true) a test may skip only for the machine's GPU or the user being root
(ALLOWED_IN_CI): any other skip (a missing tool that scripts/setup.sh installs, a test that
printed no reason) exits 1. Exit 2 when the file cannot be read. scripts/test.sh runs it after
ctest.

    skipped_tests.py JUNIT_FILE
"""

import os
import re
import sys
import xml.etree.ElementTree as ET

# The reasons a CI machine may skip for: whether it has a CUDA device (either way: the GPU tests
# without one, the no-device checks with one), and whether the tests run as root (either way).
ALLOWED_IN_CI = re.compile(r"no CUDA device|no GPU|has a CUDA device|\broot\b")
GTEST_SKIP = re.compile(r":\d+: Skipped$")


def reason(output):
    lines = [line.strip() for line in output.splitlines()]
    for i, line in enumerate(lines):
        if GTEST_SKIP.search(line):
            given = [rest for rest in lines[i + 1 :] if rest]
            if given and not given[0].startswith("[  SKIPPED ]"):
                return given[0]
    printed = [line for line in lines if line]
    return printed[-1] if printed else ""


def skipped(junit):
    """(name, reason) of every skipped test in the JUnit file, in ctest's order."""
    for case in ET.parse(junit).getroot().iter("testcase"):
        if case.find("skipped") is not None:
            yield case.get("name"), reason(case.findtext("system-out") or "")


def main(argv):
    if len(argv) != 2:
        print("usage: skipped_tests.py JUNIT_FILE", file=sys.stderr)
        return 2
    try:
        skips = list(skipped(argv[1]))
    except (OSError, ET.ParseError) as e:
        print(f"skipped_tests: {argv[1]}: {e}", file=sys.stderr)
        return 2
    if not skips:
        return 0
    print(f"skipped tests ({len(skips)}), each with the reason it printed:")
    for name, why in skips:
        print(f"  {name}: {why or '(printed no reason)'}")
    if os.environ.get("CI") != "true":
        return 0
    refused = [name for name, why in skips if not ALLOWED_IN_CI.search(why)]
    if not refused:
        return 0
    print(
        f"skipped_tests: under CI a test may skip only for no GPU or for running as root; "
        f"{len(refused)} skipped otherwise: {', '.join(refused)}"
    )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
