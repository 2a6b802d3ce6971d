"""``ink-tui repair`` (and ``--dry-run``) on copies of the project's own sessions (tests/data).

It fixes only what Ink's continuation would: a torn final line (truncated or terminated) and
the unanswered calls of the last turn (one appended result); it refuses everything else with
one line and writes nothing. A complete final record that fails Ink's checks (Ink's repair
would cut it) is cut only with ``--force``; whatever is cut is kept in a backup beside the file.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from testdata import UNKNOWN_OUTCOME, copy_session

from ink_tui.session import open_session

TRUNCATED = {"torn-half": 152, "torn-invalid-entry": 137, "unknown-type-final": 116}  # bytes cut
COMPLETE = ("unknown-type-final",)  # the cut line is a complete record, newline and all
TERMINATED = ("torn-no-newline", "position-bad-then-unterminated")  # a newline appended
DANGLING = "dangling-last-turn"  # call_3 answered by an appended result
REPAIRABLE = [*TRUNCATED, *TERMINATED, DANGLING]
OK = ["minimal", "duplicate-ids"]
FAILED = [
    "dangling-not-last",
    "boundary-assistant-pending",
    "duplicate-result",
    "orphan-result",
    "interior-corrupt",
    "unknown-type-mid",
    "broken-chain",
    "parent-cycle",
    "bad-header",
    "empty-file",
]


@pytest.mark.parametrize("case", REPAIRABLE + OK + FAILED)
def test_repair_dry_run_changes_no_byte(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    before, status = path.read_bytes(), path.stat()
    code, out, _ = cli.run("repair", "--dry-run", str(path))
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == status.st_mtime_ns
    if case in COMPLETE:  # refused as the real repair refuses it
        assert (code, out) == (2, "")
    elif case in REPAIRABLE:
        assert code == 0
        assert any(line.startswith("would ") for line in out.splitlines())
    elif case in OK:
        assert (code, out) == (0, f"{path}: nothing to repair\n")
    else:
        assert code == 2


def _backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".cut-*"))


@pytest.mark.parametrize("case", TRUNCATED)
def test_repair_truncates_the_torn_line_keeping_a_copy(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    before = path.read_bytes()
    force = ("--force",) if case in COMPLETE else ()
    code, out, err = cli.run("repair", *force, str(path))
    assert (code, err) == (0, "")
    cut = TRUNCATED[case]
    (backup,) = _backups(path)
    assert out.splitlines() == [
        f"dropped a {cut}-byte torn tail: truncated at byte {len(before) - cut} (line 9)",
        f"the {cut} bytes cut are kept in {backup}",
        f"{path}: ok: Ink opens and continues it as it is",
    ]
    assert path.read_bytes() == before[:-cut]
    assert before[: len(before) - cut].endswith(b"\n")
    assert backup.read_bytes() == before[-cut:]
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert not backup.name.endswith(".jsonl")
    assert cli.run("check", str(path))[0] == 0


@pytest.mark.parametrize("case", COMPLETE)
def test_a_complete_final_record_is_cut_only_with_force(
    case: str, tmp_path: Path, cli: Any
) -> None:
    """Ink's repair would delete it silently; ink-tui refuses and says how to cut it."""
    path = copy_session(tmp_path, case)
    before = path.read_bytes()
    for dry_run in ((), ("--dry-run",)):
        code, out, err = cli.run("repair", *dry_run, str(path))
        assert (code, out) == (2, "")
        line = cli.one_error_line(err, naming=path.name)
        assert "not repaired, nothing was written" in line
        assert "is a complete record that fails Ink's checks" in line
        assert "`ink-tui repair --force`" in line
        assert path.read_bytes() == before and _backups(path) == []
    code, out, _ = cli.run("repair", "--dry-run", "--force", str(path))
    assert code == 0 and path.read_bytes() == before and _backups(path) == []
    assert "keeping the bytes cut in a backup beside it" in out
    assert out.endswith("(`ink-tui repair --force` does the above)\n")
    _, out, _ = cli.run("check", str(path))
    assert "repairable with `ink-tui repair --force` (the last line is a complete record" in out
    assert cli.run("repair", "--force", str(path))[0] == 0
    (backup,) = _backups(path)
    assert path.read_bytes() + backup.read_bytes() == before


def test_a_backup_is_never_listed_as_a_session(tmp_path: Path, cli: Any) -> None:
    from ink_tui.catalog.scan import list_sessions

    folder = tmp_path / "sessions" / "home-ada-proj"
    path = copy_session(folder, "torn-half")
    assert cli.run("repair", str(path))[0] == 0
    assert len(_backups(path)) == 1
    assert [row.path for row in list_sessions(tmp_path / "sessions", None)] == [path]


