"""Bring the index up to date with the session files on disk, reading as little as possible.

For each ``*.jsonl`` file of the folders asked for and of their ``children/`` folders (subagent
sessions: indexed for search, kept apart from the sessions the picker lists, see
:data:`SESSIONS_ONLY`) (:func:`update_index`):

- unchanged (same size, mtime and inode as indexed): not opened;
- grown, or cut back no further than the indexed offset (a repair cutting a torn last line:
  Ink's, ``ink-tui repair``'s or the chat pane's), same inode, and the bytes before the indexed
  offset still hash to the stored fingerprint: read only from that offset (the last line read
  before is read again, as it may have been torn when it was indexed);
- anything else (shrunk below the indexed offset, replaced by a rename, rewritten, even with the
  same size; or a session Ink could not open): indexed again from the start;
- gone from disk: its rows are dropped.

Files are written a batch at a time (up to :data:`BATCH_BYTES` read), in one transaction, each
after checking that no other process indexed it meanwhile; a batch whose write lock stays taken
is skipped (the other process is indexing those files).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ink_tui.catalog.index.checks import forget_checks, record_check, scope_keys
from ink_tui.catalog.index.ondisk import files_on_disk
from ink_tui.catalog.index.report import IndexReport
from ink_tui.catalog.index.store import CatalogIndex, IndexBusy, db_text, path_key
from ink_tui.catalog.roots import Root, mirror_roots, roots_sql
from ink_tui.catalog.scan import project_folders
from ink_tui.paths import machines_dir
from ink_tui.session.reading.files import open_regular

if TYPE_CHECKING:  # read only when a file changed: a search over an unchanged tree never needs it
    from ink_tui.catalog.index.scanrows import EntryRow, FileScan

__all__ = ["SESSIONS_ONLY", "IndexReport", "Progress", "update_index"]

Progress = Callable[[int, int], None]  # (bytes done, bytes to read)

BATCH_BYTES: Final = 8 * 1024 * 1024  # of session bytes read, written in one transaction
BATCH_FILES: Final = 200  # files written in one transaction at most
PARALLEL_FROM: Final = 256 * 1024 * 1024  # bytes of new files read by workers (.parallel)
SESSIONS_ONLY: Final = "child = 0"  # the files a listing shows: never a subagent session
_ENTRY_COLUMNS: Final = (
    "seq, id, parent_id, type, role, offset, length, line, turn, timestamp, usage, name, "
    "tokens_in, tokens_out"
)


@dataclass(frozen=True, slots=True)
class _Known:
    """A file's row as the index holds it."""

    file_id: int
    size: int
    mtime_ns: int
    inode: int
    ctime_ns: int
    indexed_to: int
    fingerprint: bytes
    child: int  # 1: a subagent session


_KNOWN_COLUMNS: Final = "path, id, size, mtime_ns, inode, ctime_ns, indexed_to, fingerprint, child"


def _known_files(
    index: CatalogIndex, base_dir: Path, folders: list[Path] | None
) -> dict[bytes, tuple[Any, ...]]:
    """Each file's row by its path, of ``base_dir`` (of its ``folders`` only, when given): the
    fields of :class:`_Known`, in order (made into one only for a file that changed)."""
    where, values = roots_sql([Root(base_dir)])
    query = f"SELECT {_KNOWN_COLUMNS} FROM files WHERE {where}"
    parameters: list[Any] = list(values)
    if folders is not None:
        parameters += [db_text(folder.name) for folder in folders]
        query += f" AND project IN ({','.join('?' * len(folders))})"
    return {row[0]: row[1:] for row in index.connection.execute(query, parameters)}


