"""Benchmark: the chat's grep tool on a tree with 20,000-match files, beside a reference.

Run by hand: ``python tests/bench/bench_grep.py``; it prints, it never asserts on wall time.

The tree (generated under a temporary folder): 40 files of 1,000 matching lines, one file of
20,000 matching lines (the case that made the old search quadratic), and 400 files of 2,000
lines that do not match (about 40 MB in all). Measured, best of three in this process:

- reference: GNU ``grep -rn PATTERN .`` (the floor of a line search), or when it is missing a
  plain Python loop that reads every file and runs the regex on every line;
- before: the old search (kept below, as it was: whole files read, ``k in hits`` on a list);
- after: the grep tool now, through the pure-Python search (rg hidden from it), and through rg
  when rg is on PATH. Each answers the tool's question: the first 100 lines and the count.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ink_tui.agent.tools import run_tool, search  # noqa: E402

PATTERN = "match"


def make_tree(root: Path) -> int:
    """Write the tree; returns the number of matching lines."""
    filler = "".join(f"nothing to see on line {n} of this file, keep going\n" for n in range(2000))
    for number in range(400):
        (root / "quiet" / f"d{number % 20:02}").mkdir(parents=True, exist_ok=True)
        (root / "quiet" / f"d{number % 20:02}" / f"q{number:03}.txt").write_text(filler)
    (root / "loud").mkdir()
    for number in range(40):
        lines = "".join(f"a match in file {number}, line {n}\n" for n in range(1000))
        (root / "loud" / f"m{number:02}.txt").write_text(lines)
    (root / "one.txt").write_text("".join(f"match number {n}\n" for n in range(20_000)))
    return 40 * 1000 + 20_000


def _files(root: Path, where: str) -> list[Path]:
    target = root / where
    return [target] if target.is_file() else sorted(p for p in target.rglob("*") if p.is_file())


def reference(root: Path, where: str) -> int:
    grep = shutil.which("grep")
    if grep is not None:
        done = subprocess.run([grep, "-rn", PATTERN, where], cwd=root, capture_output=True)
        return done.stdout.count(b"\n")
    regex, count = re.compile(PATTERN), 0
    for path in _files(root, where):
        if path.is_file():
            with path.open("rb") as stream:
                for raw in stream:
                    count += regex.search(raw.decode("utf-8", "replace")) is not None
    return count


def old_search(root: Path, where: str) -> int:
    """The search as it was before issue 9 (its per-file core, unchanged)."""
    regex = re.compile(PATTERN)
    out: list[str] = []
    for path in _files(root, where):
        data = path.read_bytes()
        if b"\x00" in data[:8192]:
            continue
        text = data.decode("utf-8", "replace")
        lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
        hits = [i for i, line in enumerate(lines) if regex.search(line)]
        name = f"./{path.relative_to(root).as_posix()}"
        for i in hits:
            for k in range(i, i + 1):
                out.append(f"{name}{':' if k in hits else '-'}{k + 1}:{lines[k]}")
    return len(out)


def tool(root: Path, where: str) -> int:
    """The grep tool's answer; returns the count its note gives (at least N past the guard)."""
    arguments = {"pattern": PATTERN, "path": where, "timeout": 600}
    outcome = asyncio.run(run_tool("grep", arguments, cwd=root))
    note = outcome.content.rsplit("\n\n", 1)[-1]
    found = re.search(r"of (\d+) lines|at least (\d+) complete", note)
    if found is None:
        return len(outcome.content.splitlines())
    return int(found.group(1) or found.group(2))


def best_of(runs: int, action: Callable[[], int]) -> tuple[float, int]:
    best, result = float("inf"), 0
    for _ in range(runs):
        started = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - started)
    return best, result


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="best of N (default 3)")
    options = parser.parse_args(argv)
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="ink-tui-bench-grep-") as folder:
        root = Path(folder)
        expected = make_tree(root)
        size = sum(path.stat().st_size for path in root.rglob("*") if path.is_file())
        rg = search.search_binary("rg")
        lookup = search.search_binary

        def fallback(root: Path, where: str) -> int:
            search.search_binary = lambda name: None  # type: ignore[assignment]
            try:
                return tool(root, where)
            finally:
                search.search_binary = lookup  # type: ignore[assignment]

        grep_name = "grep -rn" if shutil.which("grep") else "a Python line loop"
        print()
        print(f"tree        {size / 1e6:.1f} MB, {expected} matching lines")
        print(f"rg          {rg or 'not on PATH'}")
        for where, title in (
            ("one.txt", "one file, 20,000 matches (under the 1MB guard: every line counted)"),
            (".", "the whole tree (output past the 1MB guard: Ink stops collecting there)"),
        ):
            rows: list[tuple[str, Callable[[Path, str], int]]] = [
                (f"reference: {grep_name}", reference),
                ("before: the old pure-Python search", old_search),
                ("after: grep tool, pure-Python search", fallback),
            ]
            if rg is not None:
                rows.append(("after: grep tool, rg", tool))
            print()
            print(title)
            print(f"{'measure':<42}{'time (s)':>10}{'lines':>8}{'ratio':>8}")
            print("-" * 68)
            base = 0.0
            for label, action in rows:
                seconds, lines = best_of(options.runs, partial(action, root, where))
                base = base or seconds
                figures[f"{where} {label}"] = seconds
                print(f"{label:<42}{seconds:>10.3f}{lines:>8}{seconds / base:>8.2f}")
            print("-" * 68)
        print("ratio: time / the reference's time in this run; lines: the matches each counted")
        print("(past the guard the tool counts the complete lines within its first 1MB).")
    return figures


def test_bench_grep() -> None:
    """Collected by ``pytest tests/bench/bench_grep.py -s``; prints figures, asserts nothing."""
    main([])


if __name__ == "__main__":
    main()