def test_two_repairs_in_the_same_millisecond_keep_two_backups(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from ink_tui.session.writing.repair import keep_cut_bytes

    now = datetime(2026, 10, 5, 12, 34, 56, 789000, tzinfo=UTC)
    path = tmp_path / "s.jsonl"
    first = keep_cut_bytes(path, b"one", now)
    second = keep_cut_bytes(path, b"two", now)
    assert first.name == "s.jsonl.cut-20261005T123456789Z"
    assert second.name == "s.jsonl.cut-20261005T123456789Z-2"
    assert (first.read_bytes(), second.read_bytes()) == (b"one", b"two")


def test_when_the_backup_cannot_be_written_nothing_is_cut(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ink_tui.session.writing import repair as repair_module

    path = copy_session(tmp_path, "torn-half")
    before = path.read_bytes()

    def full(path: Path, data: bytes, now: Any = None) -> Path:
        raise OSError(28, "No space left on device", str(path) + ".cut-x")

    monkeypatch.setattr(repair_module, "keep_cut_bytes", full)
    code, out, err = cli.run("repair", str(path))
    assert (code, out) == (2, "")
    cli.one_error_line(err, naming="No space left on device")
    assert path.read_bytes() == before


@pytest.mark.parametrize("case", TERMINATED)
def test_repair_appends_the_missing_newline_and_nothing_else(
    case: str, tmp_path: Path, cli: Any
) -> None:
    path = copy_session(tmp_path, case)
    code, out, err = cli.run("repair", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "terminated an unterminated final record: appended a newline",
        f"{path}: ok: Ink opens and continues it as it is",
    ]


def test_an_earlier_bad_position_marker_loses_no_record(tmp_path: Path, cli: Any) -> None:
    """Current Ink's repair accepts every position marker: the file is terminated, all kept."""
    path = copy_session(tmp_path, "position-bad-then-unterminated")
    before = path.read_bytes()
    code, _, _ = cli.run("repair", str(path))
    assert code == 0
    assert path.read_bytes() == before + b"\n"
    session = open_session(path, warn=None)
    assert [entry.id for entry in session.entries][-2:] == ["r2", "a4"]
    assert session.leaf_id == "a4"
    assert cli.run("check", str(path))[0] == 0


def _appended(before: bytes, path: Path) -> dict[str, Any]:
    after = path.read_bytes()
    assert after.startswith(before)
    tail = after[len(before) :]
    assert tail.endswith(b"\n") and tail.count(b"\n") == 1, "exactly one record appended"
    record: dict[str, Any] = json.loads(tail)
    return record


def test_repair_closes_the_dangling_call_with_one_result(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, DANGLING)
    before = path.read_bytes()
    code, out, err = cli.run("repair", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        "1 interrupted tool call(s) closed with an explicit unknown-outcome result: "
        "appended one toolResult closing call_3"
    )
    record = _appended(before, path)
    assert (record["type"], record["parentId"]) == ("message", "r2")
    (result,) = record["message"]["results"]
    assert record["message"]["role"] == "toolResult"
    assert (result["toolCallId"], result["toolName"], result["isError"]) == ("call_3", "bash", True)
    assert open_session(path, warn=None).leaf_id == record["id"]
    # a second repair has nothing left to do
    assert cli.run("repair", str(path))[1] == f"{path}: nothing to repair\n"
    assert cli.run("check", str(path))[0] == 0


def test_the_closing_result_says_ink(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, DANGLING)
    before = path.read_bytes()
    cli.run("repair", str(path))
    assert _appended(before, path)["message"]["results"][0]["content"] == UNKNOWN_OUTCOME


def test_check_json_shows_the_closing_result_it_would_append(tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, DANGLING)
    _, out, _ = cli.run("check", "--json", str(path))
    result = {"toolCallId": "call_3", "toolName": "bash", "content": UNKNOWN_OUTCOME}
    assert json.loads(out)["continuation"]["appended"] == [
        {"role": "toolResult", "results": [{**result, "isError": True}]}
    ]


@pytest.mark.parametrize("case", FAILED)
def test_repair_refuses_with_one_line_and_no_write(case: str, tmp_path: Path, cli: Any) -> None:
    path = copy_session(tmp_path, case)
    before = path.read_bytes()
    code, out, err = cli.run("repair", str(path))
    assert (code, out) == (2, "")
    line = cli.one_error_line(err, naming=path.name)
    assert "nothing was written" in line
    assert path.read_bytes() == before


def test_repair_missing_file_exit_2(tmp_path: Path, cli: Any) -> None:
    code, _, err = cli.run("repair", str(tmp_path / "gone.jsonl"))
    assert code == 2
    cli.one_error_line(err, naming="gone.jsonl")
