"""A big first index on every core: worker processes read the new files, this process writes.

Reading a session file for the index (:func:`~ink_tui.catalog.index.filescan.scan_file`) is
Python work, about two thirds of a first full index; writing it (SQLite, FTS5 tokenising) is the
rest, and only one connection can write. When many new files are to be read
(:data:`~ink_tui.catalog.index.update.PARALLEL_FROM` bytes or more, and more than one core),
they are dealt out in shards of
about :data:`SHARD_BYTES` to worker processes. Each worker reads its shard's files and writes
every row the index will hold, already packed (bodies compressed, strings made safe), into a
shard database of its own, in a private temporary folder beside the index. This process attaches
each shard database in turn, in the order the files were listed (oldest first: text rowids then
follow time, as in a serial update), and copies the rows in with ``INSERT … SELECT``: SQLite
moves them without building a Python object per row, and FTS5 tokenises the bodies as they
arrive. A file another process indexed meanwhile is left as that process wrote it.

Only new files go this way; grown and changed files are read by :mod:`.update` itself (they
need the index's earlier rows). Workers are started with ``forkserver`` (never a ``fork`` of a
process that runs threads, as the app does). A cancelled update stops the workers and drops the
shards not yet written.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
import sqlite3
import tempfile
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Final

from ink_tui.catalog.index.report import IndexReport
from ink_tui.catalog.index.store import CatalogIndex, IndexBusy, db_text, path_key

__all__ = ["SHARD_BYTES", "index_new_files", "workers"]

SHARD_BYTES: Final = 16 * 1024 * 1024  # of session bytes per shard: a Ctrl-C waits for one
_PREFIX: Final = ".shards-"  # then the indexing process's id: .shards-4242-x1y2z3

_SHARD_SCHEMA: Final = """
CREATE TABLE wfiles(
    seq INTEGER PRIMARY KEY, path BLOB NOT NULL, project TEXT NOT NULL, child INTEGER NOT NULL,
    session_id TEXT, parent TEXT, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, indexed_to INTEGER NOT NULL,
    fingerprint BLOB NOT NULL, scan TEXT, row TEXT NOT NULL, texts INTEGER NOT NULL
);
CREATE TABLE wentries(
    fseq INTEGER NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, parent_id TEXT,
    type TEXT NOT NULL, role TEXT, offset INTEGER NOT NULL, length INTEGER NOT NULL,
    line INTEGER NOT NULL, turn INTEGER NOT NULL, timestamp TEXT, usage INTEGER NOT NULL,
    name TEXT, tokens_in INTEGER NOT NULL, tokens_out INTEGER NOT NULL
);
CREATE TABLE wmarkers(
    fseq INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, offset INTEGER NOT NULL,
    length INTEGER NOT NULL, line INTEGER NOT NULL
);
CREATE TABLE wtexts(
    rowid INTEGER PRIMARY KEY, fseq INTEGER NOT NULL, seq INTEGER NOT NULL,
    offset INTEGER NOT NULL, role TEXT NOT NULL, timestamp TEXT, length INTEGER NOT NULL,
    body BLOB NOT NULL, fts TEXT NOT NULL, grams TEXT NOT NULL
)
"""

NewFile = tuple[Path, bool, int]  # the path, whether a subagent session, its size when listed
Progress = Callable[[int, int], None]


MAX_WORKERS: Final = 8  # past this, the one writer is the bottleneck: more only use disk


def workers() -> int:
    """How many worker processes a big first index uses (0: read in this process, as where
    there is one core, or no ``forkserver``: never a ``fork`` of a process running threads)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover - Windows
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    return min(cores, MAX_WORKERS) if cores > 1 else 0


def shards(files: Sequence[NewFile], limit: int | None = None) -> list[list[NewFile]]:
    """``files`` cut, in their order, into runs of about ``limit`` (:data:`SHARD_BYTES`)
    bytes."""
    limit = SHARD_BYTES if limit is None else limit
    cut: list[list[NewFile]] = []
    current: list[NewFile] = []
    size = 0
    for item in files:
        current.append(item)
        size += item[2]
        if size >= limit:
            cut.append(current)
            current, size = [], 0
    if current:
        cut.append(current)
    return cut


