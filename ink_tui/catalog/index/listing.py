"""The picker's rows through the index: what it holds at once, then what the disk says.

:func:`indexed_rows` is the fast first look (no session file is read); :func:`refreshed_rows`
brings the index up to date for the scope and returns the rows again. Both open their own
connection, so each runs in whichever worker thread calls it. When the index cannot be used they
say why (one line) and the caller lists sessions by scanning the files, as without an index.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from ink_tui.catalog.index.store import CatalogIndex, IndexUnavailable, path_key
from ink_tui.catalog.index.update import IndexReport, Progress, load_rows, update_index
from ink_tui.catalog.row import SessionSummary
from ink_tui.catalog.scan import SUFFIX, project_folders
from ink_tui.catalog.summary import summarize_file

__all__ = ["IndexedRows", "indexed_rows", "indexed_title", "refreshed_rows"]


@dataclass(slots=True)
class IndexedRows:
    """Rows from the index (``None`` when it could not be used, with ``notice`` saying why)."""

    rows: list[SessionSummary] | None
    notice: str | None = None
    report: IndexReport | None = None


def _folders(base_dir: Path, cwd: str | None) -> list[str] | None:
    return None if cwd is None else [folder.name for folder in project_folders(base_dir, cwd)]


def indexed_rows(base_dir: Path, cwd: str | None, index_path: Path | None = None) -> IndexedRows:
    """The rows of ``cwd``'s project (every project when None), newest first, as the index holds
    them: no session file is read, except those the index does not know yet (a new session, or
    an index filled only in part), which are read as the listing reads them. ``rows`` is empty
    when the index knows none of them (the caller lists from the files, batch by batch)."""
    try:
        with CatalogIndex.open(index_path) as index:
            known = {row.path: row for row in load_rows(index, _folders(base_dir, cwd))}
            notice = index.notice
    except IndexUnavailable as error:
        return IndexedRows(None, str(error))
    except sqlite3.Error as error:
        return IndexedRows(None, f"the index failed ({error}): sessions are read from the files")
    if not known:
        return IndexedRows([], notice)
    present = _present(project_folders(base_dir, cwd))
    rows = [row for path, row in known.items() if path in present]
    rows += [summarize_file(path) for path in present if path not in known]
    rows.sort(key=lambda row: (row.mtime, row.file_name, row.project_folder), reverse=True)
    return IndexedRows(rows, notice)


def _present(folders: list[Path]) -> set[Path]:
    """The session files of ``folders``, from their directory entries alone: no ``stat`` per
    file (in a worker each system call waits for the GIL again, behind a busy event loop)."""
    found: set[Path] = set()
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name.endswith(SUFFIX) and entry.is_file():
                        found.add(Path(entry.path))
        except OSError:
            continue
    return found


def refreshed_rows(
    base_dir: Path,
    cwd: str | None,
    *,
    index_path: Path | None = None,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
) -> IndexedRows:
    """Index what changed on disk for the scope, then return its rows."""
    try:
        with CatalogIndex.open(index_path) as index:
            report = update_index(index, base_dir, cwd, progress=progress, cancelled=cancelled)
            rows = load_rows(index, _folders(base_dir, cwd))
            return IndexedRows(rows, index.notice, report)
    except IndexUnavailable as error:
        return IndexedRows(None, str(error))
    except sqlite3.Error as error:
        return IndexedRows(None, f"the index failed ({error}): sessions are read from the files")


def indexed_title(path: Path, index_path: Path | None = None) -> str:
    """The title the index holds for ``path`` (``""`` when it does not know the file)."""
    try:
        with CatalogIndex.open(index_path) as index:
            found = index.connection.execute(
                "SELECT json_extract(row, '$.title') FROM files WHERE path = ?", (path_key(path),)
            ).fetchone()
    except (IndexUnavailable, sqlite3.Error):
        return ""
    return str(found[0] or "") if found is not None else ""
