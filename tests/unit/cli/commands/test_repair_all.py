"""``ink-tui repair --all [--dry-run]`` over a sessions folder holding every data session.

It applies only the safe repairs (``repair`` without ``--force``), session by session, never
stopping at a failure; a session a writer may be active on (modified in the last minute, a
subagent's lease held, or appended to while the repair runs) is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from testdata import UNKNOWN_OUTCOME, all_session_files, copy_session

from ink_tui.session import open_session

PROJECT = "home-ada-code-calc--kit"
OLD = time.time() - 3600
SAFE = {  # repaired without --force -> what the file holds after
    "torn-half": "truncated",
    "torn-invalid-entry": "truncated",
    "torn-no-newline": "terminated",
    "position-bad-then-unterminated": "terminated",
    "dangling-last-turn": "closed",
}
LEFT = [  # never written: not repairable, unreadable, or a complete record (--force only)
    "unknown-type-final",
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


def _folder(base: Path, cases: list[str] | None = None) -> Path:
    names = [path.stem for path in all_session_files()] if cases is None else cases
    for name in names:
        path = copy_session(base / PROJECT, name)
        os.utime(path, (OLD, OLD))
    return base


def _snapshot(base: Path) -> dict[Path, tuple[bytes, int]]:
    files = (path for path in base.rglob("*") if path.is_file())
    return {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in files}


def _path(base: Path, case: str) -> Path:
    return base / PROJECT / f"{case}.jsonl"


def test_dry_run_writes_nothing(tmp_path: Path, cli: Any) -> None:
    base = _folder(tmp_path / "sessions")
    before = _snapshot(base)
    code, out, err = cli.run("repair", "--all", "--dry-run", "--sessions-dir", str(base))
    assert _snapshot(base) == before  # bytes, mtimes, and no new file (no backup)
    assert (code, err) == (2, "")
    lines = out.splitlines()
    assert (
        f"{_path(base, 'torn-half')}: would drop a 152-byte torn tail: truncate the file at byte "
        "2259 (line 9), keeping the bytes cut in a backup beside it"
    ) in lines
    for case in SAFE:
        assert any(line.startswith(f"{_path(base, case)}: would ") for line in lines), case
    assert lines[-1] == (
        f"dry run, nothing was written: 24 sessions under {base}: 5 would be repaired, "
        "11 not repairable, 8 fine"
    )


def test_repair_all_repairs_the_repairable_and_leaves_the_rest(tmp_path: Path, cli: Any) -> None:
    base = _folder(tmp_path / "sessions")
    before = _snapshot(base)
    code, out, err = cli.run("repair", "--all", "--sessions-dir", str(base))
    assert (code, err) == (2, "")  # some are left that no repair fixes
    assert out.splitlines()[-1] == (
        f"repair --all: 24 sessions under {base}: 5 repaired, 11 not repairable, 8 fine"
    )
    for case in LEFT:
        path = _path(base, case)
        assert (path.read_bytes(), path.stat().st_mtime_ns) == before[path], case
    for case, how in SAFE.items():
        path = _path(base, case)
        assert f"{path}: ok: Ink opens and continues it as it is" in out.splitlines(), case
        session = open_session(path, warn=None)
        assert not session.torn_final_line
        if how == "truncated":
            assert path.read_bytes() == before[path][0][: session.size]
            backups = list(path.parent.glob(path.name + ".cut-*"))
            assert len(backups) == 1
            assert before[path][0] == path.read_bytes() + backups[0].read_bytes()
        elif how == "terminated":
            assert path.read_bytes() == before[path][0] + b"\n"
        else:
            assert path.read_bytes().startswith(before[path][0])
            assert UNKNOWN_OUTCOME in path.read_bytes().decode("utf-8")
    code, out, _ = cli.run("check", "--all", "--json", "--sessions-dir", str(base))
    assert code == 2
    assert sorted(Path(item) for item in _files(out)) == sorted(_path(base, c) for c in LEFT)


def _files(out: str) -> list[str]:
    return [item["file"] for item in json.loads(out)]


def test_a_session_modified_a_moment_ago_is_skipped(tmp_path: Path, cli: Any) -> None:
    base = _folder(tmp_path / "sessions", ["torn-half", "dangling-last-turn", "minimal"])
    live = _path(base, "torn-half")
    os.utime(live, (time.time() - 5, time.time() - 5))
    before = live.read_bytes()
    code, out, _ = cli.run("repair", "--all", "--sessions-dir", str(base))
    assert code == 1  # still repairable, once the writer is done
    assert live.read_bytes() == before
    skipped = [line for line in out.splitlines() if line.startswith(f"{live}: ")]
    assert skipped == [
        f"{live}: skipped: a writer may be active: modified 5 s ago (less than 60 s); run it "
        "again once Ink is done with it"
    ]
    assert out.splitlines()[-1] == (
        f"repair --all: 3 sessions under {base}: 1 repaired, "
        "1 skipped (a writer may be active), 1 fine"
    )


def test_a_subagent_session_under_a_fresh_lease_is_skipped(tmp_path: Path, cli: Any) -> None:
    base = tmp_path / "sessions"
    child = copy_session(base / PROJECT / "children", "dangling-last-turn")
    os.utime(child, (OLD, OLD))
    lease = child.with_name(child.name + ".lease")
    lease.mkdir()
    (lease / "lease-4242-0a1b2c3d-attempt1").write_text("")
    before = child.read_bytes()
    code, out, _ = cli.run("repair", "--all", "--sessions-dir", str(base))
    assert code == 1
    assert child.read_bytes() == before
    assert f"{child}: skipped: Ink is resuming this subagent session now (lease held by " in out


def test_a_writer_appending_during_the_repair_is_left_alone(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process appends between the check and the write: the writer's rule (the size
    is read again first) refuses, the session is skipped, and the others are still repaired."""
    base = _folder(tmp_path / "sessions", ["torn-no-newline", "dangling-last-turn", "torn-half"])
    import ink_tui.session.writing.repair as repair

    plan = repair.plan_continuation
    calls: dict[Path, int] = {}

    def plan_then_another_writer(session: Any) -> Any:
        planned = plan(session)
        calls[session.path] = calls.get(session.path, 0) + 1
        if session.path.stem != "torn-half" and calls[session.path] == 2:  # inside the repair
            with session.path.open("ab") as stream:
                stream.write(b'{"type":"label","id":"zz","parentId":null}\n')
        return planned

    monkeypatch.setattr(repair, "plan_continuation", plan_then_another_writer)
    code, out, _ = cli.run("repair", "--all", "--sessions-dir", str(base))
    assert code == 1
    lines = out.splitlines()
    for case in ("torn-no-newline", "dangling-last-turn"):
        path = _path(base, case)
        assert any(line.startswith(f"{path}: skipped: ") for line in lines), (case, out)
        assert path.read_bytes().endswith(b'"parentId":null}\n')  # only the other writer's
    assert f"{_path(base, 'torn-half')}: ok: Ink opens and continues it as it is" in lines
    assert lines[-1].endswith("1 repaired, 2 skipped (a writer may be active)")


def test_a_bug_on_one_session_is_logged_and_the_others_are_still_repaired(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.session.writing.repair as repair
    from ink_tui import logs

    monkeypatch.setattr(logs, "log_dir", lambda: tmp_path / "log")
    base = _folder(tmp_path / "sessions", ["torn-half", "dangling-last-turn"])
    real = repair.repair_session

    def repair_or_trip(path: Path, **options: Any) -> Any:
        if path.stem == "dangling-last-turn":
            raise RuntimeError("a bug")
        return real(path, **options)

    monkeypatch.setattr(repair, "repair_session", repair_or_trip)
    code, out, err = cli.run("repair", "--all", "--sessions-dir", str(base))
    assert (code, err) == (2, "")
    lines = out.splitlines()
    broken = _path(base, "dangling-last-turn")
    assert f"{broken}: repair failed: internal error in repairing {broken}: RuntimeError" in out
    assert f"{_path(base, 'torn-half')}: ok: Ink opens and continues it as it is" in lines
    assert lines[-1].endswith("1 repaired, 1 failed")
