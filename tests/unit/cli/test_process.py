"""Every failure of the command line, through a real ``python -m ink_tui`` process: one line on
stderr naming the file, never a traceback, and the documented exit codes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from testdata import copy_session


@pytest.mark.parametrize(
    ("argv", "naming"),
    [
        (["check", "{work}/interior-corrupt.jsonl"], "interior-corrupt.jsonl"),
        (["check", "--json", "{work}/empty-file.jsonl"], "empty-file.jsonl"),
        (["repair", "{work}/dangling-not-last.jsonl"], "dangling-not-last.jsonl"),
        (["context", "{work}/parent-cycle.jsonl"], "parent-cycle.jsonl"),
        (["check", "{work}/missing.jsonl"], "missing.jsonl"),
        (["context", "no-such-id"], "no-such-id"),
    ],
)
def test_errors_in_a_real_process_are_one_line(
    argv: list[str], naming: str, tmp_path: Path, cli: Any
) -> None:
    work = tmp_path / "work"
    for case in ("interior-corrupt", "empty-file", "dangling-not-last", "parent-cycle"):
        copy_session(work, case)
    done = cli.process(*(arg.format(work=work) for arg in argv))
    assert done.returncode == 2
    cli.one_error_line(done.stderr.decode("utf-8"), naming=naming)


def test_exit_codes_in_a_real_process(tmp_path: Path, cli: Any) -> None:
    for case, code in (("minimal", 0), ("torn-half", 1), ("orphan-result", 2)):
        path = copy_session(tmp_path, case)
        done = cli.process("check", str(path))
        assert done.returncode == code, case
        assert b"Traceback" not in done.stderr


def test_a_directory_as_session_is_one_line(tmp_path: Path, cli: Any) -> None:
    folder = tmp_path / "dir.jsonl"
    folder.mkdir()
    code, _, err = cli.run("check", str(folder))
    assert code == 2
    cli.one_error_line(err)


def test_unreadable_file_is_one_line(tmp_path: Path, cli: Any) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    path = copy_session(tmp_path, "minimal")
    path.chmod(0)
    code, _, err = cli.run("check", str(path))
    assert code == 2
    cli.one_error_line(err, naming=path.name)
