"""Open a session from the index: what ``open()`` learns, without reading the file again.

The index holds, for every line before ``indexed_to`` (the start of the file's last line), where
it is and what Ink's checks made of it: tree entries (``entries``) and file-level markers
(``markers``). If the file still starts with the bytes indexed (same inode, the fingerprint of
the bytes before ``indexed_to`` unchanged), the :class:`~ink_tui.session.SessionFile` is rebuilt
from those rows, and only the bytes from ``indexed_to`` on (the last line as indexed, and
whatever Ink appended since) are read and checked, by the reader's own ``open()`` logic.

Anything else gives ``None`` and the caller opens the file as usual: a file the index does not
know, one it could not open or stored with changed ids, a rewritten or replaced file, a file
with nothing after its header, or an index that cannot be read.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, cast

from ink_tui.catalog.index.scanrows import fingerprint
from ink_tui.catalog.index.store import CatalogIndex, IndexUnavailable, path_key
from ink_tui.session.reading.entry import KEEP_SMALL_BYTES, Entry, LineProblem, Marker
from ink_tui.session.reading.errors import RecordError, SessionError
from ink_tui.session.reading.files import open_regular
from ink_tui.session.reading.jsoncodec import JsonDecodeError, decode_line
from ink_tui.session.reading.lines import is_blank, iter_line_batches, iter_lines
from ink_tui.session.reading.reader import SessionFile, build_session, read_header
from ink_tui.session.reading.records import LineKind, classify_record
from ink_tui.session.reading.recordtypes import PositionMarker, SessionModelMarker

__all__ = ["open_from_index", "open_indexed"]

_SKIPPED_REASON = "position marker with an invalid leafId"  # the reader's words for it


class _Stale(Exception):
    """The index no longer describes the file's first bytes."""


def open_indexed(
    path: Path,
    *,
    index_path: Path | None = None,
    progress: Callable[[int], None] | None = None,
    complete_only: bool = False,
) -> SessionFile | None:
    """:func:`open_from_index` with the default index, when there is one (never created here).

    Raises what ``open()`` raises for the bytes read (:class:`SessionError`, ``OSError``)."""
    from ink_tui.catalog.index.store import default_index_path

    index_path = default_index_path() if index_path is None else index_path
    if not index_path.exists():
        return None
    try:
        with CatalogIndex.open(index_path) as index:
            return open_from_index(index, path, progress=progress, complete_only=complete_only)
    except IndexUnavailable:
        return None


def open_from_index(
    index: CatalogIndex,
    path: Path,
    *,
    progress: Callable[[int], None] | None = None,
    complete_only: bool = False,
) -> SessionFile | None:
    """The session as :func:`ink_tui.session.open_session` gives it, rebuilt from ``index``;
    ``None`` when the index cannot tell (see the module's doc).

    Raises :class:`SessionError` (or ``OSError``) as ``open()`` would for the bytes read."""
    with open_regular(path) as stream:
        try:
            rows = _rows(index, path)
        except sqlite3.Error:
            return None
        if rows is None:
            return None
        try:
            session = _rebuilt(path, stream, *rows)
        except (_Stale, SessionError):  # changed since: a record no longer where it was
            return None
        batches = iter_line_batches(stream, session.size, progress=progress)
        if complete_only:  # following: a line still being written is not read yet
            batches = (batch for batch in batches if batch[2])
        return build_session(path, batches, warn=None, known=session)


_Rows = tuple[int, bytes, dict[str, Any], list[tuple[Any, ...]], list[tuple[Any, ...]]]


