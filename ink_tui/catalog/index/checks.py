"""When the index last checked every file of a scope against the disk (a search may trust it).

Every ``ink-tui search`` first compares each session file of its scope with the index (one
``stat`` per file: most of what a search over 20,000 sessions costs). An update that looked at
every file of a scope, and indexed every change it found, records here when its look began
(:func:`record_check`). A search within :data:`TRUST_SECONDS` of such a check may answer without
looking again (:func:`checked_within`): the files it would have looked at are those the check
looked at a moment ago. It then says so (the CLI's note, ``checkedAt`` in ``--json``) and
``--fresh`` looks anyway: an answer is never stale without saying so.

A check covers a scope when it was of the same sessions dir and either every project, or the
same project folder. Times are wall-clock nanoseconds (``time.time_ns``: shared between
processes); a check recorded "in the future" (the clock was set back) is not trusted.

The table is created when first written (``CREATE TABLE IF NOT EXISTS``), so an index made by
an earlier version of the schema gains it without being rebuilt.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import Final

from ink_tui.catalog.index.store import WRITE_TIMEOUT, CatalogIndex, IndexUnavailable, db_text

__all__ = ["TRUST_SECONDS", "checked_within", "forget_checks", "record_check", "scope_keys"]

TRUST_SECONDS: Final = 5.0
_TABLE: Final = "CREATE TABLE IF NOT EXISTS checks(scope TEXT PRIMARY KEY, at_ns INTEGER NOT NULL)"


def scope_keys(base_dir: Path, folder: Path | None) -> tuple[str, ...]:
    """The keys a check of ``folder`` (every project of ``base_dir`` when None) is recorded
    under (the first) and the keys of checks that cover it (all of them)."""
    every = db_text(f"all:{os.path.abspath(base_dir)}")  # as typed: relative to any cwd
    if folder is None:
        return (every,)
    return (db_text(f"project:{os.path.abspath(folder)}"), every)


def record_check(index: CatalogIndex, key: str, started_ns: int) -> None:
    """Record that every file under ``key`` was checked from ``started_ns`` on. A busy index
    is not waited for (another process may hold the write lock for seconds: a search would wait
    that long for nothing), and it and a read-only index are left as they are: the next search
    simply checks again."""
    connection = index.connection
    connection.execute("PRAGMA busy_timeout = 0")
    try:
        with index.writing():
            connection.execute(_TABLE)
            connection.execute(
                "INSERT INTO checks(scope, at_ns) VALUES (?, ?) "
                "ON CONFLICT(scope) DO UPDATE SET at_ns = max(at_ns, excluded.at_ns)",
                (key, started_ns),
            )
    except IndexUnavailable:
        pass
    finally:
        connection.execute(f"PRAGMA busy_timeout = {int(WRITE_TIMEOUT * 1000)}")


def forget_checks(index: CatalogIndex) -> None:
    """Forget every check (inside the caller's write transaction): files were dropped, and the
    dropped may be those of a check another scope recorded (one index serves every sessions
    dir, and holds the files of the one updated last)."""
    index.connection.execute(_TABLE)
    index.connection.execute("DELETE FROM checks")


def checked_within(
    index: CatalogIndex, keys: tuple[str, ...], seconds: float, now_ns: int | None = None
) -> int | None:
    """When (``time_ns``) the newest check covering ``keys`` began, if that was at most
    ``seconds`` ago; else ``None``."""
    now = time.time_ns() if now_ns is None else now_ns
    marks = ",".join("?" * len(keys))
    try:
        found = index.connection.execute(
            f"SELECT max(at_ns) FROM checks WHERE scope IN ({marks})", keys
        ).fetchone()
    except sqlite3.OperationalError as error:  # no table yet: never checked by this version
        if "no such table" in str(error):
            return None
        raise
    at = None if found is None else found[0]
    if at is None or not 0 <= now - at <= seconds * 1_000_000_000:
        return None
    return int(at)