def write_shard(job: tuple[str, list[tuple[str, bool]]]) -> tuple[str, int]:
    """Read a shard's files into a new shard database at ``job[0]`` (in a worker process);
    returns its path and the session bytes read. A file that vanished is left out."""
    from ink_tui.catalog.index.filescan import new_summary, scan_file
    from ink_tui.catalog.index.scanrows import FILE_COLUMNS
    from ink_tui.catalog.textpieces import pack_text
    from ink_tui.session.reading.files import open_regular

    database, files = job
    connection = sqlite3.connect(database, isolation_level=None)
    connection.execute("PRAGMA journal_mode=OFF")
    connection.execute("PRAGMA synchronous=OFF")
    for statement in _SHARD_SCHEMA.split(";"):
        connection.execute(statement)
    connection.execute("BEGIN")
    read = 0
    rowid = 0
    for fseq, (name, child) in enumerate(files):
        path = Path(name)
        try:
            with open_regular(path) as stream:
                info = os.fstat(stream.fileno())
                found = scan_file(path, stream, new_summary(path, info), None)
        except OSError:
            continue  # vanished or unreadable since it was listed: the next update sees it
        read += info.st_size
        connection.execute(
            f"INSERT INTO wfiles(seq, path, {FILE_COLUMNS}, texts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (fseq, path_key(path), *found.file_values(path, child, info), len(found.texts)),
        )
        connection.executemany(
            "INSERT INTO wentries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(fseq, *entry) for entry in found.entries],
        )
        connection.executemany(
            "INSERT INTO wmarkers VALUES (?, ?, ?, ?, ?, ?)",
            [(fseq, *marker) for marker in found.markers],
        )
        connection.executemany(
            "INSERT INTO wtexts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    rowid + n,
                    fseq,
                    text.seq,
                    text.offset,
                    text.role,
                    text.timestamp,
                    len(text.body),
                    pack_text(text.body),
                    db_text(text.body),
                    text.grams,
                )
                for n, text in enumerate(found.texts)
            ],
        )
        rowid += len(found.texts)
    connection.execute("COMMIT")
    connection.close()
    return database, read


_COPY: Final = (
    # files another process indexed meanwhile are left as it wrote them
    "DELETE FROM shard.wfiles WHERE path IN (SELECT path FROM main.files)",
    "INSERT INTO files(path, project, child, session_id, parent, size, mtime_ns, ctime_ns, "
    "inode, indexed_to, fingerprint, scan, row, texts) SELECT path, project, child, session_id, "
    "parent, size, mtime_ns, ctime_ns, inode, indexed_to, fingerprint, scan, row, texts "
    "FROM shard.wfiles "
    "ORDER BY seq",
    "CREATE TEMP TABLE ids AS SELECT w.seq AS fseq, f.id AS id, w.project AS project "
    "FROM shard.wfiles w JOIN main.files f ON f.path = w.path",
    "INSERT OR REPLACE INTO entries SELECT ids.id, e.seq, e.id, e.parent_id, e.type, e.role, "
    "e.offset, e.length, e.line, e.turn, e.timestamp, e.usage, e.name, e.tokens_in, "
    "e.tokens_out FROM shard.wentries e JOIN ids ON ids.fseq = e.fseq",
    "INSERT OR REPLACE INTO markers SELECT ids.id, m.seq, m.kind, m.offset, m.length, m.line "
    "FROM shard.wmarkers m JOIN ids ON ids.fseq = m.fseq",
    "INSERT INTO texts(rowid, file_id, seq, offset, role, timestamp, length, day) SELECT "
    ":base + t.rowid, ids.id, t.seq, t.offset, t.role, t.timestamp, t.length, "
    "julianday(t.timestamp) "
    "FROM shard.wtexts t JOIN ids ON ids.fseq = t.fseq ORDER BY t.rowid",
    "INSERT INTO bodies(rowid, body) SELECT :base + t.rowid, t.body "
    "FROM shard.wtexts t JOIN ids ON ids.fseq = t.fseq ORDER BY t.rowid",
    "INSERT INTO texts_fts(rowid, body, grams, project, role) SELECT :base + t.rowid, t.fts, "
    "t.grams, ids.project, t.role FROM shard.wtexts t JOIN ids ON ids.fseq = t.fseq "
    "ORDER BY t.rowid",
)


