"""Opening a session from the index equals Ink's ``open()`` of the file, reading only its end."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from shared_fixtures import SHARED_FIXTURES
from testdata import all_session_files, session_facts

from ink_tui.catalog.index import CatalogIndex, update_index
from ink_tui.catalog.index import opening as opening_module
from ink_tui.catalog.index.opening import open_from_index, open_indexed
from ink_tui.demo import generate_demo
from ink_tui.session import SessionError, SessionFile, open_session

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
PROJECT = "C--Users-dev-proj"


def _sources() -> list[Path]:
    found = all_session_files()
    if SHARED_FIXTURES.is_dir():
        found += sorted(SHARED_FIXTURES.glob("*.jsonl"))
    return found


@pytest.fixture
def base(tmp_path: Path) -> Path:
    base = tmp_path / "sessions"
    generate_demo(base, seed=5, sessions=8, now=NOW)
    folder = base / PROJECT
    folder.mkdir(parents=True, exist_ok=True)
    for number, source in enumerate(_sources()):
        shutil.copy(source, folder / f"{number:03d}-{source.name}")
    return base


def _indexed(tmp_path: Path, base: Path) -> CatalogIndex:
    index = CatalogIndex.open(tmp_path / "cache" / "index.sqlite3")
    update_index(index, base, None)
    return index


def _open_or_error(path: Path) -> SessionFile | str:
    try:
        return open_session(path, warn=None)
    except SessionError as error:
        return str(error)


def test_every_session_opens_from_the_index_as_open_reads_it(tmp_path: Path, base: Path) -> None:
    index = _indexed(tmp_path, base)
    opened = 0
    for path in sorted(base.rglob("*.jsonl")):
        expected = _open_or_error(path)
        try:
            found = open_from_index(index, path)
        except SessionError as error:
            found = None
            assert str(error) == expected, path.name
        if isinstance(expected, str):
            assert found is None, f"{path.name}: Ink cannot open it, the index must not either"
        elif found is not None:
            assert session_facts(found) == session_facts(expected), path.name
            opened += 1
    # most sessions come from the index (not: header-only ones, subagents, ids stored changed);
    # Ink's shared fixtures, when they are beside the clone, add about 20
    assert opened >= (40 if SHARED_FIXTURES.is_dir() else 20)


def _spy_on_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    starts: list[int] = []
    real = opening_module.iter_line_batches

    def recording(stream: Any, start: int = 0, **options: Any) -> Any:
        starts.append(start)
        return real(stream, start, **options)

    monkeypatch.setattr(opening_module, "iter_line_batches", recording)
    return starts


def _message(entry_id: str, parent: str, text: str) -> bytes:
    record = {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-11-20T11:00:00.000Z",
        "message": {"role": "user", "content": text},
    }
    return json.dumps(record).encode() + b"\n"


def _a_demo_session(base: Path) -> Path:
    return max(
        (p for p in base.rglob("*.jsonl") if p.parent.name != PROJECT),
        key=lambda p: p.stat().st_size,
    )


def test_what_ink_appended_since_is_read_and_checked_alone(
    tmp_path: Path, base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = _indexed(tmp_path, base)
    path = _a_demo_session(base)
    before = open_session(path, warn=None)
    last_line_start = before.entries[-1].offset
    leaf = before.leaf_id
    assert leaf is not None and before.entries[-1].end == path.stat().st_size
    with path.open("ab") as stream:
        stream.write(_message("appended-1", leaf, "one more prompt"))
        stream.write(b'{"type":"message","id":"half')  # Ink is still writing this one
    starts = _spy_on_reads(monkeypatch)
    found = open_from_index(index, path)
    assert found is not None
    assert session_facts(found) == session_facts(open_session(path, warn=None))
    assert found.by_id["appended-1"].record["message"]["content"] == "one more prompt"
    assert found.dropped_final_line is not None
    assert starts == [last_line_start]  # the last line as indexed, then what came after


def test_a_broken_line_appended_since_is_refused_as_open_refuses_it(
    tmp_path: Path, base: Path
) -> None:
    index = _indexed(tmp_path, base)
    path = _a_demo_session(base)
    with path.open("ab") as stream:
        stream.write(b'{"type":"message","id":"x"}\n')  # no parentId: Ink refuses the file
        stream.write(_message("after", "x", "later"))
    expected = _open_or_error(path)
    assert isinstance(expected, str) and "session line" in expected
    with pytest.raises(SessionError) as raised:
        open_from_index(index, path)
    assert str(raised.value) == expected


@pytest.mark.parametrize("change", ["rewritten", "replaced", "shrunk", "unknown"])
def test_a_file_changed_otherwise_is_not_opened_from_the_index(
    tmp_path: Path, base: Path, change: str
) -> None:
    index = _indexed(tmp_path, base)
    path = _a_demo_session(base)
    data = path.read_bytes()
    if change == "rewritten":  # same size, same inode, other bytes at the start
        header_end = data.index(b"\n")
        changed = data[:header_end].replace(b'"id":"', b'"id":"X', 1)[: header_end - 1] + b"}"
        with path.open("r+b") as stream:
            stream.write(changed)
    elif change == "replaced":  # a new file renamed over it (a new inode)
        fresh = path.with_suffix(".new")
        fresh.write_bytes(data + _message("new", "none", "text"))
        os.replace(fresh, path)
    elif change == "shrunk":
        path.write_bytes(data[: data.index(b"\n") + 1])
    else:
        path = path.with_name("not-indexed.jsonl")
        path.write_bytes(data)
    assert open_from_index(index, path) is None


def test_without_an_index_nothing_is_created(tmp_path: Path, base: Path) -> None:
    index_path = tmp_path / "none" / "index.sqlite3"
    assert open_indexed(_a_demo_session(base), index_path=index_path) is None
    assert not index_path.exists()


def test_the_default_index_is_used_when_it_exists(tmp_path: Path, base: Path) -> None:
    index_path = tmp_path / "cache" / "index.sqlite3"
    _indexed(tmp_path, base).close()
    path = _a_demo_session(base)
    found = open_indexed(path, index_path=index_path, complete_only=True)
    assert found is not None
    assert session_facts(found) == session_facts(open_session(path, warn=None, complete_only=True))