def _stray_files(index: CatalogIndex, base_dir: Path) -> dict[bytes, tuple[Any, ...]]:
    """The files of no root any more, when ``base_dir`` is this machine's sessions dir: another
    sessions dir's (the index follows the one in use) and a deleted mirror's. A mirror's own
    update leaves every other root alone."""
    if Root(machines_dir()).holds(Root(base_dir).key):
        return {}  # a mirror
    where, values = roots_sql([Root(base_dir), *mirror_roots()])
    query = f"SELECT {_KNOWN_COLUMNS} FROM files"
    rows = index.connection.execute(f"{query} WHERE NOT {where}", values)
    return {row[0]: row[1:] for row in rows}


def _entries_before(index: CatalogIndex, file_id: int, offset: int) -> list[EntryRow]:
    from ink_tui.catalog.index.scanrows import EntryRow

    rows = index.connection.execute(
        f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE file_id = ? AND offset < ? ORDER BY seq",
        (file_id, offset),
    ).fetchall()
    return [EntryRow(*row) for row in rows]


def _scan_state(index: CatalogIndex, file_id: int) -> str | None:
    """The scan state kept for a file (read only for a file that grew)."""
    found = index.connection.execute("SELECT scan FROM files WHERE id = ?", (file_id,)).fetchone()
    return None if found is None else found[0]


def _read(index: CatalogIndex, path: Path, known: _Known | None) -> tuple[FileScan, os.stat_result]:
    from ink_tui.catalog.index.filescan import new_summary, scan_file
    from ink_tui.catalog.index.scanrows import Resume, fingerprint

    with open_regular(path) as stream:
        info = os.fstat(stream.fileno())
        resume: Resume | None = None
        # Grown, or only its provisional last line cut (a repair of a torn tail): resumable.
        grown = (
            known is not None
            and known.inode == info.st_ino
            and info.st_size != known.size
            and info.st_size >= known.indexed_to
        )
        state = _scan_state(index, known.file_id) if known is not None and grown else None
        # No state: Ink could not open it when it was indexed, so it is read again whole.
        if (
            known is not None
            and state is not None
            and fingerprint(stream, known.indexed_to) == known.fingerprint
        ):
            entries = _entries_before(index, known.file_id, known.indexed_to)
            resume = Resume(known.indexed_to, json.loads(state), entries)
        return scan_file(path, stream, new_summary(path, info), resume), info


def _same_row(index: CatalogIndex, path: Path, known: _Known | None) -> bool:
    row = index.connection.execute(
        "SELECT size, mtime_ns, inode, indexed_to FROM files WHERE path = ?", (path_key(path),)
    ).fetchone()
    if known is None:
        return row is None
    return bool(row == (known.size, known.mtime_ns, known.inode, known.indexed_to))


def _drop_rows(index: CatalogIndex, file_id: int, from_offset: int) -> None:
    """Remove a file's entries and texts at or after ``from_offset``."""
    from ink_tui.catalog.textpieces import cjk_grams, unpack_text

    connection = index.connection
    doomed = connection.execute(
        "SELECT t.rowid, b.body, t.role, f.project FROM texts t JOIN files f ON f.id = t.file_id "
        "JOIN bodies b ON b.rowid = t.rowid WHERE t.file_id = ? AND t.offset >= ?",
        (file_id, from_offset),
    ).fetchall()
    deletions = []
    for rowid, packed, role, project in doomed:
        body = unpack_text(packed)
        deletions.append((rowid, db_text(body), cjk_grams(body), project, role))
    # a contentless table forgets a row only when given the very values it indexed
    connection.executemany(
        "INSERT INTO texts_fts(texts_fts, rowid, body, grams, project, role) "
        "VALUES ('delete', ?, ?, ?, ?, ?)",
        deletions,
    )
    connection.executemany("DELETE FROM bodies WHERE rowid = ?", [(row[0],) for row in doomed])
    connection.execute(
        "DELETE FROM texts WHERE file_id = ? AND offset >= ?", (file_id, from_offset)
    )
    for table in ("entries", "markers"):
        connection.execute(
            f"DELETE FROM {table} WHERE file_id = ? AND offset >= ?", (file_id, from_offset)
        )