def _merge(index: CatalogIndex, database: str) -> tuple[int, int]:
    """Copy a shard database into the index in one transaction; returns the files it holds
    and the files added (the others: indexed meanwhile by another process)."""
    connection = index.connection
    connection.execute("ATTACH DATABASE ? AS shard", (database,))
    try:
        with index.writing():
            held = connection.execute("SELECT count(*) FROM shard.wfiles").fetchone()[0]
            base = connection.execute("SELECT coalesce(max(rowid), 0) + 1 FROM texts").fetchone()
            for statement in _COPY:
                connection.execute(statement, {"base": base[0]})
            added = connection.execute("SELECT count(*) FROM temp.ids").fetchone()[0]
            connection.execute("DROP TABLE temp.ids")
    finally:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("DROP TABLE IF EXISTS temp.ids")
        connection.execute("DETACH DATABASE shard")
    return int(held), int(added)


@contextlib.contextmanager
def _shard_folder(index: CatalogIndex) -> Iterator[Path]:
    """A private folder beside the index for the shard databases, removed afterwards. Its name
    holds this process's id: the folders of a process killed meanwhile are removed first."""
    _remove_orphans(index.path.parent)
    folder = Path(tempfile.mkdtemp(prefix=f"{_PREFIX}{os.getpid()}-", dir=index.path.parent))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _remove_orphans(where: Path) -> None:
    """Remove the shard folders of index processes that are gone (killed: nothing removed
    them)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(where):
            pid = entry.name.removeprefix(_PREFIX).partition("-")[0]
            if entry.name.startswith(_PREFIX) and pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: whether it exists (another user's raises otherwise)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


@contextlib.contextmanager
def _no_interrupt() -> Iterator[None]:
    """SIGINT blocked in this thread meanwhile, so that the processes started meanwhile (the
    forkserver, the workers) never take a terminal's Ctrl-C: it is this process's to handle (it
    stops the update and the workers with it), and a worker or a forkserver interrupted while it
    starts prints a traceback over the terminal."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def index_new_files(
    index: CatalogIndex,
    files: Sequence[NewFile],
    report: IndexReport,
    *,
    processes: int,
    progress: Callable[[int], None] | None = None,
    cancelled: threading.Event | None = None,
) -> list[Path]:
    """Index ``files`` (new to the index, oldest first) with ``processes`` workers, counting
    into ``report``; ``progress`` is told the session bytes read so far. Returns the files left
    unread, for the caller to read itself: none, unless the workers could not do their part (a
    worker died, killed or out of memory; a shard database could not be made or attached)."""
    cut = shards(files)
    try:
        with _shard_folder(index) as folder:
            return _index_shards(index, cut, folder, report, processes, progress, cancelled)
    except OSError:  # no folder for the shards beside the index
        return [path for shard in cut for path, _, _ in shard]


def _index_shards(
    index: CatalogIndex,
    cut: list[list[NewFile]],
    folder: Path,
    report: IndexReport,
    processes: int,
    progress: Callable[[int], None] | None,
    cancelled: threading.Event | None,
) -> list[Path]:
    context = multiprocessing.get_context("forkserver")
    ahead = processes + 1  # shards read ahead of the writer: bounds the temporary disk used
    jobs = [
        (str(folder / f"{number}.sqlite3"), [(str(path), child) for path, child, _ in shard])
        for number, shard in enumerate(cut)
    ]
    pool = ProcessPoolExecutor(processes, context)
    try:
        with _no_interrupt():  # the forkserver and the workers start: they inherit the mask
            running: deque[Future[tuple[str, int]]] = deque(
                pool.submit(write_shard, job) for job in jobs[:ahead]
            )
        for number, shard in enumerate(cut):
            try:
                database, read = running.popleft().result()
                if cancelled is not None and cancelled.is_set():
                    report.cancelled = True
                    return []
                held, added = _merge(index, database)
            except IndexBusy:
                report.busy += len(shard)
            except (BrokenProcessPool, sqlite3.Error, OSError):  # this shard, and the rest, here
                return [path for later in cut[number:] for path, _, _ in later]
            else:
                report.bytes_read += read
                report.added += added
                report.raced += held - added
                report.unread += len(shard) - held
            if number + ahead < len(jobs):
                running.append(pool.submit(write_shard, jobs[number + ahead]))
            with contextlib.suppress(OSError):
                os.unlink(jobs[number][0])
            if progress is not None:
                progress(report.bytes_read)
        return []
    finally:  # also on Ctrl-C: the shards not started are dropped, the running ones awaited
        pool.shutdown(wait=True, cancel_futures=True)
