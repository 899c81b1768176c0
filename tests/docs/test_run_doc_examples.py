#!/usr/bin/env python3
"""The doc examples' runner fails on every fault planted in a doc, and passes what is right:
a wrong output, a failing command, a NameError, a wrong doctest, a link to nothing, a missing
anchor, a misspelt marker and a marker on a block that is not run each fail, by FILE:LINE; a
skip, an expected exit code and `...` do not. Needs no build (the planted commands are the
shell's own)."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_doc_examples as runner  # noqa: E402

PLANTED = """# Planted

## A heading: with `code`, --dashes and x × y

[fine](#a-heading-with-code---dashes-and-x--y) [nothing](#nope) [no file](none.md)
[fine](other.md#other-heading) [no anchor](other.md#nope) `[in code](none.md)`

    $ printf 'a\\nb\\n'
    a
    c

A command that fails:

    printf 'x' && exit 3

<!-- doc-test: skip (planted: never runs) -->

    bash -c 'exit 9'

<!-- doc-test: exit 2 -->

    bash -c 'exit 2'

<!-- doc-test: skpi (a typo) -->

    echo unknown marker

Output with an ellipsis:

    $ printf 'one\\ntwo\\nthree\\n'
    one
    ...
    three

```python
>>> 1 + 1
3
```

```python
x = undefined_name
```

<!-- doc-test: skip (on a block that is not run) -->

    output alone
"""


class PlantedFaults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = tempfile.mkdtemp(prefix="doc_runner_test.")
        os.makedirs(os.path.join(cls.root, "docs"))
        with open(os.path.join(cls.root, "docs", "planted.md"), "w") as out:
            out.write(PLANTED)
        with open(os.path.join(cls.root, "docs", "other.md"), "w") as out:
            out.write("# Other heading\n")
        build = os.path.join(cls.root, "build")
        os.makedirs(build)
        cls.result = subprocess.run(
            [
                sys.executable,
                os.path.join(HERE, "run_doc_examples.py"),
                "--root",
                cls.root,
                "--build",
                build,
                "--python-path",
                build,
                "docs/planted.md",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        cls.out = cls.result.stdout

    def failure(self, line, text):
        self.assertIn(f"FAILED docs/planted.md:{line}: {text}", self.out)

    def test_exit_and_count(self):
        self.assertEqual(self.result.returncode, 1, self.out + self.result.stderr)
        self.assertIn("1 docs: 7 blocks run, 1 skipped, 1 not code; 9 failures", self.out)

    def test_links(self):
        self.failure(5, "link #nope: no heading or <a id> 'nope' in docs/planted.md")
        self.failure(5, "link none.md: none.md does not exist")
        self.failure(6, "link other.md#nope: no heading or <a id> 'nope' in docs/other.md")
        self.assertNotIn("in code", self.out)

    def test_commands(self):
        self.failure(8, "`printf 'a\\nb\\n'` printed other output than the doc shows")
        self.failure(14, "`printf 'x' && exit 3` exited 3, expected 0 (no CUDA device")
        self.failure(24, "unknown doc-test marker 'skpi (a typo)'")
        self.failure(44, "a doc-test marker on a block that is not run")
        self.assertIn("docs/planted.md:18: shell: skip (planted: never runs)", self.out)
        self.assertIn("docs/planted.md:22: shell: ok", self.out)
        self.assertIn("docs/planted.md:30: console: ok", self.out)

    def test_python(self):
        self.failure(36, "the Python example failed")
        self.assertIn("Expected:\n    |     3\n    | Got:\n    |     2", self.out)
        self.failure(41, "the Python example failed")
        self.assertIn("NameError: name 'undefined_name' is not defined", self.out)


class Pieces(unittest.TestCase):
    def test_matches(self):
        self.assertTrue(runner.matches("a\n...\nd", "a\nb\nc\nd\n"))
        self.assertTrue(runner.matches("a\n...\nb", "a\nb"))
        self.assertTrue(runner.matches("took ... ms", "took 1.5 ms"))
        self.assertFalse(runner.matches("a\nb", "a\nb\nc"))
        self.assertFalse(runner.matches("a\n...\nd", "a\nb\nc"))

    def test_slug(self):  # GitHub's anchors, as the docs' own tables of contents use them
        self.assertEqual(
            runner.slug("Answers without the matrix: --summary and --sources"),
            "answers-without-the-matrix---summary-and---sources",
        )
        self.assertEqual(
            runner.slug("Reductions: answers without the V × V matrix"),
            "reductions-answers-without-the-v--v-matrix",
        )
        self.assertEqual(runner.slug("`floyd_warshall`"), "floyd_warshall")
        self.assertEqual(runner.slug("[apsp](docs/apsp.md) **bold**"), "apsp-bold")

    def test_blocks(self):  # inline code of backticks opens no fence; blank lines join a block
        self.assertEqual(runner.parse_blocks("every ```` ```python ```` block\n", "d.md"), [])
        blocks = runner.parse_blocks("text\n\n    a\n\n    b\ntext\n", "d.md")
        self.assertEqual([(b.line, b.lines) for b in blocks], [(3, ["a", "", "b"])])

    def test_commands_of(self):
        lines = ["# a comment", "run a \\", "  --flag", "", "run b  # why"]
        self.assertEqual(runner.commands_of(lines), [(1, "run a    --flag"), (4, "run b  # why")])


if __name__ == "__main__":
    unittest.main()
