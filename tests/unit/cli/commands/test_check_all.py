"""``ink-tui check --all [--json]`` over a sessions folder holding every session of tests/data.

The folder: one project folder with a copy of each data session, and a ``children/`` folder with
a subagent session whose last turn has a dangling call (children are checked too). Expectations
are written out by hand from ``tests/data/README.md``.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from testdata import all_session_files, copy_session, session_file

PROJECT = "home-ada-code-calc--kit"
OLD = time.time() - 3600  # every copy is an hour old: no writer is active on it

REPAIRABLE = {  # case -> problem kinds
    "torn-half": ["torn tail"],
    "torn-no-newline": ["torn tail"],
    "torn-invalid-entry": ["torn tail"],
    "position-bad-then-unterminated": ["torn tail"],
    "unknown-type-final": ["torn tail", "complete final record cut only with --force"],
    "dangling-last-turn": ["dangling calls"],
}
NOT_CONTINUABLE = ["dangling-not-last", "boundary-assistant-pending", "duplicate-result"]
NOT_CONTINUABLE += ["orphan-result"]
UNREADABLE = ["interior-corrupt", "unknown-type-mid", "broken-chain", "parent-cycle"]
UNREADABLE += ["bad-header", "empty-file"]
CLEAN = ["minimal", "duplicate-ids", "compaction", "branch-position", "position-then-label"]
CLEAN += ["metadata-mix", "image-block", "old-format"]
CHILD = "children/2026-03-01T09-00-00-000Z-child.jsonl"  # a copy of dangling-last-turn


def _age(path: Path, when: float = OLD) -> None:
    os.utime(path, (when, when))


def sessions_folder(base: Path) -> Path:
    """``base`` holding a project folder with every data session, and one child session."""
    project = base / PROJECT
    for source in all_session_files():
        _age(copy_session(project, source.name))
    child = project / CHILD
    child.parent.mkdir()
    shutil.copyfile(session_file("dangling-last-turn"), child)
    _age(child)
    return base


def _path(base: Path, case: str) -> Path:
    return base / PROJECT / (case if case.startswith("children/") else f"{case}.jsonl")


def test_every_data_session_is_in_a_table_here() -> None:
    named = {*REPAIRABLE, *NOT_CONTINUABLE, *UNREADABLE, *CLEAN}
    assert named == {path.stem for path in all_session_files()}


def test_check_all_lists_each_session_with_a_problem_and_its_verdict(
    tmp_path: Path, cli: Any
) -> None:
    base = sessions_folder(tmp_path / "sessions")
    code, out, err = cli.run("check", "--all", "--sessions-dir", str(base))
    assert (code, err) == (2, "")
    lines = out.splitlines()
    by_file = {line.split(": ", 1)[0]: line.split(": ", 1)[1] for line in lines[:-1]}
    wanted = [*REPAIRABLE, *NOT_CONTINUABLE, *UNREADABLE, CHILD]
    assert sorted(by_file) == sorted(str(_path(base, case)) for case in wanted)
    assert by_file[str(_path(base, "torn-half"))] == (
        "repairable with `ink-tui repair`: would drop a 152-byte torn tail"
    )
    assert by_file[str(_path(base, CHILD))] == (
        "repairable with `ink-tui repair`: would close 1 interrupted tool call with an "
        "explicit unknown-outcome result"
    )
    assert by_file[str(_path(base, "unknown-type-final"))].startswith(
        "repairable with `ink-tui repair --force` (the last line is a complete record"
    )
    assert by_file[str(_path(base, "orphan-result"))] == (
        "not repairable: a tool result for call_ghost has no preceding tool call — the "
        "transcript is not continuable (start a new task instead)"
    )
    assert by_file[str(_path(base, "interior-corrupt"))].startswith(
        "not repairable: Ink cannot open it: session line 6: invalid JSON"
    )
    assert lines[-1] == (
        f"checked 25 sessions (1 of them subagent sessions in children/) under {base}: "
        "17 with problems (5 torn tail, 2 dangling calls, 1 complete final record cut only "
        "with --force, 4 not continuable, 6 Ink cannot open it)"
    )


def test_check_all_json_is_check_json_of_each_session_with_a_problem(
    tmp_path: Path, cli: Any
) -> None:
    base = sessions_folder(tmp_path / "sessions")
    code, out, err = cli.run("check", "--all", "--json", "--sessions-dir", str(base))
    assert (code, err) == (2, "")
    found = json.loads(out)
    assert isinstance(found, list) and len(found) == 17
    by_file = {item["file"]: item for item in found}
    for case, kinds in REPAIRABLE.items():
        item = by_file[str(_path(base, case))]
        assert (item["exit"], item["problems"]) == (1, kinds)
    for case in NOT_CONTINUABLE:
        item = by_file[str(_path(base, case))]
        assert (item["exit"], item["problems"], item["ok"]) == (2, ["not continuable"], True)
    for case in UNREADABLE:
        item = by_file[str(_path(base, case))]
        assert (item["exit"], item["problems"], item["ok"]) == (2, ["Ink cannot open it"], False)
    for case in [*REPAIRABLE, NOT_CONTINUABLE[0], UNREADABLE[0], CHILD]:
        path = _path(base, case)
        _, single, _ = cli.run("check", "--json", str(path))
        item = dict(by_file[str(path)])
        assert item.pop("file") == str(path)
        assert item.pop("verdict") and item.pop("problems")
        assert item == json.loads(single)  # exactly `check --json`'s object otherwise


def test_check_all_exit_0_and_no_line_when_every_session_is_fine(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    for case in CLEAN:
        copy_session(base / PROJECT, case)
    code, out, _ = cli.run("check", "--all", "--sessions-dir", str(base))
    assert (code, out) == (0, f"checked 8 sessions under {base}: no problem\n")
    code, out, _ = cli.run("check", "--all", "--json", "--sessions-dir", str(base))
    assert (code, json.loads(out)) == (0, [])


def test_check_all_exit_1_when_every_problem_is_repairable(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    for case in ["minimal", "torn-half", "dangling-last-turn"]:
        copy_session(base / PROJECT, case)
    code, out, _ = cli.run("check", "--all", "--sessions-dir", str(base))
    assert code == 1
    assert out.splitlines()[-1] == (
        f"checked 3 sessions under {base}: 2 with problems (1 torn tail, 1 dangling calls)"
    )


def test_check_all_of_a_missing_sessions_folder_checks_nothing(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "none"
    code, out, _ = cli.run("check", "--all", "--sessions-dir", str(base))
    assert (code, out) == (0, f"checked 0 sessions under {base} (it does not exist): no problem\n")


@pytest.mark.parametrize("command", ["check", "repair"])
@pytest.mark.parametrize("extra", [[], ["minimal"]], ids=["neither", "both"])
def test_session_or_all_exactly_one(command: str, extra: list[str], cli: Any) -> None:
    arguments = [command, *extra] if not extra else [command, "--all", *extra]
    code, out, err = cli.run(*arguments)
    assert (code, out) == (2, "")
    line = cli.one_error_line(err)
    assert f"{command}: give a SESSION or --all" in line


def test_repair_all_refuses_force(cli: Any) -> None:
    code, _, err = cli.run("repair", "--all", "--force")
    assert code == 2
    assert "never cuts a complete record" in cli.one_error_line(err)


def test_check_all_draws_progress_only_on_a_terminal(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = sessions_folder(tmp_path / "sessions")
    _, plain_out, plain_err = cli.run("check", "--all", "--sessions-dir", str(base))
    assert plain_err == ""
    monkeypatch.setattr("ink_tui.cli.commands.check_all.stderr_is_terminal", lambda: True)
    code, out, _ = cli.run("check", "--all", "--sessions-dir", str(base))
    assert (code, out) == (2, plain_out)  # the bar never reaches stdout


def test_a_symlink_loop_is_listed_not_a_crash(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    (base / PROJECT).mkdir(parents=True)
    loop = base / PROJECT / "loop.jsonl"
    loop.symlink_to(loop.name)
    code, out, err = cli.run("check", "--all", "--sessions-dir", str(base))
    assert (code, err) == (2, "")
    assert out.splitlines()[0] == (
        f"{loop}: not repairable: Ink cannot open it: Too many levels of symbolic links"
    )
    code, out, _ = cli.run("repair", "--all", "--sessions-dir", str(base))
    assert code == 2
    assert out.splitlines()[0] == f"{loop}: not repairable: Too many levels of symbolic links"


def test_no_escape_sequence_from_a_session_reaches_the_terminal(tmp_path: Path, cli: Any) -> None:
    """A file name and a record are untrusted: what they hold is shown, never obeyed."""
    base = tmp_path / "sessions"
    hostile = base / PROJECT / "\x1b]0;pwned\x07.jsonl"
    hostile.parent.mkdir(parents=True)
    minimal = session_file("minimal").read_bytes()
    hostile.write_bytes(minimal + b'{"type":"\\u001b[31mred"}')  # a torn tail of a new type
    for arguments in (["check", "--all"], ["check", "--all", "--json"], ["repair", "--all"]):
        code, out, err = cli.run(*arguments, "--sessions-dir", str(base))
        assert code in (1, 2)
        assert "\x1b" not in out + err and "\x07" not in out + err
        assert "pwned" in out


def test_check_all_and_repair_all_never_load_the_app(tmp_path: Path) -> None:
    """No Textual, no model SDK: the command line stays quick to start."""
    import subprocess
    import sys

    base = sessions_folder(tmp_path / "sessions")
    probe = (
        "import sys\n"
        "from ink_tui.cli import main\n"
        f"main(['check', '--all', '--sessions-dir', {str(base)!r}])\n"
        f"main(['repair', '--all', '--dry-run', '--sessions-dir', {str(base)!r}])\n"
        "names = ('textual', 'ink_tui.ui', 'anthropic', 'openai', 'ink_tui.catalog.index')\n"
        "print(sorted(n for n in names if any(m == n or m.startswith(n + '.') "
        "for m in sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    "command",
    [["check", "--all"], ["check", "--all", "--json"], ["repair", "--all", "--dry-run"]],
)
def test_worker_processes_give_the_same_answer(
    command: list[str], tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over enough bytes (:data:`PARALLEL_BYTES`), sessions are checked in worker processes
    (one per CPU): the output is the same, in the same order."""
    import ink_tui.cli.commands.check_all as bulk

    base = sessions_folder(tmp_path / "sessions")
    arguments = [*command, "--sessions-dir", str(base)]
    serial = cli.run(*arguments)
    monkeypatch.setattr(bulk, "_workers", lambda paths: 2)  # even on a one-CPU machine
    assert cli.run(*arguments) == serial


