"""The catalog index: rows equal to the listing's, incremental updates, damage, two processes."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from testdata import SESSIONS, copy_tree

from ink_tui.catalog import list_sessions, summarize_file
from ink_tui.catalog.index import (
    CatalogIndex,
    IndexUnavailable,
    default_index_path,
    filescan,
    load_rows,
    ondisk,
    update_index,
)
from ink_tui.catalog.index.store import SCHEMA_VERSION
from ink_tui.catalog.search import search_index
from ink_tui.demo import generate_demo

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
NEW_FIELDS = ("lastActivity", "tokensIn", "tokensOut", "secrets")


def _listing(rows: list[Any]) -> dict[str, dict[str, Any]]:
    """Rows by path, without the fields only the index knows."""
    shown = {}
    for row in rows:
        fields = row.to_dict()
        for name in NEW_FIELDS:
            fields.pop(name)
        shown[fields["path"]] = fields
    return shown


def _index(tmp_path: Path) -> CatalogIndex:
    return CatalogIndex.open(tmp_path / "cache" / "index.sqlite3")


def _record(entry_id: str, parent: str, text: str, role: str = "user") -> bytes:
    if role == "user":
        message: dict[str, Any] = {"role": "user", "content": text}
    else:
        message = {
            "role": "assistant",
            "blocks": [{"type": "text", "text": text}],
            "usage": {"inputTokens": 10, "outputTokens": 5},
            "stopReason": "end_turn",
        }
    record = {
        "type": "message",
        "id": entry_id,
        "parentId": parent,
        "timestamp": "2026-11-20T10:00:00.000Z",
        "message": message,
    }
    return json.dumps(record).encode() + b"\n"


@pytest.fixture
def demo_base(tmp_path: Path) -> Path:
    base = tmp_path / "sessions"
    generate_demo(base, seed=3, sessions=12, now=NOW)
    return base


def test_rows_from_the_index_equal_the_listing_for_every_kind_of_file(
    tmp_path: Path, demo_base: Path
) -> None:
    for source in SESSIONS.glob("*.jsonl"):  # torn, corrupt, broken, empty, old-format …
        shutil.copy(source, demo_base / "C--Users-dev-proj" / source.name)
    copy_tree(tmp_path / "tree")
    for base in (demo_base, tmp_path / "tree"):
        with _index(tmp_path) as index:
            report = update_index(index, base, None)
            assert report.added == report.files > 0
            assert _listing(load_rows(index, None)) == _listing(list_sessions(base, None))


def test_an_unchanged_file_is_not_read_again(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _index(tmp_path) as index:
        update_index(index, demo_base, None)

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("an unchanged file was read")

        monkeypatch.setattr(filescan, "scan_file", refuse)
        report = update_index(index, demo_base, None)
        assert report.unchanged == report.files and report.bytes_read == 0


def test_looking_for_changes_stats_each_file_once(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing's stat of each file is the one the change check compares (every ``ink-tui
    search`` pays for this look at the whole tree): no file is stat'ed again by its path."""
    with _index(tmp_path) as index:
        update_index(index, demo_base, None)
        stat = Path.stat
        again: list[Path] = []

        def counted(path: Path, *args: Any, **kwargs: Any) -> Any:
            if path.suffix == ".jsonl":
                again.append(path)
            return stat(path, *args, **kwargs)

        monkeypatch.setattr(Path, "stat", counted)
        report = update_index(index, demo_base, None)
        assert report.unchanged == report.files > 0
        assert again == []


