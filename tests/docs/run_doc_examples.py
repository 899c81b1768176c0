#!/usr/bin/env python3
"""Runs the examples of README.md and docs/*.md and checks their links.

    run_doc_examples.py --root REPO --build BUILD [--python-path DIR] [--list] [FILE.md ...]

Every code block (fenced, or indented by four spaces) is one of:

- shell: its first command is a program of the build (`./build/release/apsp`,
  `build/release/gen_graph`), a script of the repository or a common tool; each line (a `\\` at
  the end joins the next) runs in bash and must exit 0;
- console: lines `$ COMMAND`, each followed by the output the doc shows, which standard output
  must equal (`...` stands for any text, on a line of its own for any lines);
- python: a ```python block, run in one interpreter per doc with a namespace shared by the doc's
  blocks; `>>>` examples are checked as doctests (ELLIPSIS, NORMALIZE_WHITESPACE);
- text: anything else (output shown alone, formats, C++, JSON): not run.

Shell, console and python blocks run by default. A block that cannot run here (it needs a GPU,
a file of the reader's own, or minutes) says so in an HTML comment just before it, which GitHub
does not show:

    <!-- doc-test: skip (needs a GPU) -->

`<!-- doc-test: exit N -->` expects every command of the block to exit N instead of 0.
The commands of one doc run in order in one temporary copy of the repository, where
`build/release` is the build, with the build first on PATH and no CUDA device visible (as on a
machine without one, on every machine); its Python blocks find apsp_lab in --python-path.

Links: every relative link of every file must name a file or folder that exists, and an
`#anchor` must be a heading of the target (GitHub's slugs) or an `<a id>` / `<a name>` in it.

Prints what ran, what was skipped and why, each failure with FILE:LINE; exit 1 on any failure.
"""

import argparse
import difflib
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
# A fence opens a block unless backticks follow it on its line (then it is inline code).
FENCE = re.compile(r"^(\s*)(`{3,}(?!.*`)|~{3,})\s*([\w+-]*)")
# Commands that make a block a shell block besides the build's programs and the repository's
# scripts: what a reader would type at a prompt.
TOOLS = {
    "bash",
    "cat",
    "cd",
    "cmake",
    "ctest",
    "cuobjdump",
    "echo",
    "env",
    "export",
    "git",
    "gzip",
    "make",
    "mpirun",
    "ncu",
    "ninja",
    "nsys",
    "nvidia-smi",
    "pip",
    "printf",
    "python",
    "python3",
    "sh",
    "source",
    "srun",
    "timeout",
    "torchrun",
    "zcat",
    "compute-sanitizer",
}
PROGRAMS = set()  # the build's programs by name, as a console block may call them (main fills it)
COMMAND_TIMEOUT = 300


@dataclass
class Block:
    doc: str  # the file, relative to the root
    line: int  # the first line of its text, 1-based
    info: str  # a fenced block's info string ("" when indented)
    lines: list
    marker: tuple = ("", 0)  # the doc-test marker before it (without "doc-test:"), its line
    kind: str = ""
    start: int = 0  # the lines it spans, 0-based, fences included: [start, stop)
    stop: int = 0
    failures: list = field(default_factory=list)

    def where(self, offset=0):
        return f"{self.doc}:{self.line + offset}"

    def skipped(self):
        return self.marker[0].startswith("skip")


def marker_before(lines, index):
    """The doc-test marker on the last non-blank line before lines[index] and its line
    number, or ("", 0)."""
    j = index - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    match = MARKER.match(lines[j]) if j >= 0 else None
    return (match.group(1), j + 1) if match else ("", 0)


def fenced_block(lines, i, doc):
    """The fenced block opening at lines[i] and the index after its closing fence."""
    indent, fence, info = FENCE.match(lines[i]).groups()
    body, j = [], i + 1
    while j < len(lines) and not lines[j].strip().startswith(fence):
        body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j].lstrip())
        j += 1
    block = Block(doc, i + 2, info.lower(), body, marker_before(lines, i))
    block.start, block.stop = i, j + 1
    return block, j + 1


def indented_block(lines, i, doc):
    """The block indented by four spaces from lines[i] and the index after it."""
    j = i
    while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
        j += 1
    end = j
    while not lines[end - 1].strip():
        end -= 1
    body = [line[4:] for line in lines[i:end]]
    block = Block(doc, i + 1, "", body, marker_before(lines, i))
    block.start, block.stop = i, end
    return block, j


