"""The live tail never raises when the file goes away or cannot be read: it asks for a reload.

(Following a real writer, record by record, is in ``tests/reliability/test_live_tail.py``.)
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from testdata import session_file

import ink_tui.session.live.tail as tail_module
from ink_tui.session.live.tail import SessionTail, open_for_follow

APPENDED = (
    b'{"type":"message","id":"ffff000011112222","parentId":"a1",'
    b'"timestamp":"2026-10-12T11:40:00.000Z","message":{"role":"user","content":"next"}}\n'
)


def _tail(tmp_path: Path) -> SessionTail:
    target = tmp_path / "s.jsonl"
    shutil.copyfile(session_file("minimal"), target)
    tail = SessionTail(open_for_follow(target))
    with target.open("ab") as stream:
        stream.write(APPENDED)
    return tail


def _denied(*args: Any, **kwargs: Any) -> Any:
    raise PermissionError(errno.EACCES, "Permission denied")


def test_a_file_that_cannot_be_opened_any_more_asks_for_a_reload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tail = _tail(tmp_path)
    monkeypatch.setattr(tail_module, "open_regular", _denied)  # made unreadable after its stat
    update = tail.poll()
    assert update.reset == "the file cannot be read (Permission denied)"
    assert not update.entries


def test_a_file_whose_folder_cannot_be_read_any_more_asks_for_a_reload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tail = _tail(tmp_path)
    monkeypatch.setattr(tail_module, "os", SimpleNamespace(stat=_denied))  # not "not found"
    assert tail.poll().reset == "the file cannot be read (Permission denied)"


def test_a_file_removed_between_its_stat_and_its_read_asks_for_a_reload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tail = _tail(tmp_path)

    def stat_then_remove(path: Any) -> Any:
        result = os.stat(path)
        tail.path.unlink()
        return result

    monkeypatch.setattr(tail_module, "os", SimpleNamespace(stat=stat_then_remove))
    assert tail.poll().reset == "the file was removed"


def test_after_a_read_error_that_passed_the_tail_reads_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tail = _tail(tmp_path)
    with monkeypatch.context() as patch:
        patch.setattr(tail_module, "open_regular", _denied)
        assert tail.poll().reset is not None
    assert [entry.id for entry in tail.poll().entries] == ["ffff000011112222"]
