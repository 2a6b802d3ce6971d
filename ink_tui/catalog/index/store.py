"""The catalog index's database: one SQLite file in the cache dir, WAL, a versioned schema.

The index is a cache of what the session files say: deleting it loses nothing. Opening it
(:meth:`CatalogIndex.open`) never raises anything but :class:`IndexUnavailable`:

- no file yet: it is created (folder 0700, file 0600, never through a symlink);
- a symlink, anything but a regular file (or its ``-wal``/``-shm`` file so), a symlinked cache
  folder, or files this process cannot write (:mod:`.guard`): it is left alone, and
  :class:`IndexUnavailable` says why; callers then read the files as without an index;
- an older schema, or a file SQLite cannot read (corrupt, not a database): it is deleted and
  rebuilt, and :attr:`CatalogIndex.notice` says so in one line;
- a newer schema (a newer ink-tui wrote it) or a database locked past the timeout: it is left
  alone and :class:`IndexUnavailable` says why.

A write that fails all the same (the file made read-only, or the disk full, after it was opened)
raises :class:`IndexUnavailable` from :meth:`CatalogIndex.writing`, never SQLite's own error.

Concurrency: WAL lets any number of readers run beside one writer without waiting. Writers
(:meth:`CatalogIndex.writing`) take SQLite's write lock per file indexed (``BEGIN IMMEDIATE``), so
two ink-tui processes indexing at once interleave file by file, and each re-checks a file's row
inside its transaction before writing it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import ink_tui.catalog.index.guard as guard
from ink_tui.paths import cache_dir
from ink_tui.safetext import utf8_safe

__all__ = [
    "INDEX_FILE_NAME",
    "SCHEMA_VERSION",
    "CatalogIndex",
    "IndexBusy",
    "IndexReadOnly",
    "IndexUnavailable",
    "db_text",
    "default_index_path",
    "path_key",
    "unavailable",
]

SCHEMA_VERSION: Final = 8  # 2: the markers table (a session opens from the index); 3: rows
# carry ``problem`` (a torn tail, dangling calls: the picker's filter of sessions with problems);
# 4: subagent sessions (``children/``) are indexed too, with their header id and parent's id;
# 5: search ranks sessions over every match: ``texts`` slim (each text's length; the bodies in
# ``bodies``), ``files.texts`` (how many texts a session has); 6: ``texts.day``, each text's
# time as a julian day (ranking a million matches parsed a million timestamps; 915 -> 885 ms);
# 7: ``files.ctime_ns``: a file edited in place with its size and mtime kept is read again;
# 8: secrets masked in every text, title and name, rows count them by kind (``secrets``)
INDEX_FILE_NAME: Final = "index.sqlite3"
READ_TIMEOUT: Final = 0.5  # seconds; a WAL reader only waits on a rare checkpoint or recovery
WRITE_TIMEOUT: Final = 5.0  # seconds a writer waits for another process's transaction

# FTS5 merges a level's segments once it holds ``automerge`` of them (4 by default). A full index
# writes a segment per batch: merging 16 at a time instead writes each term's list fewer times
# (the bench's 1.3 GB tree: 24.5 -> 22.0 s, the index 8 % smaller; queries as fast, within 3 %).
_SCHEMA: Final = """
CREATE TABLE files(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    project TEXT NOT NULL,            -- the project folder's name (a child's: its parent's)
    child INTEGER NOT NULL,           -- 1: a subagent session, in the project's children/
    session_id TEXT,                  -- the header id (NULL when the header is unreadable)
    parent TEXT,                      -- the header's ``parent`` (a subagent's parent's id)
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL,        -- a change of metadata or content (an in-place edit)
    inode INTEGER NOT NULL,
    indexed_to INTEGER NOT NULL,      -- bytes read and kept (the start of the last line)
    fingerprint BLOB NOT NULL,        -- a hash of the bytes just before indexed_to
    scan TEXT,                        -- the scan state at indexed_to (JSON), NULL if broken
    row TEXT NOT NULL,                -- the picker row (JSON)
    texts INTEGER NOT NULL DEFAULT 0  -- how many of its records have search text
);
CREATE INDEX files_project ON files(project);
CREATE INDEX files_texts ON files(texts);   -- search's typical session size, read at once
CREATE INDEX files_session ON files(session_id);
CREATE TABLE entries(
    file_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,             -- non-blank line number after the header, from 0
    id TEXT NOT NULL,
    parent_id TEXT,
    type TEXT NOT NULL,
    role TEXT,
    offset INTEGER NOT NULL,
    length INTEGER NOT NULL,
    line INTEGER NOT NULL,
    turn INTEGER NOT NULL,            -- user prompts on the path from the root, this one included
    timestamp TEXT,
    usage INTEGER NOT NULL,           -- the listing's usage state of an assistant message
    name TEXT,                        -- a session_info's name
    tokens_in INTEGER NOT NULL,
    tokens_out INTEGER NOT NULL,
    PRIMARY KEY(file_id, seq)
) WITHOUT ROWID;
CREATE TABLE markers(
    file_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,             -- as in entries: the line's place after the header
    kind TEXT NOT NULL,               -- position, session_model or skipped-position
    offset INTEGER NOT NULL,
    length INTEGER NOT NULL,
    line INTEGER NOT NULL,
    PRIMARY KEY(file_id, seq)
) WITHOUT ROWID;
CREATE TABLE texts(
    rowid INTEGER PRIMARY KEY,        -- the same rowid as in texts_fts
    file_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,             -- the entry's seq (entries' key)
    offset INTEGER NOT NULL,
    role TEXT NOT NULL,
    timestamp TEXT,
    length INTEGER NOT NULL,          -- characters indexed (search: a short text counts more)
    day REAL                          -- julianday(timestamp): search's recency, never parsed
);
CREATE INDEX texts_file ON texts(file_id, offset);
CREATE TABLE bodies(
    rowid INTEGER PRIMARY KEY,        -- texts' rowid
    body BLOB NOT NULL                -- the text indexed, zlib-compressed UTF-8 (textpieces)
);
CREATE VIRTUAL TABLE texts_fts USING fts5(
    body, grams, project, role, content='', columnsize=0,
    tokenize='unicode61 remove_diacritics 2'
);
INSERT INTO texts_fts(texts_fts, rank) VALUES('automerge', 16);
"""


class IndexUnavailable(Exception):
    """The index cannot be used now; the message is one line saying why (``"the index <path>
    is read-only"``), for the caller to end with what it does instead."""


class IndexBusy(IndexUnavailable):
    """Another process held the write lock past the timeout (the caller may skip and go on)."""


class IndexReadOnly(IndexUnavailable):
    """A write to the index failed: it is read-only for this process."""


def _code(error: sqlite3.Error) -> str:
    return str(getattr(error, "sqlite_errorname", "") or "")


def unavailable(path: Path, error: sqlite3.Error) -> IndexUnavailable:
    """SQLite's ``error`` on the index at ``path``, as one line in ink-tui's words."""
    code = _code(error)
    if code.startswith("SQLITE_READONLY") or "readonly" in str(error):
        return IndexReadOnly(f"the index {path} is read-only")
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return IndexBusy(f"the index {path} is locked by another process ({error})")
    if code.startswith("SQLITE_FULL"):
        return IndexUnavailable(f"the index {path} cannot grow: the disk is full")
    return IndexUnavailable(f"the index {path} failed ({error})")


def db_text(text: str) -> str:
    """``text`` as SQLite can take it: a lone surrogate (which JSON allows) becomes U+FFFD."""
    return utf8_safe(text)


def path_key(path: Path | str) -> bytes:
    """A file's path as the index stores it: its bytes, so any file name is kept exactly."""
    return os.fsencode(path)


def default_index_path() -> Path:
    """``<platformdirs cache dir>/index.sqlite3``."""
    return cache_dir() / INDEX_FILE_NAME


def _remove_database(path: Path) -> None:
    for suffix in ("", *guard.COMPANIONS):
        try:
            Path(f"{path}{suffix}").unlink()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise IndexUnavailable(
                f"the index {path} cannot be replaced ({error.strerror})"
            ) from None


def _connect(path: Path, timeout: float) -> sqlite3.Connection:
    connection = sqlite3.connect(
        path, timeout=timeout, isolation_level=None, check_same_thread=False
    )
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        connection.close()
        raise
    return connection


def _close(connection: sqlite3.Connection | None) -> None:
    if connection is not None:
        connection.close()


def _refuse(path: Path) -> None:
    """:class:`IndexUnavailable` when the index at ``path`` must not be opened (:mod:`.guard`)."""
    why = guard.refusal(path)
    if why is not None:
        raise IndexUnavailable(why)
    why = guard.read_only(path)
    if why is not None:
        raise IndexReadOnly(why)


def _checked_connect(path: Path) -> sqlite3.Connection:
    """A connection to the index at ``path``, made (if missing) and checked first (see
    :mod:`.guard`); :class:`IndexUnavailable` when it must not be used."""
    try:
        guard.create_private(path)
    except OSError as error:
        raise IndexUnavailable(f"the index {path} cannot be created ({error.strerror})") from None
    _refuse(path)
    known = guard.identity(path)
    if isinstance(known, str):
        raise IndexUnavailable(known)
    connection = _connect(path, WRITE_TIMEOUT)
    why = guard.changed(path, known)  # SQLite has made its -wal and -shm files by now
    if why is not None:
        connection.close()
        raise IndexUnavailable(why)
    return connection


class CatalogIndex:
    """An open index (one connection: use it from one thread at a time)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, notice: str | None) -> None:
        self.path = path
        self.connection = connection
        self.notice = notice  # set when the index had to be rebuilt on opening

    @classmethod
    def open(cls, path: Path | None = None, *, rebuild: bool = False) -> CatalogIndex:
        """Open (creating, upgrading or rebuilding as the module doc says) the index at ``path``."""
        path = default_index_path() if path is None else path
        _refuse(path)  # before anything is created, removed or opened there
        notice: str | None = None
        if rebuild:
            _remove_database(path)
        for attempt in (1, 2):
            connection: sqlite3.Connection | None = None
            try:
                connection = _checked_connect(path)
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                if version == 0:  # new, or being created by another process right now
                    _create_schema(connection)
                    version = connection.execute("PRAGMA user_version").fetchone()[0]
                if version == SCHEMA_VERSION:
                    connection.execute("SELECT count(*) FROM files LIMIT 1").fetchone()
                    return cls(path, connection, notice)
                if version > SCHEMA_VERSION:
                    connection.close()
                    raise IndexUnavailable(
                        f"the index {path} was written by a newer ink-tui (schema {version}, "
                        f"this one reads {SCHEMA_VERSION})"
                    )
                connection.close()
                notice = f"index {path} had schema {version}: rebuilt"
            except sqlite3.OperationalError as exc:
                _close(connection)
                failure = unavailable(path, exc)
                if isinstance(failure, IndexBusy | IndexReadOnly):
                    raise failure from None
                if attempt == 2:
                    raise failure from None
                notice = f"index {path} could not be read ({exc}): rebuilt"
            except sqlite3.DatabaseError as exc:
                _close(connection)
                if attempt == 2:
                    raise unavailable(path, exc) from None
                notice = f"index {path} was damaged ({exc}): rebuilt"
            except OSError as exc:
                _close(connection)
                raise IndexUnavailable(
                    f"the index {path} cannot be created ({exc.strerror or exc})"
                ) from None
            _remove_database(path)
        raise IndexUnavailable(f"the index {path} cannot be used")  # pragma: no cover

    def close(self) -> None:
        """Close the connection (the index stays on disk)."""
        self.connection.close()

    def __enter__(self) -> CatalogIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``); :class:`IndexBusy` if the lock is held,
        :class:`IndexUnavailable` if a write fails (read-only, disk full): rolled back."""
        try:
            self.connection.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise unavailable(self.path, exc) from None
        try:
            yield self.connection
        except sqlite3.Error as exc:
            self._roll_back()
            raise unavailable(self.path, exc) from None
        except BaseException:
            self._roll_back()
            raise
        else:
            try:
                self.connection.execute("COMMIT")
            except sqlite3.Error as exc:
                self._roll_back()
                raise unavailable(self.path, exc) from None

    def _roll_back(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled it back itself
            self.connection.execute("ROLLBACK")

    def size_bytes(self) -> int:
        """The database's size on disk, its WAL included."""
        total = 0
        for suffix in ("", "-wal"):
            with contextlib.suppress(OSError):
                total += Path(f"{self.path}{suffix}").stat().st_size
        return total


def _is_empty(connection: sqlite3.Connection) -> bool:
    return bool(connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0)


def _create_schema(connection: sqlite3.Connection) -> None:
    connection.execute("BEGIN IMMEDIATE")
    try:
        if _is_empty(connection):
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