def parse_blocks(text, doc):
    """Every code block of a Markdown text, in order (CommonMark's rules, simplified: an
    indented block starts after a blank line, so a lazy list continuation is not one)."""
    lines, blocks, i = text.split("\n"), [], 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            block, i = fenced_block(lines, i, doc)
        elif lines[i].startswith("    ") and lines[i].strip() and not (i and lines[i - 1].strip()):
            block, i = indented_block(lines, i, doc)
        else:
            i += 1
            continue
        block.kind = classify(block)
        blocks.append(block)
    return blocks


def first_word(command):
    """The program a shell command line runs (after variable assignments)."""
    for word in command.split():
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", word):
            return word
    return ""


def is_command(word):
    """Whether a block whose first command runs `word` is a shell block."""
    if re.match(r"^(\./)?build/[^/]+/\S+$", word) or word in PROGRAMS or word in TOOLS:
        return True
    return re.match(r"^(\./)?scripts/\S+$", word) is not None


def classify(block):
    """shell, console, python or text (see the module's comment)."""
    code = [line for line in block.lines if line.strip() and not line.lstrip().startswith("#")]
    if block.info in ("python", "py", "pycon") or (code and code[0].startswith(">>> ")):
        return "python"
    if block.info not in ("", "sh", "bash", "shell", "console"):
        return "text"
    if code and code[0].startswith("$ "):
        return "console"
    if code and is_command(first_word(code[0])):
        return "shell"
    return "text"


def commands_of(lines):
    """(offset, command) for each command of a shell block: `\\` joins lines, comments dropped."""
    commands, pending, start = [], "", 0
    for offset, line in enumerate(lines):
        if not pending:
            start = offset
            if not line.strip() or line.lstrip().startswith("#"):
                continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        commands.append((start, pending + line))
        pending = ""
    return commands


def console_steps(lines):
    """(offset, command, expected output) for each `$ ` line of a console block."""
    steps = []
    for offset, line in enumerate(lines):
        if line.startswith("$ "):
            steps.append([offset, line[2:], []])
        elif steps:
            steps[-1][2].append(line)
    return [(offset, command, "\n".join(out).rstrip("\n")) for offset, command, out in steps]


def line_matches(expected, actual):
    parts = [re.escape(part) for part in expected.split("...")]
    return re.fullmatch(".*".join(parts), actual) is not None


def matches(expected, actual):
    """Whether actual's lines are expected's, where `...` stands for any text within a line and,
    on a line of its own, for any number of lines (trailing spaces and blank lines ignored)."""
    want = [line.rstrip() for line in expected.rstrip("\n").split("\n")]
    have = [line.rstrip() for line in actual.rstrip("\n").split("\n")]
    # reach[j]: want's lines so far can match have's first j lines.
    reach = [True] + [False] * len(have)
    for line in want:
        if line == "...":
            for j in range(1, len(have) + 1):
                reach[j] = reach[j] or reach[j - 1]
            continue
        reach = [False] + [reach[j] and line_matches(line, have[j]) for j in range(len(have))]
    return reach[len(have)]


def expected_exit(block):
    match = re.match(r"^exit (\d+)$", block.marker[0])
    return int(match.group(1)) if match else 0