def _store(index: CatalogIndex, read: _Read) -> None:
    from ink_tui.catalog.index.scanrows import FILE_COLUMNS, project_of
    from ink_tui.catalog.textpieces import pack_text

    path, known, found, info = read.path, read.prior, read.found, read.info
    connection = index.connection
    project = project_of(path, read.child)
    values = found.file_values(path, read.child, info)
    if known is None:
        cursor = connection.execute(
            f"INSERT INTO files({FILE_COLUMNS}, path) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*values, path_key(path)),
        )
        file_id = int(cursor.lastrowid or 0)
    else:
        file_id = known.file_id
        _drop_rows(index, file_id, found.start)
        connection.execute(
            "UPDATE files SET project = ?, child = ?, session_id = ?, parent = ?, size = ?, "
            "mtime_ns = ?, ctime_ns = ?, inode = ?, indexed_to = ?, fingerprint = ?, scan = ?, "
            "row = ? "
            "WHERE id = ?",
            (*values, file_id),
        )
    connection.executemany(
        f"INSERT OR REPLACE INTO entries(file_id, {_ENTRY_COLUMNS}) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(file_id, *entry) for entry in found.entries],  # strings made safe by the scan
    )
    connection.executemany(
        "INSERT OR REPLACE INTO markers(file_id, seq, kind, offset, length, line) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [(file_id, *marker) for marker in found.markers],
    )
    first = connection.execute("SELECT coalesce(max(rowid), 0) + 1 FROM texts").fetchone()[0]
    texts = found.texts
    connection.executemany(
        "INSERT INTO texts(rowid, file_id, seq, offset, role, timestamp, length, day) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, julianday(?6))",
        [
            (first + n, file_id, t.seq, t.offset, t.role, t.timestamp, len(t.body))
            for n, t in enumerate(texts)
        ],
    )
    connection.executemany(
        "INSERT INTO bodies(rowid, body) VALUES (?, ?)",
        [(first + n, pack_text(t.body)) for n, t in enumerate(texts)],
    )
    connection.executemany(
        "INSERT INTO texts_fts(rowid, body, grams, project, role) VALUES (?, ?, ?, ?, ?)",
        [(first + n, db_text(t.body), t.grams, project, t.role) for n, t in enumerate(texts)],
    )
    connection.execute(
        "UPDATE files SET texts = (SELECT count(*) FROM texts WHERE file_id = ?) WHERE id = ?",
        (file_id, file_id),
    )


def _drop_file(index: CatalogIndex, file_id: int) -> None:
    _drop_rows(index, file_id, 0)
    index.connection.execute("DELETE FROM files WHERE id = ?", (file_id,))


