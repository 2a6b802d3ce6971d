"""The grep and find tools: ripgrep and fd when on PATH, the pure-Python search otherwise.

Every behaviour test runs on both paths (``search_path``): "fallback" forces the pure-Python
search; "binaries" runs the real rg and fd and is skipped where they are not installed. The
trees hold an empty ``.git`` folder, so rg and fd apply ``.gitignore`` as inside a repository.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

import pytest

from ink_tui.agent.tools import ToolOutcome, run_tool, search
from ink_tui.agent.tools.search_process import SearchError, decode_prefix, run_search_process
from ink_tui.agent.tools.search_walk import BUFFER_GUARD_BYTES, SearchOutput, expand_braces

HAVE_BINARIES = shutil.which("rg") is not None and search.search_binary("fd") is not None
NARROW = (
    "Narrow the search (subdirectory path, glob, or more specific pattern) instead of raising "
    "the limit."
)


@pytest.fixture(params=["fallback", "binaries"])
def search_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "fallback":
        monkeypatch.setattr(search, "search_binary", lambda tool: None)
    elif not HAVE_BINARIES:
        pytest.skip("rg and fd are not installed")
    return str(request.param)


@pytest.fixture
def fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "search_binary", lambda tool: None)


def run(name: str, args: dict[str, object], cwd: Path) -> ToolOutcome:
    return asyncio.run(run_tool(name, args, cwd=cwd))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src/a.py").write_text("one\nTwo\nthree\nfour\nfive\nsix two\n")
    (tmp_path / "src/b.txt").write_text("nothing here\n")
    (tmp_path / ".hidden").write_text("two\n")
    (tmp_path / "ignored.log").write_text("two\n")
    (tmp_path / "blob.bin").write_bytes(b"\x00two\n")
    (tmp_path / ".gitignore").write_text("*.log\n")
    return tmp_path


def test_grep_matches_case_context_and_a_single_file(tree: Path, search_path: str) -> None:
    assert run("grep", {"pattern": "two"}, tree).content == "./src/a.py:6:six two"
    nocase = run("grep", {"pattern": "two", "ignoreCase": True, "path": "src"}, tree)
    assert nocase.content == "src/a.py:2:Two\nsrc/a.py:6:six two"
    ctx = run("grep", {"pattern": "T.o", "context": 1, "path": "src"}, tree)
    assert ctx.content == "src/a.py-1-one\nsrc/a.py:2:Two\nsrc/a.py-3-three"
    two_groups = run("grep", {"pattern": "one|six", "context": 1, "path": "src/a.py"}, tree)
    assert two_groups.content == "1:one\n2-Two\n--\n5-five\n6:six two"
    assert run("grep", {"pattern": "f", "path": "src/a.py"}, tree).content == "4:four\n5:five"


def test_grep_literal_glob_limit_and_no_match(tree: Path, search_path: str) -> None:
    none = run("grep", {"pattern": "t.o", "literal": True}, tree)
    assert none.content == "No matches for t.o" and not none.is_error
    globbed = run("grep", {"pattern": "e", "glob": "*.txt"}, tree)
    assert globbed.content == "./src/b.txt:1:nothing here"
    braces = run("grep", {"pattern": "o", "glob": "*.{txt,log}"}, tree)
    assert sorted(braces.content.splitlines()) == [
        "./ignored.log:1:two",  # a --glob match is searched even when ignored, as rg does
        "./src/b.txt:1:nothing here",
    ]
    excluded = run("grep", {"pattern": "e", "glob": "!*.py"}, tree)
    assert excluded.content == "./src/b.txt:1:nothing here"
    limited = run("grep", {"pattern": "e", "limit": 1, "path": "src/a.py"}, tree)
    assert limited.content == f"1:one\n\n[Truncated: showing first 1 of 3 lines. {NARROW}]"


def test_grep_errors(tree: Path, search_path: str) -> None:
    bad = run("grep", {"pattern": "("}, tree)
    assert bad.is_error and bad.content.startswith("Error: rg exited with code 2:\nstderr:\n")
    missing = run("grep", {"pattern": "x", "path": "nope"}, tree)
    assert missing.is_error
    assert missing.content.startswith("Error: rg exited with code 2:\nstderr:\n")
    assert "nope: No such file or directory (os error 2)" in missing.content
    if search_path == "fallback":
        assert missing.content == (
            "Error: rg exited with code 2:\nstderr:\n"
            "rg: nope: No such file or directory (os error 2)\n"
        )


def test_find_names_types_and_errors(tree: Path, search_path: str) -> None:
    (tree / "src/deep").mkdir()
    (tree / "src/deep/c.py").write_text("")
    (tree / "src/.dot.py").write_text("")
    (tree / "src/skip.log").write_text("")
    everything = run("find", {"pattern": "*", "path": "src"}, tree)
    assert sorted(everything.content.splitlines()) == [
        "src/.dot.py",
        "src/a.py",
        "src/b.txt",
        "src/deep/",
        "src/deep/c.py",
    ]
    files = run("find", {"pattern": "*.py", "type": "file", "path": "src"}, tree)
    assert sorted(files.content.splitlines()) == ["src/.dot.py", "src/a.py", "src/deep/c.py"]
    dirs = run("find", {"pattern": "*", "type": "directory", "path": "src/"}, tree)
    assert dirs.content == "src/deep/"
    braces = run("find", {"pattern": "*.{txt,rs}", "path": "src"}, tree)
    assert braces.content == "src/b.txt"
    assert run("find", {"pattern": "*.rs", "path": "src"}, tree).content == "No matches for *.rs"
    assert run("find", {"pattern": ""}, tree).content == "Error: empty pattern"
    not_dir = run("find", {"pattern": "*", "path": "src/a.py"}, tree)
    assert not_dir.is_error
    assert not_dir.content.startswith(
        "Error: fd exited with code 1:\nstderr:\n"
        "[fd error]: Search path 'src/a.py' is not a directory.\n"
    )


def test_twenty_thousand_matches_are_counted_and_cut(tmp_path: Path, search_path: str) -> None:
    """The old search took 5.5 s on one such file (``k in hits`` on a list): the timeout."""
    (tmp_path / "one.txt").write_text("".join(f"match {n}\n" for n in range(20_000)))
    for number in range(10):
        lines = "".join(f"match {number}-{line}\n" for line in range(1000))
        (tmp_path / f"f{number:02}.txt").write_text(lines)
    for path, total in (("one.txt", 20_000), (".", 30_000)):
        out = run("grep", {"pattern": "match", "path": path}, tmp_path)
        assert not out.is_error
        shown, note = out.content.split("\n\n")
        assert len(shown.splitlines()) == 100
        assert note == f"[Truncated: showing first 100 of {total} lines. {NARROW}]"


def test_fallback_reads_no_further_than_it_needs(
    tmp_path: Path, fallback: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the collection guard the search stops reading: a 4 MB file is not read whole."""
    big = tmp_path / "big.txt"
    big.write_text("match\n" * 700_000)
    read = [0]
    opened = Path.open

    class Counted:
        def __init__(self, stream: BinaryIO) -> None:
            self.stream = stream

        def read(self, size: int) -> bytes:
            data = self.stream.read(size)
            read[0] += len(data)
            return data

        def __enter__(self) -> Counted:
            return self

        def __exit__(self, *exc: object) -> None:
            self.stream.close()

    def counting_open(path: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        stream = opened(path, mode, *args, **kwargs)
        return Counted(stream) if path == big else stream

    monkeypatch.setattr(Path, "open", counting_open)
    out = run("grep", {"pattern": "match", "limit": 1}, tmp_path)
    assert "1048576-byte collection limit" in out.content
    assert 0 < read[0] <= BUFFER_GUARD_BYTES + 64 * 1024
    assert read[0] < big.stat().st_size


def test_output_past_the_collection_guard(tmp_path: Path, search_path: str) -> None:
    line = "x" * 99  # "N:" + 99 + newline: every output line about 105 bytes
    (tmp_path / "big.txt").write_text(f"{line}\n" * 20_000)  # about 2.1 MB of output
    out = run("grep", {"pattern": "x", "path": "big.txt", "limit": 3}, tmp_path)
    shown, note = out.content.split("\n\n")
    assert shown.splitlines() == [f"1:{line}", f"2:{line}", f"3:{line}"]
    observed, size = 0, 0
    while size + len(f"{observed + 1}:{line}\n") <= BUFFER_GUARD_BYTES:
        observed += 1
        size += len(f"{observed}:{line}\n")
    assert note == (
        f"[Truncated: showing first 3 lines; at least {observed} complete lines observed; "
        f"total unknown; {BUFFER_GUARD_BYTES}-byte collection limit. {NARROW}]"
    )


def test_binary_and_ignored_files_are_skipped(tree: Path, search_path: str) -> None:
    (tree / "node_modules").mkdir()
    (tree / "node_modules/dep.js").write_text("two\n")
    (tree / ".gitignore").write_text("*.log\nnode_modules/\nsrc/*\n!src/a.py\n")
    (tree / "docs").mkdir()
    (tree / "docs/.ignore").write_text("draft*\n")
    (tree / "docs/draft.md").write_text("two\n")
    (tree / "docs/final.md").write_text("two\n")
    out = run("grep", {"pattern": "two"}, tree)
    assert sorted(out.content.splitlines()) == ["./docs/final.md:1:two", "./src/a.py:6:six two"]


EQUAL_CASES: list[tuple[str, dict[str, object]]] = [
    ("grep", {"pattern": "def \\w+"}),
    ("grep", {"pattern": "TODO", "ignoreCase": True}),
    ("grep", {"pattern": "a.b", "literal": True}),
    ("grep", {"pattern": "import", "glob": "*.py"}),
    ("grep", {"pattern": "import", "glob": "**/pkg/*.{py,pyi}"}),
    ("grep", {"pattern": "import", "glob": "!tests/**"}),
    ("grep", {"pattern": "x", "path": "proj/pkg"}),
    ("grep", {"pattern": "return", "context": 2, "path": "proj/pkg/core.py"}),
    ("grep", {"pattern": "import", "path": "proj/pkg/blob.dat"}),
    ("find", {"pattern": "*.py", "path": "proj"}),
    ("find", {"pattern": "*", "type": "directory", "path": "proj"}),
    ("find", {"pattern": "*core*", "type": "file", "path": "proj/"}),
    ("find", {"pattern": "{README,LICENSE}*", "path": "proj"}),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small repository with nested ignore rules, hidden files, a binary and a symlink."""
    root = tmp_path / "repo"
    files = {
        ".gitignore": "*.pyc\nbuild/\n/local.txt\n",
        "proj/.gitignore": "secret*\n!secret_ok.py\n",
        "proj/.ignore": "generated/\n",
        "proj/README.md": "TODO: write\nimport nothing\n",
        "proj/LICENSE": "x\n",
        "proj/local.txt": "x a.b\n",
        "local.txt": "x a.b\n",
        "proj/pkg/__init__.py": "import os\n",
        "proj/pkg/core.py": "import sys\n\n\ndef main():\n    x = 1\n    return x\n\n"
        "def other():\n    return a.b\n",
        "proj/pkg/types.pyi": "import typing\ndef f() -> int: ...\n",
        "proj/pkg/secret_key.py": "import x\n",
        "proj/pkg/secret_ok.py": "import y\n",
        "proj/pkg/generated/out.py": "import z\n",
        "proj/pkg/mod.pyc": "import compiled\n",
        "proj/build/lib.py": "import built\n",
        "proj/.hidden/h.py": "import hidden\n",
        "proj/tests/test_core.py": "import pytest\ndef test(): todo\n",
        "pkg/a.py": "x = 1\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / ".git").mkdir()
    (root / "proj/pkg/blob.dat").write_bytes(b"\x00import binary\n")
    (root / "proj/link.py").symlink_to(root / "proj/pkg/core.py")
    return root


@pytest.mark.skipif(not HAVE_BINARIES, reason="rg and fd are not installed")
@pytest.mark.parametrize(("tool", "arguments"), EQUAL_CASES)
def test_binaries_and_fallback_give_the_same_lines(
    project: Path, tool: str, arguments: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same lines (rg and fd print in no fixed order, so compared sorted)."""
    with_binaries = run(tool, arguments, project)
    monkeypatch.setattr(search, "search_binary", lambda tool: None)
    without = run(tool, arguments, project)
    assert not with_binaries.is_error and not without.is_error
    assert sorted(without.content.splitlines()) == sorted(with_binaries.content.splitlines())
    assert without.content != f"No matches for {arguments['pattern']}"


# --- the pieces -------------------------------------------------------------------------------


def test_format_search_notes() -> None:
    lines = [f"line {n}" for n in range(5)]
    assert search.format_search(SearchOutput(lines=lines), 10, "p").content == "\n".join(lines)
    assert search.format_search(SearchOutput(), 10, "p").content == "No matches for p"
    wide = ["x" * 30_000, "y" * 30_000]
    assert search.format_search(SearchOutput(lines=wide), 10, "p").content == (
        "x" * 30_000 + f"\n\n[Truncated: showing first 1 of 2 lines, 50KB limit. {NARROW}]"
    )
    warned = search.format_search(SearchOutput(lines=["a"], diagnostic="careful\n"), 10, "p")
    assert warned.content == "a\n\nstderr:\ncareful\n"


def test_expand_braces_and_decode_prefix() -> None:
    assert expand_braces("*.{ts,tsx}") == ["*.ts", "*.tsx"]
    assert expand_braces("{a,b}/{c,d}") == ["a/c", "a/d", "b/c", "b/d"]
    assert expand_braces("plain") == ["plain"]
    euro = "€".encode()
    assert decode_prefix(b"ok " + euro[:2], cut=True) == "ok "
    assert decode_prefix(b"ok " + euro, cut=True) == "ok €"
    assert decode_prefix(b"ok " + euro[:2], cut=False) == "ok \ufffd"


def test_process_output_past_the_guard_stops_the_child(tmp_path: Path) -> None:
    """A child that would print forever is stopped once the guard is passed."""
    script = "import sys\nwhile True:\n    sys.stdout.write('y' * 99 + '\\n')\n"
    out = run_search_process("rg", sys.executable, ["-c", script], tmp_path, threading.Event())
    assert out.capped
    assert len(out.lines) == BUFFER_GUARD_BYTES // 100


def test_process_failures_are_worded_as_ink(tmp_path: Path) -> None:
    fails = "import sys; sys.stderr.write('bad flag\\n'); sys.exit(3)"
    with pytest.raises(SearchError) as failed:
        run_search_process("fd", sys.executable, ["-c", fails], tmp_path, threading.Event())
    assert str(failed.value) == "Error: fd exited with code 3:\nstderr:\nbad flag\n"
    loud = "import sys; sys.stderr.write('e' * 5000); sys.exit(2)"
    with pytest.raises(SearchError) as long_error:
        run_search_process("rg", sys.executable, ["-c", loud], tmp_path, threading.Event())
    assert str(long_error.value) == (
        "Error: rg exited with code 2:\nstderr:\n"
        + "e" * 2000
        + "\n[stderr truncated: showing first 2000 bytes or fewer.]"
    )
    no_match = "import sys; sys.exit(1)"
    quiet = run_search_process("rg", sys.executable, ["-c", no_match], tmp_path, threading.Event())
    assert quiet.lines == [] and not quiet.capped


def test_process_stops_when_asked(tmp_path: Path) -> None:
    """Setting the stop event (timeout, cancel) ends the child; its output so far comes back."""
    stop = threading.Event()
    marker = tmp_path / "printed"
    script = (
        "import pathlib, sys, time\n"
        "print('first', flush=True)\n"
        f"pathlib.Path({str(marker)!r}).touch()\n"
        "time.sleep(600)\n"
    )

    def stop_once_printed() -> None:
        for _ in range(3000):  # at most 30 s: then the assertion below says what went wrong
            if marker.exists():
                break
            threading.Event().wait(0.01)
        stop.set()

    threading.Thread(target=stop_once_printed, daemon=True).start()
    out = run_search_process("rg", sys.executable, ["-c", script], tmp_path, stop)
    assert out.lines == ["first"]


def test_search_binary_prefers_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert search.search_binary("rg") is None and search.search_binary("fd") is None
    fdfind = tmp_path / "fdfind"
    fdfind.write_text("#!/bin/sh\n")
    fdfind.chmod(0o755)
    assert search.search_binary("fd") == str(fdfind)