def run_bounded(argv, workdir, env):
    """argv run in workdir with its output captured; None when it ran past COMMAND_TIMEOUT."""
    try:
        return subprocess.run(
            argv, cwd=workdir, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return None


def run_command(block, offset, command, workdir, env):
    """Runs one command; a failure is added to the block. Returns its standard output."""
    result = run_bounded(["bash", "-o", "pipefail", "-c", command], workdir, env)
    if result is None:
        block.failures.append(f"{block.where(offset)}: `{command}` ran past {COMMAND_TIMEOUT} s")
        return ""
    if result.returncode != expected_exit(block):
        hint = (
            " (no CUDA device: mark the block <!-- doc-test: skip (needs a GPU) -->)"
            if result.returncode == 3
            else ""
        )
        message = (
            f"{block.where(offset)}: `{command}` exited {result.returncode}, expected "
            f"{expected_exit(block)}{hint}\n{tail(result.stderr)}"
        )
        block.failures.append(message.rstrip())
    return result.stdout


def tail(text, lines=15):
    """The last lines of a program's output, indented under its failure; "" for none."""
    text = text.rstrip("\n")
    return "\n".join("    | " + line for line in text.split("\n")[-lines:]) if text else ""


def run_shell(block, workdir, env):
    for offset, command in commands_of(block.lines):
        run_command(block, offset, command, workdir, env)


def run_console(block, workdir, env):
    for offset, command, expected in console_steps(block.lines):
        out = run_command(block, offset, command, workdir, env)
        if expected and not matches(expected, out):
            block.failures.append(
                f"{block.where(offset)}: `{command}` printed other output than "
                f"the doc shows:\n{diff(expected, out)}"
            )


def diff(expected, actual):
    lines = difflib.unified_diff(
        expected.split("\n"),
        actual.rstrip("\n").split("\n"),
        "the doc",
        "printed",
        lineterm="",
        n=2,
    )
    return "\n".join("    " + line for line in lines)


# Runs a doc's Python blocks in one namespace, in order; writes one JSON result per block.
PYTHON_DRIVER = r"""
import contextlib, doctest, io, json, sys, traceback
blocks, results, namespace = json.load(open(sys.argv[1])), [], {"__name__": "__main__"}
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
for block in blocks:
    source, name = "\n" * (block["line"] - 1) + block["text"], block["where"]
    if ">>> " in block["text"]:
        test = doctest.DocTestParser().get_doctest(block["text"], namespace, name, block["doc"],
                                                   block["line"] - 1)
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=flags)
        runner.run(test, out=report.write, clear_globs=False)
        results.append(report.getvalue() if runner.failures else "")
        continue
    captured = io.StringIO()
    try:
        with contextlib.redirect_stdout(captured):
            exec(compile(source, block["doc"], "exec"), namespace)
        results.append("")
    except BaseException:
        results.append(traceback.format_exc(limit=-3))
json.dump(results, open(sys.argv[2], "w"))
"""


def run_python(blocks, workdir, env, python):
    """Runs a doc's Python blocks in one interpreter; a failure is added to its block."""
    given = os.path.join(workdir, ".doc_blocks.json")
    results = os.path.join(workdir, ".doc_results.json")
    with open(given, "w") as out:
        json.dump(
            [
                {"doc": b.doc, "line": b.line, "where": b.where(), "text": "\n".join(b.lines)}
                for b in blocks
            ],
            out,
        )
    run = run_bounded([python, "-c", PYTHON_DRIVER, given, results], workdir, env)
    if run is None:
        blocks[0].failures.append(f"{blocks[0].where()}: its Python ran past {COMMAND_TIMEOUT} s")
        return
    if run.returncode != 0 or not os.path.exists(results):
        blocks[0].failures.append(
            f"{blocks[0].where()}: the Python driver exited {run.returncode}\n{tail(run.stderr)}"
        )
        return
    for block, message in zip(blocks, json.load(open(results))):
        if message:
            block.failures.append(
                f"{block.where()}: the Python example failed:\n{tail(message, 30)}"
            )


def prose_lines(text):
    """The lines of a Markdown text outside its code blocks, as (line number, text), inline
    code spans blanked (a link or heading inside code is none)."""
    code = set()
    for block in parse_blocks(text, ""):
        code.update(range(block.start, block.stop))
    return [
        (number, re.sub(r"`[^`]*`", lambda m: "`" * len(m.group()), line))
        for number, line in enumerate(text.split("\n"), 1)
        if number - 1 not in code
    ]


def slug(heading):
    """GitHub's anchor for a heading's text (github-slugger: lower case, punctuation but `-`
    and `_` dropped, each space a `-`)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


@functools.cache  # each doc is read once, however many links point into it
def anchors(path):
    """The anchors of a Markdown file: its headings' slugs (repeats get -1, -2, ...) and the
    ids and names of its <a> tags."""
    found, seen = set(), {}
    raw = open(path, encoding="utf-8").read()
    raw_lines = raw.split("\n")
    for number, _ in prose_lines(raw):
        match = re.match(r"^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$", raw_lines[number - 1])
        if match:
            base = slug(match.group(1))
            found.add(f"{base}-{seen[base]}" if base in seen else base)
            seen[base] = seen.get(base, 0) + 1
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", raw))
    return found


LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def check_links(root, doc):
    """One failure per relative link of doc that names nothing, or an anchor its target lacks."""
    failures, path = [], os.path.join(root, doc)
    for number, line in prose_lines(open(path, encoding="utf-8").read()):
        for target in LINK.findall(line) + re.findall(r"^\s*\[[^\]]+\]:\s*(\S+)", line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, mailto: ...: not checked here
                continue
            file_part, _, anchor = target.partition("#")
            resolved = (
                os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if file_part
                else path
            )
            if not os.path.exists(resolved):
                failures.append(f"{doc}:{number}: link {target}: {file_part} does not exist")
            elif anchor and not resolved.endswith(".md"):
                failures.append(
                    f"{doc}:{number}: link {target}: an anchor into a file that is not Markdown"
                )
            elif anchor and anchor not in anchors(resolved):
                failures.append(
                    f"{doc}:{number}: link {target}: no heading or <a id> "
                    f"'{anchor}' in {os.path.relpath(resolved, root)}"
                )
    return failures


def workspace(root, build):
    """A temporary copy of the repository (without build/ and the hidden .git, .deps, ...)
    where a doc's commands run, its build/release the build: paths in the docs resolve, and
    what a command writes stays in the copy."""
    workdir = tempfile.mkdtemp(prefix="doc_examples.")
    top = os.path.abspath(root)
    shutil.copytree(
        root,
        workdir,
        symlinks=True,
        dirs_exist_ok=True,
        ignore=lambda folder, names: [
            n
            for n in names
            if os.path.abspath(folder) == top and (n == "build" or n.startswith("."))
        ],
    )
    os.makedirs(os.path.join(workdir, "build"))
    os.symlink(os.path.abspath(build), os.path.join(workdir, "build", "release"))
    return workdir


def run_doc(args, doc, blocks, env):
    """Runs one doc's blocks (those not marked skip) in a workspace of its own."""
    python = [b for b in blocks if b.kind == "python" and not b.skipped()]
    if python and args.python_path is None:
        for block in python:
            block.marker = ("skip (apsp_lab is not built here: no --python-path)", 0)
        python = []
    if not python and all(b.kind not in ("shell", "console") or b.skipped() for b in blocks):
        return
    workdir = workspace(args.root, args.build)
    try:
        if python:
            run_python(python, workdir, dict(env, PYTHONPATH=args.python_path), args.python)
        for block in blocks:
            if block.skipped() or block.kind not in ("shell", "console"):
                continue
            (run_shell if block.kind == "shell" else run_console)(block, workdir, env)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def bad_markers(blocks):
    """A marker that says nothing the runner knows, or a skip without its reason, is a
    failure: a typo must not silently skip or run a block."""
    for block in blocks:
        text, line = block.marker
        if text and not re.match(r"^(skip \(.+\)|exit \d+)$", text):
            block.failures.append(
                f"{block.doc}:{line}: unknown doc-test marker '{text}' (skip (REASON) or exit N)"
            )
        elif text and block.kind == "text":
            block.failures.append(
                f"{block.doc}:{line}: a doc-test marker on a block that is not "
                "run (not a command or Python)"
            )


def report(blocks):
    """One line per block run or skipped; returns the failures."""
    failures = []
    for block in blocks:
        failures += block.failures
        if block.kind == "text":
            continue
        state = block.marker[0] if block.skipped() else ("FAILED" if block.failures else "ok")
        print(f"{block.where()}: {block.kind}: {state}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True, help="the repository")
    parser.add_argument("--build", required=True, help="the build folder (build/release)")
    parser.add_argument("--python-path", help="where the Python blocks import apsp_lab from")
    parser.add_argument("--python", default=sys.executable, help="what runs the Python blocks")
    parser.add_argument("--list", action="store_true", help="list the blocks, run nothing")
    parser.add_argument("docs", nargs="*", help="Markdown files (default: README.md and docs/*.md)")
    args = parser.parse_args()
    docs = args.docs or ["README.md"] + sorted(
        os.path.join("docs", name)
        for name in os.listdir(os.path.join(args.root, "docs"))
        if name.endswith(".md")
    )
    PROGRAMS.update(
        name
        for name in os.listdir(args.build)
        if os.access(os.path.join(args.build, name), os.X_OK)
        and os.path.isfile(os.path.join(args.build, name))
    )
    # No device is visible, so that an example does and prints the same on every machine (a dry
    # run plans for an H200 rather than for this GPU, whose count --gpus would be checked against).
    env = dict(
        os.environ,
        PATH=os.path.abspath(args.build) + os.pathsep + os.environ["PATH"],
        CUDA_VISIBLE_DEVICES="",
    )
    failures, counts = [], {}
    for doc in docs:
        blocks = parse_blocks(open(os.path.join(args.root, doc), encoding="utf-8").read(), doc)
        bad_markers(blocks)
        if args.list:
            for block in blocks:
                print(f"{block.where()}: {block.kind} {block.marker[0]}: {block.lines[0][:70]!r}")
            continue
        run_doc(args, doc, blocks, env)
        failures += report(blocks) + check_links(args.root, doc)
        for block in blocks:
            state = "text" if block.kind == "text" else "skipped" if block.skipped() else "run"
            counts[state] = counts.get(state, 0) + 1
    for failure in failures:
        print(f"FAILED {failure}")
    print(
        f"{len(docs)} docs: {counts.get('run', 0)} blocks run, {counts.get('skipped', 0)} "
        f"skipped, {counts.get('text', 0)} not code; {len(failures)} failures"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
