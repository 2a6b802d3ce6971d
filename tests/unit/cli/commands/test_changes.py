"""``ink-tui changes`` (issue 13): the summary and diffs, and ``--patch`` applied by git."""

from __future__ import annotations

import argparse
import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

import changesdata
import pytest
from changesdata import CWD, MAIN_END, MAIN_START, NOTES_END, SessionScript

from ink_tui.cli.commands.changes import run as run_changes
from ink_tui.cli.output import SafeOutput
from ink_tui.paths import project_dir
from ink_tui.session import open_session


@pytest.fixture
def session(tmp_path: Path) -> Path:
    return changesdata.changes_session(tmp_path / "sessions")


def test_summary_per_file_per_turn_and_the_diffs(cli: Any, session: Path) -> None:
    code, out, err = cli.run("changes", str(session))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:4] == [
        "3 files changed: +10 -2 (1 not reconstructed)",
        "  calc/main.py  +6 -2  3 turns  ✗ 1 failed",
        "  NOTES.md      +4 -0  new  2 turns  ✗ 1 failed",
        "  calc/old.py   ?  turn 3  (not reconstructed: nothing shows its content before turn 3)",
    ]
    assert "  turn 2: write notes" in lines
    assert "    calc/main.py  ✗ 1 failed" in lines  # turn 2 only failed on it
    assert "+def mul(a, b):" in lines and "-def add(a, b):" in lines
    assert "✗ failed edit in turn 2: Error: not found" in lines
    assert lines[-2:] == ["-x = 1", "+x = 2"]  # the unknown file's edit, as it was asked
    assert "\x1b" not in out  # not a terminal: no colour


def test_patch_applies_to_a_copy_of_the_start_state(
    cli: Any, session: Path, tmp_path: Path
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the patch cannot be checked with git apply")
    code, out, err = cli.run("changes", str(session), "--patch")
    assert code == 1  # calc/old.py could not be reconstructed
    why = "nothing shows its content before turn 3"
    assert err == f"ink-tui: calc/old.py: not reconstructed: {why}\n"
    start = tmp_path / "start"
    (start / "calc").mkdir(parents=True)
    (start / "calc" / "main.py").write_text(MAIN_START, encoding="utf-8")
    patch = tmp_path / "changes.patch"
    patch.write_text(out, encoding="utf-8")
    for check in (["--check"], []):
        done = subprocess.run(
            ["git", "apply", *check, str(patch)], cwd=start, capture_output=True, check=False
        )
        assert done.returncode == 0, done.stderr.decode()
    assert (start / "calc" / "main.py").read_text(encoding="utf-8") == MAIN_END
    assert (start / "NOTES.md").read_text(encoding="utf-8") == NOTES_END


def test_patch_of_a_session_where_everything_is_known_exits_0(cli: Any, tmp_path: Path) -> None:
    run = SessionScript(project_dir(tmp_path, CWD))
    run.prompt("go")
    run.write("a.txt", "a\n")
    code, out, err = cli.run("changes", str(run.path), "--patch")
    assert (code, err) == (0, "")
    assert out.startswith("diff --git a/a.txt b/a.txt\nnew file mode 100644\n")


def test_files_outside_the_cwd_are_left_out_of_the_patch(cli: Any, tmp_path: Path) -> None:
    run = SessionScript(project_dir(tmp_path, CWD))
    run.prompt("go")
    run.write("/etc/motd", "hi\n")
    code, out, err = cli.run("changes", str(run.path), "--patch")
    assert (code, out) == (1, "")
    assert err == "ink-tui: /etc/motd: not in the patch: outside the session's folder\n"


def test_branch_option_and_its_errors(cli: Any, session: Path) -> None:
    loaded = open_session(session, warn=None)
    first_answer = next(
        e for e in loaded.entries if e.type == "message" and e.record["message"]["role"] == "user"
    )
    code, out, _ = cli.run("changes", str(session), "--branch", first_answer.id[:10])
    assert code == 0 and out == "no file was changed through edit or write on this branch\n"
    code, _, err = cli.run("changes", str(session), "--branch", "zzzz")
    assert code == 2
    cli.one_error_line(err, naming="--branch zzzz: no entry is or starts with zzzz")


def test_a_broken_session_is_one_line(cli: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    code, _, err = cli.run("changes", str(bad))
    assert code == 2
    cli.one_error_line(err, naming="bad.jsonl")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_never_lets_session_escapes_through(tmp_path: Path) -> None:
    run = SessionScript(project_dir(tmp_path, CWD))
    run.prompt("go")
    run.write("evil.txt", "\x1b]0;pwned\x07 text\n")
    stream = _Terminal()
    args = argparse.Namespace(session=str(run.path), branch=None, patch=False)
    assert run_changes(args, tmp_path, CWD, SafeOutput(stream)) == 0
    painted = next(line for line in stream.getvalue().splitlines() if "pwned" in line)
    assert painted.startswith("\x1b[32m+") and painted.endswith("\x1b[0m")
    assert "\x1b]0" not in stream.getvalue()


def test_content_a_safe_terminal_would_change_is_left_out_of_the_patch(
    cli: Any, tmp_path: Path
) -> None:
    run = SessionScript(project_dir(tmp_path, CWD))
    run.prompt("go")
    run.write("dos.txt", "a\r\nb\r\n")
    run.write("evil.txt", "\x1b]0;pwned\x07\n")
    run.write("fine.txt", "ok\n")
    code, out, err = cli.run("changes", str(run.path), "--patch")
    assert code == 1 and out.startswith("diff --git a/fine.txt b/fine.txt\n")
    assert "dos.txt" not in out and "evil.txt" not in out and "\x1b" not in out
    assert err.splitlines() == [
        f"ink-tui: {name}: not in the patch: its content holds control characters (CRLF line "
        "endings?)"
        for name in ("dos.txt", "evil.txt")
    ]


def test_patch_creates_an_empty_file_and_keeps_a_missing_last_newline(
    cli: Any, tmp_path: Path
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the patch cannot be checked with git apply")
    run = SessionScript(project_dir(tmp_path / "sessions", CWD))
    run.prompt("go")
    run.write("empty.txt", "")
    run.read("tail.txt", "one\ntwo")
    run.edit("tail.txt", "two", "two\nthree")
    code, out, err = cli.run("changes", str(run.path), "--patch")
    assert (code, err) == (0, "")
    start = tmp_path / "start"
    start.mkdir()
    (start / "tail.txt").write_text("one\ntwo", encoding="utf-8")
    (tmp_path / "p.patch").write_text(out, encoding="utf-8")
    done = subprocess.run(
        ["git", "apply", str(tmp_path / "p.patch")], cwd=start, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert (start / "empty.txt").read_bytes() == b""
    assert (start / "tail.txt").read_text(encoding="utf-8") == "one\ntwo\nthree"
