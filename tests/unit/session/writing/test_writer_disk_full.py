"""A write that fails part-way (disk full, an I/O error) leaves the file exactly as it was.

The session writer's ``os.write`` is replaced by one that, for the session file only, writes
part of what it is given and then fails (``ENOSPC``, ``EIO``) or stops making progress; the
file must be an exact prefix afterwards, the error one clear line, and a later append clean.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ink_tui.session import ConcurrentWriteError, SessionWriter, open_session
from ink_tui.session.writing import writer as writer_module
from ink_tui.session.writing.writer import RecordNotWrittenError, WriteBlockedError

REAL_WRITE = os.write
USER = {"role": "user", "content": "hi"}


def assistant(size: int) -> dict[str, Any]:
    """An assistant message whose record is longer than ``size`` bytes."""
    return {
        "role": "assistant",
        "blocks": [{"type": "text", "text": "Here is the plan — 修复 😀 " * (size // 20)}],
        "usage": {"inputTokens": 10, "outputTokens": 20},
        "stopReason": "end_turn",
    }


def session_with_history(tmp_path: Path) -> tuple[SessionWriter, bytes]:
    writer = SessionWriter.new(tmp_path / "proj", "/home/ada/proj")
    writer.append_message(USER)
    writer.append_message(assistant(300))
    return writer, writer.path.read_bytes()


class FailingDisk:
    """``os.write`` for the writer module: on the session file, the first ``plan`` entries say
    how many bytes each call writes (then ``fail`` is raised, or 0 returned when ``fail`` is
    None); other files are written normally."""

    def __init__(self, path: Path, plan: list[int], fail: int | None = errno.ENOSPC) -> None:
        self.path = path
        self.plan = list(plan)
        self.fail = fail
        self.calls = 0
        self.before_failing: Callable[[], None] | None = None

    def __call__(self, fd: int, data: Any) -> int:
        if not self._ours(fd):
            return REAL_WRITE(fd, data)
        self.calls += 1
        if self.plan:
            return REAL_WRITE(fd, bytes(data[: self.plan.pop(0)]))
        if self.before_failing is not None:
            self.before_failing()
        if self.fail is None:
            return 0
        raise OSError(self.fail, os.strerror(self.fail))

    def _ours(self, fd: int) -> bool:
        try:
            return os.fstat(fd).st_ino == self.path.stat().st_ino
        except OSError:
            return False


def use(monkeypatch: pytest.MonkeyPatch, disk: FailingDisk) -> None:
    monkeypatch.setattr(writer_module.os, "write", disk)


@pytest.mark.parametrize("written", [0, 1, 7477, 14999])
def test_disk_full_mid_record_leaves_the_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: int
) -> None:
    """The chat's case: an assistant record written halfway (7,477 bytes, no newline)."""
    writer, before = session_with_history(tmp_path)
    leaf = writer.leaf_id
    use(monkeypatch, FailingDisk(writer.path, [written] if written else []))
    with pytest.raises(RecordNotWrittenError) as caught:
        writer.append_message(assistant(15000))
    monkeypatch.undo()
    assert str(caught.value) == (
        f"{writer.path}: the disk is full: the record was not written; nothing else changed"
    )
    assert caught.value.errno == errno.ENOSPC
    assert isinstance(caught.value, OSError)
    assert writer.path.read_bytes() == before
    assert (writer.leaf_id, writer.size) == (leaf, len(before))
    # the writer goes on where it was: no "someone else wrote" conflict, a clean reopen
    record = writer.append_message({"role": "user", "content": "again"})
    session = open_session(writer.path, warn=None)
    assert session.ends_with_newline and session.dropped_final_line is None
    assert record["parentId"] == leaf and session.leaf_id == record["id"]
    assert writer.path.read_bytes().startswith(before)
    assert len(session.entries) == 3


def test_a_short_write_is_followed_by_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer, _ = session_with_history(tmp_path)
    disk = FailingDisk(writer.path, [1000] * 100)
    use(monkeypatch, disk)
    record = writer.append_message(assistant(5000))
    monkeypatch.undo()
    assert disk.calls > 1
    session = open_session(writer.path, warn=None)
    assert session.leaf_id == record["id"] and session.entries[-1].record == record
    assert writer.size == len(writer.path.read_bytes())


def test_a_write_that_stops_making_progress_is_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer, before = session_with_history(tmp_path)
    use(monkeypatch, FailingDisk(writer.path, [100], fail=None))
    with pytest.raises(RecordNotWrittenError) as caught:
        writer.append_message(assistant(1000))
    monkeypatch.undo()
    assert "the system stopped writing after 100 of " in str(caught.value)
    assert str(caught.value).endswith(": the record was not written; nothing else changed")
    assert writer.path.read_bytes() == before


def test_an_io_error_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer, before = session_with_history(tmp_path)
    use(monkeypatch, FailingDisk(writer.path, [10], fail=errno.EIO))
    with pytest.raises(RecordNotWrittenError) as caught:
        writer.append_message(USER)
    assert str(caught.value) == (
        f"{writer.path}: writing failed ({os.strerror(errno.EIO)}): the record was not written; "
        "nothing else changed"
    )
    assert writer.path.read_bytes() == before


def test_disk_full_while_creating_removes_the_new_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = SessionWriter.new(tmp_path / "proj", "/home/ada/proj")
    disk = FailingDisk(writer.path, [50])
    monkeypatch.setattr(writer_module.os, "write", disk)
    with pytest.raises(RecordNotWrittenError) as caught:
        writer.append_message(USER)
    monkeypatch.undo()
    assert str(caught.value) == (
        f"{writer.path}: the disk is full: the session file was not created; nothing was written"
    )
    assert not writer.path.exists() and not writer.exists
    with pytest.raises(WriteBlockedError):  # Ink's rule after a failed initialisation
        writer.append_message(USER)


def test_when_another_process_appended_meanwhile_nothing_is_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer, before = session_with_history(tmp_path)
    disk = FailingDisk(writer.path, [40])
    foreign = b'{"type":"position","leafId":null}\n'

    def other_writer() -> None:
        with writer.path.open("ab") as stream:
            stream.write(foreign)

    disk.before_failing = other_writer
    use(monkeypatch, disk)
    with pytest.raises(RecordNotWrittenError) as caught:
        writer.append_message(assistant(1000))
    monkeypatch.undo()
    text = str(caught.value)
    assert "the disk is full: the record was only partly written (40 of " in text
    assert "could not be cut off again" in text and "`ink-tui repair`" in text
    data = writer.path.read_bytes()
    assert data.startswith(before) and data.endswith(foreign)  # their record is never cut
    with pytest.raises(ConcurrentWriteError):
        writer.append_message(USER)