def _rows(index: CatalogIndex, path: Path) -> _Rows | None:
    """The file's indexed offset, fingerprint, scan state, entries and markers (one read
    transaction, so another process's update is seen whole or not at all)."""
    connection = index.connection
    connection.execute("BEGIN")
    try:
        found = connection.execute(
            "SELECT id, inode, indexed_to, fingerprint, scan FROM files WHERE path = ?",
            (path_key(path),),
        ).fetchone()
        if found is None or found[4] is None:
            return None  # unknown, or a file Ink cannot open (open() says why)
        file_id, inode, indexed_to, stored_print, scan = found
        entries = connection.execute(
            "SELECT id, parent_id, type, offset, length, line FROM entries "
            "WHERE file_id = ? AND offset < ? ORDER BY seq",
            (file_id, indexed_to),
        ).fetchall()
        markers = connection.execute(
            "SELECT seq, kind, offset, length, line FROM markers "
            "WHERE file_id = ? AND offset < ? ORDER BY seq",
            (file_id, indexed_to),
        ).fetchall()
    finally:
        connection.execute("COMMIT")
    state = json.loads(scan)
    state["inode"] = inode
    return indexed_to, stored_print, state, entries, markers


def _rebuilt(
    path: Path,
    stream: BinaryIO,
    indexed_to: int,
    stored_print: bytes,
    state: dict[str, Any],
    entry_rows: list[tuple[Any, ...]],
    marker_rows: list[tuple[Any, ...]],
) -> SessionFile:
    """The session up to ``indexed_to``, from the rows; :class:`_Stale` if the file changed."""
    info = os.fstat(stream.fileno())
    if (
        info.st_ino != state["inode"]
        or info.st_size <= indexed_to
        or fingerprint(stream, indexed_to) != stored_print
    ):
        raise _Stale
    session = _with_header(path, stream, indexed_to)
    for entry_id, parent_id, kind, offset, length, line in entry_rows:
        entry = Entry.__new__(Entry)
        entry.type, entry.id, entry.parent_id = kind, entry_id, parent_id
        entry.line, entry.offset, entry.end = line, offset, offset + length + 1
        entry._path, entry._record = path, None
        if entry_id in session.by_id:
            session.duplicate_ids.append(entry_id)
        session.entries.append(entry)
        session.by_id[entry_id] = entry
    small = [
        entry
        for entry in session.entries
        if entry.type != "message" and entry.end - entry.offset <= KEEP_SMALL_BYTES
    ]
    session.preload(small)  # labels, names, levels: kept parsed, as open() keeps them
    for seq, kind, offset, length, line in marker_rows:
        if kind == LineKind.SKIPPED_POSITION.value:
            session.skipped_markers.append(
                LineProblem(line, offset, offset + length + 1, _SKIPPED_REASON)
            )
            continue
        record = _marker_record(stream, offset, length, LineKind(kind))
        if record["type"] == "position":
            session.positions.append(Marker(record, line, offset, seq))
        else:
            session.session_models.append(Marker(record, line, offset, seq))
    session.size = indexed_to
    session.line_count = int(state["line"])
    session._seq = int(state["seq"])
    session._last_entry_seq = int(state["last_entry_seq"])
    last = state["last_content_id"]
    session._last_content_id = None if last is None else str(last)
    return session


def _with_header(path: Path, stream: BinaryIO, indexed_to: int) -> SessionFile:
    """A session holding the file's header (checked again: it is only one line)."""
    for raw in iter_lines(stream, 0):
        if raw.offset >= indexed_to:
            break
        if not is_blank(raw.data):
            header = read_header(path, raw)
            return SessionFile(path=path, header=header, header_end=raw.end)
    raise _Stale


def _marker_record(
    stream: BinaryIO, offset: int, length: int, kind: LineKind
) -> PositionMarker | SessionModelMarker:
    """The marker read again, checked again as ``open()`` checked it (:class:`_Stale` if it is
    not the kind of marker indexed there any more)."""
    stream.seek(offset)
    try:
        record = decode_line(stream.read(length))
        if classify_record(record) is not kind:
            raise _Stale
    except (JsonDecodeError, RecordError):
        raise _Stale from None
    return cast(PositionMarker | SessionModelMarker, record)
