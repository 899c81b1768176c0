#!/usr/bin/env python3
"""Sums an Nsight Compute CSV by kernel: how long each kernel of a schedule takes alone.

ncu runs the kernels it profiles one at a time, so gpu__time_duration is each launch alone on
the GPU, with no other stream's work beside it. Summed over the launches of one solve, it says
what each part of the schedule costs apart; against the solve's time (apsp_bench, where the
side stream overlaps the main one) it says what the overlap hides. Made by, for example:

    ncu --clock-control none --csv --page raw -k 'regex:lookahead|phase[123]|transpose' \
        --metrics gpu__time_duration.sum,sm__cycles_active.avg,sm__cycles_elapsed.max \
        build/release/apsp_bench --variant sm90 --n 10000 --min-reps 1 --reps 1 --min-time 0 \
        --verify certificate > ncu.csv
    scripts/ncu_kernel_table.py ncu.csv --solves 2

--solves divides the sums by the number of solves the run made (apsp_bench: the verifying solve
and each sample). "active" is sm__cycles_active.avg / sm__cycles_elapsed.max where both were
collected: the share of the kernel's time an average SM had a block, so 1 - active is its tail
and launch. Exit codes: 0 done; 2 a file that cannot be read or holds no kernel rows.
"""

import argparse
import csv
import re
import sys

DURATION = "gpu__time_duration.sum"
ACTIVE = "sm__cycles_active.avg"
ELAPSED = "sm__cycles_elapsed.max"


def kernel_key(name):
    """The kernel's name without its return type, namespaces and parameters:
    'void apsp::kernels::sm90::lookahead2_line<128, 8, 8, true>(int *, ...)' ->
    'lookahead2_line<128, 8, 8, true>'."""
    name = re.sub(r"^void\s+", "", name.strip()).replace("(anonymous namespace)::", "")
    depth = 0
    for i, ch in enumerate(name):  # cut the parameter list: the first '(' outside template brackets
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            name = name[:i]
            break
    name = re.sub(r"\b(apsp::kernels::\w+::|apsp::kernels::)", "", name)
    return name.replace("Int32Elements", "int32").replace("U16x2Elements", "u16x2")


def number(text):
    """A metric cell as a float, or None where ncu printed none ('n/a', empty)."""
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def read_rows(path):
    """The kernel rows of an `ncu --csv --page raw` file, each a dict, and the time unit of the
    duration."""
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("==")]  # ncu's own messages
    rows = list(csv.reader(lines))
    header = next((i for i, r in enumerate(rows) if "Kernel Name" in r and DURATION in r), None)
    if header is None:
        raise ValueError(f"no 'Kernel Name' and '{DURATION}' columns")
    if header + 1 >= len(rows):
        raise ValueError("no unit row under the header")
    names, units = rows[header], rows[header + 1]
    unit = units[names.index(DURATION)]
    kernels = [dict(zip(names, r)) for r in rows[header + 2 :] if len(r) == len(names)]
    if not kernels:
        raise ValueError("no kernel rows")
    return kernels, unit


def to_ms(value, unit):
    scale = {
        "ns": 1e-6,
        "nsecond": 1e-6,
        "us": 1e-3,
        "usecond": 1e-3,
        "ms": 1.0,
        "msecond": 1.0,
        "s": 1e3,
        "second": 1e3,
    }
    if unit not in scale:
        raise ValueError(f"unknown time unit '{unit}' for {DURATION}")
    return value * scale[unit]


def table(kernels, unit, solves):
    groups = {}
    for k in kernels:
        duration = number(k[DURATION])
        if duration is None:
            raise ValueError(f"launch {k.get('ID', '?')} of {k['Kernel Name']} has no {DURATION}")
        g = groups.setdefault(
            kernel_key(k["Kernel Name"]), {"launches": 0, "ms": 0.0, "active": 0.0, "weight": 0.0}
        )
        ms = to_ms(duration, unit)
        g["launches"] += 1
        g["ms"] += ms
        active, elapsed = number(k.get(ACTIVE, "")), number(k.get(ELAPSED, ""))
        if active is not None and elapsed:  # a launch without them is left out of the mean
            g["active"] += ms * active / elapsed
            g["weight"] += ms
    total = sum(g["ms"] for g in groups.values())
    out = [
        "| kernel | launches a solve | ms a solve, each alone | share | SMs active |",
        "|---|---:|---:|---:|---:|",
    ]
    for key, g in sorted(groups.items(), key=lambda kv: -kv[1]["ms"]):
        active = f"{100 * g['active'] / g['weight']:.1f}%" if g["weight"] > 0 else "-"
        share = f"{100 * g['ms'] / total:.1f}%"
        out.append(
            f"| {key} | {g['launches'] / solves:g} | {g['ms'] / solves:.3f} | {share} | {active} |"
        )
    launches = sum(g["launches"] for g in groups.values())
    out.append(f"| all | {launches / solves:g} | {total / solves:.3f} | 100% | |")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv", help="ncu --csv --page raw output")
    p.add_argument(
        "--solves",
        type=int,
        default=1,
        help="solves the profiled run made (the sums are divided by it)",
    )
    a = p.parse_args()
    if a.solves < 1:
        print("ncu_kernel_table.py: --solves must be at least 1", file=sys.stderr)
        return 2
    try:
        kernels, unit = read_rows(a.csv)
        print(table(kernels, unit, a.solves))
    except (OSError, ValueError, KeyError, csv.Error) as e:
        print(f"ncu_kernel_table.py: {a.csv}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