def update_index(
    index: CatalogIndex,
    base_dir: Path,
    cwd: str | None,
    *,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
) -> IndexReport:
    """Index the sessions of ``cwd``'s project folder (every folder when ``cwd`` is None)."""
    started = time.perf_counter()
    report = IndexReport(checked_ns=time.time_ns())
    base_dir = Path(os.path.abspath(base_dir))  # the same keys from any working directory
    folders = project_folders(base_dir, cwd)
    known = _known_files(index, base_dir, None if cwd is None else folders)
    work: list[tuple[Path, _Known | None, int, bool]] = []
    times: list[int] = []  # each changed file's mtime: the work is done oldest first
    on_disk: set[bytes] = set()
    for item in files_on_disk(folders):
        report.files += 1
        report.children += item.child
        on_disk.add(item.key)
        info = item.info
        if info is None:
            report.sessions_changed += not item.child  # a listing shows it (with why)
            continue
        row = known.get(item.key)
        signature = (info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)
        if row is not None and row[1:5] == signature:
            report.unchanged += 1
        else:
            prior = None if row is None else _Known(*row)
            work.append((item.path, prior, info.st_size, item.child))
            times.append(info.st_mtime_ns)
            report.sessions_changed += not item.child
    total = sum(size for _, _, size, _ in work)
    order = sorted(range(len(work)), key=lambda n: (times[n], work[n][0].name))
    work = [work[n] for n in order]  # oldest first: rowids then follow time
    work = _new_files_in_parallel(index, work, report, total, progress, cancelled)
    batch: list[_Read] = []
    for path, prior, _, child in work:
        if cancelled is not None and cancelled.is_set():
            report.cancelled = True
            break
        try:
            found, info = _read(index, path, prior)
        except OSError:  # vanished or unreadable since it was listed: the next update sees it
            report.unread += 1
            continue
        report.bytes_read += info.st_size - found.start
        batch.append(_Read(path, prior, found, info, child))
        if sum(read.bytes for read in batch) >= BATCH_BYTES or len(batch) >= BATCH_FILES:
            _write(index, batch, report)
            batch = []
        if progress is not None:
            progress(report.bytes_read, total)
    _write(index, batch, report)
    gone_paths = [path for path in known if path not in on_disk]
    if cwd is None and not report.cancelled:
        strays = _stray_files(index, base_dir)
        known.update(strays)
        gone_paths += strays
    gone = [_Known(*known[path]).file_id for path in gone_paths]
    if gone and not report.cancelled:
        try:
            with index.writing():
                for file_id in gone:
                    _drop_file(index, file_id)
                forget_checks(index)  # they may be another sessions dir's, checked moments ago
            report.dropped = len(gone)
            report.sessions_changed += sum(not _Known(*known[path]).child for path in gone_paths)
        except IndexBusy:
            report.busy += len(gone)
    if report.complete:  # every change found is in the index, as read here
        key = scope_keys(base_dir, None if cwd is None else folders[0])[0]
        record_check(index, key, report.checked_ns)
    report.seconds = time.perf_counter() - started
    return report


def _new_files_in_parallel(
    index: CatalogIndex,
    work: list[tuple[Path, _Known | None, int, bool]],
    report: IndexReport,
    total: int,
    progress: Progress | None,
    cancelled: threading.Event | None,
) -> list[tuple[Path, _Known | None, int, bool]]:
    """Index the new files on every core when they are many (:mod:`.parallel`); return the
    work left for this process (every file when they are few, or there is one core)."""
    new = [(path, child, size) for path, prior, size, child in work if prior is None]
    if sum(size for _, _, size in new) < PARALLEL_FROM:
        return work
    import ink_tui.catalog.index.parallel as parallel  # only then: multiprocessing is not cheap

    processes = parallel.workers()
    if not processes:
        return work

    def advance(done: int) -> None:
        if progress is not None:
            progress(done, total)

    unread = set(
        parallel.index_new_files(
            index, new, report, processes=processes, progress=advance, cancelled=cancelled
        )
    )
    return [item for item in work if item[1] is not None or item[0] in unread]


@dataclass(frozen=True, slots=True)
class _Read:
    """One file read, waiting to be written with the others of its batch."""

    path: Path
    prior: _Known | None
    found: FileScan
    info: os.stat_result
    child: bool  # a subagent session (in a project's children/)

    @property
    def bytes(self) -> int:
        return self.info.st_size - self.found.start


def _write(index: CatalogIndex, batch: list[_Read], report: IndexReport) -> None:
    """Store a batch of files in one transaction (each re-checked first: a file another process
    indexed meanwhile is left as it wrote it). One transaction for many small files spares
    FTS5 a segment per file; a batch holds the write lock for a fraction of a second."""
    if not batch:
        return
    stored: list[_Read] = []
    try:
        with index.writing():
            for read in batch:
                if _same_row(index, read.path, read.prior):
                    _store(index, read)
                    stored.append(read)
    except IndexBusy:
        report.busy += len(batch)
        return
    report.raced += len(batch) - len(stored)
    for read in stored:
        if read.prior is None:
            report.added += 1
        elif read.found.start > 0:
            report.appended += 1
        else:
            report.reread += 1