def test_a_bug_on_one_session_is_logged_and_the_others_are_still_checked(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.cli.commands.check_all as bulk
    from ink_tui import logs
    from ink_tui.catalog.checkup import check_file

    monkeypatch.setattr(logs, "log_dir", lambda: tmp_path / "log")
    base = tmp_path / "sessions"
    for case in ["minimal", "torn-half", "dangling-last-turn"]:
        copy_session(base / PROJECT, case)

    def check_or_trip(path: Path) -> Any:
        if path.stem == "minimal":
            raise RuntimeError("a bug")
        return check_file(path)

    monkeypatch.setattr(bulk, "check_file", check_or_trip)
    code, out, err = cli.run("check", "--all", "--sessions-dir", str(base))
    assert (code, err) == (2, "")
    lines = out.splitlines()
    assert lines[1].startswith(
        f"{_path(base, 'minimal')}: not checked: internal error in checking "
        f"{_path(base, 'minimal')}: RuntimeError: a bug (traceback in {tmp_path / 'log'}"
    )
    assert len(lines) == 4 and lines[-1].endswith(
        "3 with problems (1 torn tail, 1 dangling calls, 1 not checked (an internal error))"
    )
    assert "RuntimeError: a bug" in (tmp_path / "log" / logs.LOG_FILE_NAME).read_text()