def test_looking_for_changes_makes_no_path_for_an_unchanged_file(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Making a ``Path`` per file was most of the look at 20,000 sessions: only a changed file
    gets one."""
    with _index(tmp_path) as index:
        update_index(index, demo_base, None)
        made: list[bytes] = []
        path_of = ondisk.OnDisk.path.fget
        assert path_of is not None

        def counted(item: ondisk.OnDisk) -> Path:
            made.append(item.key)
            return path_of(item)

        monkeypatch.setattr(ondisk.OnDisk, "path", property(counted))
        assert update_index(index, demo_base, None).unchanged > 0
        assert made == []
        grown = sorted(demo_base.rglob("*.jsonl"))[0]
        with grown.open("ab") as stream:
            stream.write(b"\n")
        update_index(index, demo_base, None)
        assert made == [bytes(grown)]


def _one_session(folder: Path) -> Path:
    folder.mkdir(parents=True)
    path = folder / "2026-11-20T10-00-00-000Z-e1111111-1111-4111-8111-111111111111.jsonl"
    header = {
        "type": "session",
        "version": 1,
        "id": "e1111111-1111-4111-8111-111111111111",
        "timestamp": "2026-11-20T10:00:00.000Z",
        "cwd": "/home/ada/p",
    }
    path.write_bytes(
        json.dumps(header).encode()
        + b"\n"
        + _record("u1", None, "make the retry logic generic")  # type: ignore[arg-type]
        + _record("a1", "u1", "Done: retry() now takes any callable.", "assistant")
    )
    return path


def _hits(index: CatalogIndex, query: str) -> list[str]:
    return [hit.entry_id for hit in search_index(index, query)]


def _check_row(index: CatalogIndex, path: Path) -> None:
    (row,) = [row for row in load_rows(index, None) if row.path == path]
    assert _listing([row]) == _listing([summarize_file(path)])


def test_appends_are_read_from_the_indexed_offset_and_a_torn_tail_waits(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    path = _one_session(base / "home-ada-p")
    with _index(tmp_path) as index:
        assert update_index(index, base, None).added == 1
        assert _hits(index, "generic") == ["u1"]
        whole = _record("u2", "a1", "now add jitter to the backoff")
        with path.open("ab") as stream:
            stream.write(whole[:25])  # a half line, as Ink leaves it mid-write
        report = update_index(index, base, None)
        assert report.appended == 1 and report.bytes_read < len(whole) + 200
        _check_row(index, path)
        assert _hits(index, "jitter") == []
        with path.open("ab") as stream:
            stream.write(whole[25:])
        assert update_index(index, base, None).appended == 1
        _check_row(index, path)
        assert _hits(index, "jitter") == ["u2"]
        assert _hits(index, "generic") == ["u1"]  # earlier text kept, not doubled
        count = index.connection.execute("SELECT count(*) FROM texts").fetchone()[0]
        assert count == 3


def test_a_torn_tail_cut_by_a_repair_is_read_from_the_indexed_offset(tmp_path: Path) -> None:
    """A repair cuts only the last line, which the index holds as provisional: the rows before
    it stay, nothing is read again from the start (on a 50 MB session that took ~20 s)."""
    from ink_tui.session import repair_session

    base = tmp_path / "sessions"
    path = _one_session(base / "home-ada-p")
    whole = _record("u2", "a1", "now add jitter to the backoff")
    with path.open("ab") as stream:
        stream.write(whole[:40])  # Ink died mid-write
    with _index(tmp_path) as index:
        assert update_index(index, base, None).added == 1
        texts = index.connection.execute("SELECT count(*) FROM texts").fetchone()[0]
        _, plan = repair_session(path)
        assert plan.torn is not None and plan.torn.action == "truncated"
        report = update_index(index, base, None)
        assert (report.reread, report.appended, report.bytes_read) == (0, 1, 0)
        _check_row(index, path)
        assert index.connection.execute("SELECT count(*) FROM texts").fetchone()[0] == texts
        assert _hits(index, "generic") == ["u1"]
        with path.open("ab") as stream:
            stream.write(whole)  # and the next record goes on from there
        report = update_index(index, base, None)
        assert report.appended == 1 and report.bytes_read == len(whole)
        _check_row(index, path)
        assert _hits(index, "jitter") == ["u2"] and _hits(index, "generic") == ["u1"]


@pytest.mark.parametrize("change", ["shrink", "rename", "same-size", "mtime-kept", "vanish"])
def test_a_file_changed_other_than_by_appending_is_read_again(tmp_path: Path, change: str) -> None:
    base = tmp_path / "sessions"
    path = _one_session(base / "home-ada-p")
    with _index(tmp_path) as index:
        update_index(index, base, None)
        data = path.read_bytes()
        if change == "shrink":  # cut before its last line: what was indexed changed
            path.write_bytes(b"".join(data.splitlines(keepends=True)[:-2]))
        elif change == "rename":
            other = path.with_suffix(".tmp")
            other.write_bytes(data.replace(b"retry logic", b"queue logic"))
            os.replace(other, path)
        elif change == "same-size":
            path.write_bytes(data.replace(b"retry logic", b"queue logic"))
            stamp = path.stat().st_mtime + 5
            os.utime(path, (stamp, stamp))
        elif change == "mtime-kept":  # edited in place, its size and mtime put back (a scrub
            # by hand): only its ctime says so
            before = path.stat()
            path.write_bytes(data.replace(b"retry logic", b"queue logic"))
            os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
            after = path.stat()
            assert (after.st_size, after.st_mtime_ns, after.st_ino) == (
                before.st_size,
                before.st_mtime_ns,
                before.st_ino,
            )
        else:
            path.unlink()
        report = update_index(index, base, None)
        if change == "vanish":
            assert report.dropped == 1 and load_rows(index, None) == []
            assert index.connection.execute("SELECT count(*) FROM entries").fetchone()[0] == 0
            return
        assert report.reread == 1
        _check_row(index, path)
        if change != "shrink":
            assert _hits(index, "queue") == ["u1"] and _hits(index, "retry logic") == []


def test_a_damaged_index_is_rebuilt_and_a_newer_one_left_alone(tmp_path: Path) -> None:
    where = tmp_path / "cache" / "index.sqlite3"
    CatalogIndex.open(where).close()
    where.write_bytes(b"this is not a database at all" * 200)
    for suffix in ("-wal", "-shm"):
        Path(f"{where}{suffix}").unlink(missing_ok=True)
    with CatalogIndex.open(where) as index:
        assert index.notice is not None and "rebuilt" in index.notice
    connection = sqlite3.connect(where)
    connection.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(IndexUnavailable, match="newer ink-tui"):
        CatalogIndex.open(where)
    where.unlink()
    with CatalogIndex.open(where) as index:  # deleted: simply made again
        assert index.notice is None


def test_a_new_index_merges_its_search_segments_sixteen_at_a_time(tmp_path: Path) -> None:
    """Fewer, larger merges while a first full index writes a segment per batch."""
    with CatalogIndex.open(tmp_path / "index.sqlite3") as index:
        setting = "SELECT v FROM texts_fts_config WHERE k = 'automerge'"
        assert index.connection.execute(setting).fetchone() == (16,)


def test_the_index_is_private_and_lives_in_the_cache_dir(private_cache: Path) -> None:
    path = default_index_path()
    assert path.is_relative_to(private_cache)
    CatalogIndex.open().close()
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700


def _index_in_process(database: str, base: str) -> None:
    with CatalogIndex.open(Path(database)) as index:
        update_index(index, Path(base), None)


def test_two_processes_indexing_at_once_leave_one_consistent_index(
    tmp_path: Path, demo_base: Path
) -> None:
    database = tmp_path / "shared.sqlite3"
    CatalogIndex.open(database).close()
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_index_in_process, args=(str(database), str(demo_base)))
        for _ in range(2)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    with CatalogIndex.open(database) as shared, _index(tmp_path) as alone:
        update_index(alone, demo_base, None)
        assert _listing(load_rows(shared, None)) == _listing(list_sessions(demo_base, None))
        for table in ("entries", "texts"):
            count = f"SELECT count(*) FROM {table}"
            assert (
                shared.connection.execute(count).fetchone()
                == alone.connection.execute(count).fetchone()
            )
        again = update_index(shared, demo_base, None)  # subagent sessions are indexed, not rows
        assert again.unchanged == again.files == len(load_rows(shared, None)) + again.children


def test_lone_surrogates_and_undecodable_file_names_are_indexed(tmp_path: Path) -> None:
    base = tmp_path / "sessions"
    path = _one_session(base / "home-ada-p")
    with path.open("ab") as stream:  # JSON allows a lone surrogate in an id, a name, a text
        stream.write(
            b'{"type":"message","id":"u2\\ud83d","parentId":"a1","timestamp":"2026-11-20T10:01:00Z",'
            b'"message":{"role":"user","content":"cut mid-emoji \\ud83d then sandfish"}}\n'
        )
    odd = Path(os.fsdecode(bytes(path.parent) + b"/\xff\xfe-odd.jsonl"))
    shutil.copy(path, odd)
    with _index(tmp_path) as index:
        report = update_index(index, base, None)
        assert report.added == 2
        assert _listing(load_rows(index, None)) == _listing(list_sessions(base, None))
        hits = search_index(index, "sandfish")
        assert {hit.file for hit in hits} == {path, odd}
        assert all(hit.entry_id == "u2\ufffd" for hit in hits)
        with path.open("ab") as stream:
            stream.write(_record("u3", "u2\ud83d", "after the odd one"))  # type: ignore[arg-type]
        update_index(index, base, None)
        _check_row(index, path)  # read again whole: the stored ids were not the file's


def test_the_first_rows_hold_sessions_the_index_does_not_know_yet(
    tmp_path: Path, demo_base: Path
) -> None:
    from ink_tui.catalog.index.listing import indexed_rows

    database = tmp_path / "cache" / "index.sqlite3"
    with CatalogIndex.open(database) as index:
        update_index(index, demo_base, None)
    newcomer = _one_session(demo_base / "home-ada-new")
    first = indexed_rows(demo_base, None, database)
    assert first.rows is not None and newcomer in {row.path for row in first.rows}
    assert _listing(first.rows) == _listing(list_sessions(demo_base, None))
    empty = indexed_rows(tmp_path / "elsewhere", None, database)
    assert empty.rows == []  # the index knows none of these: the picker scans the files


def test_the_first_rows_come_first_and_the_rest_after_them_in_listing_order(
    tmp_path: Path, demo_base: Path
) -> None:
    """``first=N`` decodes the newest N rows; a session the index does not know goes first if
    it is newer than them, else with the rest; together they are the listing."""
    from ink_tui.catalog.index.listing import indexed_rows

    database = tmp_path / "cache" / "index.sqlite3"
    with CatalogIndex.open(database) as index:
        update_index(index, demo_base, None)
    newcomer = _one_session(demo_base / "home-ada-new")
    os.utime(newcomer, (1_000_000.0, 1_000_000.0))  # older than every indexed session
    listing = list_sessions(demo_base, None)
    first = indexed_rows(demo_base, None, database, first=3)
    assert first.rows is not None and len(first.rows) == 3
    rest = first.rest()
    assert [row.path for row in first.rows + rest] == [row.path for row in listing]
    assert _listing(first.rows + rest) == _listing(listing)
    assert rest[-1].path == newcomer and first.rest() == []  # decoded once
    os.utime(newcomer)  # now the newest of all: shown first
    first = indexed_rows(demo_base, None, database, first=3)
    assert first.rows is not None and first.rows[0].path == newcomer and len(first.rows) == 4
    assert [row.path for row in first.rows + first.rest()] == [
        row.path for row in list_sessions(demo_base, None)
    ]


def test_rows_read_ahead_are_taken_once_and_only_for_their_scope(
    tmp_path: Path, demo_base: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ink_tui.catalog.index.ahead import FIRST_ROWS, RowsAhead

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with CatalogIndex.open() as index:
        update_index(index, demo_base, None)
    ahead = RowsAhead.start(demo_base, None)
    assert ahead.wait(30)
    assert ahead.take(demo_base, "/home/ada/p") is None  # another scope: read it there
    assert ahead.take(tmp_path, None) is None
    taken = ahead.take(demo_base, None)
    assert taken is not None and taken.rows is not None
    rows = taken.rows + taken.rest()
    assert len(taken.rows) <= FIRST_ROWS and _listing(rows) == _listing(
        list_sessions(demo_base, None)
    )
    assert ahead.take(demo_base, None) is None  # taken: a later scan reads the index again


def test_a_bug_reading_ahead_leaves_the_rows_to_the_picker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ink_tui.catalog.index.listing as listing
    from ink_tui.catalog.index.ahead import RowsAhead

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(listing, "indexed_rows", boom)
    ahead = RowsAhead.start(tmp_path, None)
    assert ahead.wait(30)
    assert ahead.take(tmp_path, None) is None
