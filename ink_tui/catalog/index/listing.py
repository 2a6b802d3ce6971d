"""The picker's rows through the index: what it holds at once, then what the disk says.

:func:`indexed_rows` is the fast first look (no session file is read); :func:`refreshed_rows`
brings the index up to date for the scope and returns the rows again. Both open their own
connection, so each runs in whichever worker thread calls it. When the index cannot be used they
say why (one line) and the caller lists sessions by scanning the files, as without an index.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import orjson

from ink_tui.catalog.index.rootsupdate import update_roots
from ink_tui.catalog.index.store import CatalogIndex, IndexUnavailable, db_text, path_key
from ink_tui.catalog.index.update import SESSIONS_ONLY, IndexReport, Progress
from ink_tui.catalog.roots import Root, place_row, roots_sql
from ink_tui.catalog.row import SessionSummary, row_from_index
from ink_tui.catalog.scan import SUFFIX
from ink_tui.catalog.summary import summarize_file

__all__ = ["IndexedRows", "indexed_rows", "indexed_title", "load_rows", "refreshed_rows"]

_WITHOUT: Final = "sessions are read from the files"  # what the picker does without the index

_Stored = tuple[str, str | None, Root]  # a file's path, its picker row (JSON; None: not read
# from the index yet), the dir it is in
_CHUNK: Final = 500  # paths a query asks for at once


@dataclass(slots=True)
class IndexedRows:
    """Rows from the index (``None`` when it could not be used, with ``notice`` saying why).

    From :func:`indexed_rows` with ``first``, ``rows`` are the newest ones and :meth:`rest`
    gives the others, in listing order after them."""

    rows: list[SessionSummary] | None
    notice: str | None = None
    report: IndexReport | None = None
    later: list[_Stored] = field(default_factory=list)  # not decoded yet, newest first
    spill: list[SessionSummary] = field(default_factory=list)  # read, but older than ``rows``
    index_path: Path | None = None  # where ``later``'s rows are read from
    more: Callable[[], list[SessionSummary]] | None = None  # rows :meth:`rest` reads besides

    def rows_or_notice(self) -> list[SessionSummary] | str:
        """The rows, or (when the index could not be used) the one line saying why."""
        if self.rows is None:
            return self.notice or f"the index could not be used: {_WITHOUT}"
        return self.rows

    def rest(self) -> list[SessionSummary]:
        """The rows after ``rows`` (read from the index and decoded now), newest first."""
        missing = [path for path, text, _ in self.later if text is None]
        if missing:
            texts = _texts_at(self.index_path, missing)
            self.later = [
                (path, texts.get(path, "") if text is None else text, root)
                for path, text, root in self.later
            ]  # a row the index no longer holds ("") is read from its file
        rows = _decoded(self.later) + self.spill + (self.more() if self.more else [])
        rows.sort(key=_order, reverse=True)
        self.later, self.spill, self.more = [], [], None
        return rows


def _order(row: SessionSummary) -> tuple[float, str, str]:
    """The listing order (newest file mtime first, as :func:`ink_tui.catalog.scan.iter_summaries`),
    reversed."""
    return (row.mtime, row.file_name, row.project_folder)


def _loads(text: str) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # a lone surrogate, which Python's encoder escapes
        return json.loads(text)


def _decoded(stored: Iterable[_Stored]) -> list[SessionSummary]:
    """The rows of ``stored``; a row this version cannot read is read from its file."""
    rows: list[SessionSummary] = []
    for path, text, root in stored:
        try:
            row = row_from_index(_loads(text)) if text else summarize_file(Path(path))
        except (KeyError, TypeError, ValueError):  # the next update rewrites it
            row = summarize_file(Path(path))
        place_row(row, root)
        rows.append(row)
    return rows


def _stored_rows(
    index: CatalogIndex, roots: Sequence[Root], cwd: str | None, *, texts: bool = True
) -> list[_Stored]:
    """Every row of ``roots`` (of ``cwd``'s project, every project when None), newest file
    first, as stored (one query a root: the database sorts them; only the rows shown first are
    decoded at once). Without ``texts``, the rows' JSON is left in the index (``None``): the
    paths of 20,000 files are read at once, their rows are not."""
    found: list[tuple[int, _Stored]] = []
    column = "row" if texts else "NULL"
    for root in roots:
        where, values = roots_sql([root])
        query = f"SELECT mtime_ns, path, {column} FROM files WHERE {SESSIONS_ONLY} AND {where}"
        parameters: list[Any] = list(values)
        folders = None if cwd is None else [folder.name for folder in root.project_folders(cwd)]
        if folders is not None:
            parameters += [db_text(name) for name in folders]
            query += f" AND project IN ({','.join('?' * len(folders))})"
        rows = index.connection.execute(query + " ORDER BY mtime_ns DESC", parameters)
        found += [(mtime, (os.fsdecode(path), text, root)) for mtime, path, text in rows]
    if len(roots) > 1:  # each root's rows came sorted: merge them
        found.sort(key=lambda item: item[0], reverse=True)
    return [stored for _, stored in found]


def _texts(index: CatalogIndex, paths: Sequence[str]) -> dict[str, str]:
    """The stored rows (JSON) of ``paths``, by path (a path the index does not hold: absent)."""
    found: dict[str, str] = {}
    for start in range(0, len(paths), _CHUNK):
        keys = [path_key(path) for path in paths[start : start + _CHUNK]]
        marks = ",".join("?" * len(keys))
        query = f"SELECT path, row FROM files WHERE path IN ({marks})"
        found.update(
            (os.fsdecode(path), text) for path, text in index.connection.execute(query, keys)
        )
    return found


def _texts_at(index_path: Path | None, paths: Sequence[str]) -> dict[str, str]:
    """:func:`_texts` through a connection of this thread's; ``{}`` when the index cannot be
    read now (the rows are then read from their files)."""
    try:
        with CatalogIndex.open(index_path) as index:
            return _texts(index, paths)
    except (IndexUnavailable, sqlite3.Error):
        return {}


def indexed_rows(
    base_dir: Path,
    cwd: str | None,
    index_path: Path | None = None,
    *,
    first: int | None = None,
    mirrors: Sequence[Root] = (),
) -> IndexedRows:
    """The rows of ``cwd``'s project (every project when None), newest first, as the index holds
    them: no session file is read, except those the index does not know yet (a new session, or
    an index filled only in part), which are read as the listing reads them. ``rows`` is empty
    when the index knows none of them (the caller lists from the files, batch by batch).

    With ``first``, only the newest ``first`` rows the index holds are decoded now (decoding is
    most of the cost, and a screenful is what is shown first); :meth:`IndexedRows.rest` decodes
    the others. ``mirrors``: other machines' sessions dirs, listed with this one's."""
    if first is not None and mirrors:
        return _first_of_many(Root(base_dir), mirrors, cwd, index_path, first)
    return _indexed([Root(base_dir), *mirrors], cwd, index_path, first)


def _indexed(
    roots: Sequence[Root], cwd: str | None, index_path: Path | None, first: int | None
) -> IndexedRows:
    """:func:`indexed_rows` of ``roots``."""
    present = {path: root for root in roots for path in _present(root.project_folders(cwd))}
    try:
        with CatalogIndex.open(index_path) as index:
            stored = _stored_rows(index, roots, cwd, texts=first is None)
            known = [stored for stored in stored if stored[0] in present]
            count = len(known) if first is None else first
            if first is not None:  # only the rows shown first are read now
                texts = _texts(index, [path for path, _, _ in known[:count]])
                known[:count] = [
                    (path, texts.get(path, ""), root) for path, _, root in known[:count]
                ]
            notice = index.notice
    except IndexUnavailable as error:
        return IndexedRows(None, f"{error}: {_WITHOUT}")
    except sqlite3.Error as error:
        return IndexedRows(None, f"the index failed ({error}): {_WITHOUT}")
    if not stored:
        return IndexedRows([], notice)
    decoded = _decoded(known[:count])
    unknown = set(present).difference(path for path, _, _ in known)
    rows = decoded + _decoded((path, "", present[path]) for path in unknown)  # read now
    rows.sort(key=_order, reverse=True)
    later = known[count:]
    if not later or not decoded:
        return IndexedRows(rows, notice)
    oldest = min(_order(row) for row in decoded)  # every row of ``later`` is older than this one
    shown = [row for row in rows if _order(row) >= oldest]
    spill = [row for row in rows if _order(row) < oldest]
    return IndexedRows(shown, notice, later=later, spill=spill, index_path=index_path)


def _first_of_many(
    here: Root, mirrors: Sequence[Root], cwd: str | None, index_path: Path | None, first: int
) -> IndexedRows:
    """The first rows of several machines: this machine's as :func:`indexed_rows` gives them
    alone, and the newest ``first`` of the mirrors' from the index alone (a mirror changes only
    when synced: its folders are looked at, and its other rows read, by :meth:`rest`). Ten
    machines' first screen then costs about one machine's."""
    mine = _indexed([here], cwd, index_path, first)
    if mine.rows is None:
        return mine
    newest: list[tuple[int, str, Root]] = []
    try:
        with CatalogIndex.open(index_path) as index:
            for root in mirrors:
                where, values = roots_sql([root])
                query = f"SELECT mtime_ns, path FROM files WHERE {SESSIONS_ONLY} AND {where}"
                parameters: list[Any] = list(values)
                if cwd is not None:
                    names = [db_text(folder.name) for folder in root.project_folders(cwd)]
                    parameters += names
                    query += f" AND project IN ({','.join('?' * len(names))})"
                found = index.connection.execute(
                    query + " ORDER BY mtime_ns DESC LIMIT ?", [*parameters, first]
                )
                newest += [(mtime, os.fsdecode(path), root) for mtime, path in found]
            newest = sorted(newest, key=lambda item: item[0], reverse=True)[:first]
            texts = _texts(index, [path for _, path, _ in newest])
    except (IndexUnavailable, sqlite3.Error):  # this machine's now; the rest when it is read
        newest, texts = [], {}
    theirs = _decoded((path, texts.get(path, ""), root) for _, path, root in newest)
    read = {row.path for row in theirs}

    def more() -> list[SessionSummary]:
        rows = _indexed(mirrors, cwd, index_path, None).rows or []
        return [row for row in rows if row.path not in read]

    rows = sorted(mine.rows + theirs, key=_order, reverse=True)
    # Shown: the rows newer than any not read yet (this machine's later ones, the mirrors' past
    # the first ``first``); the others wait for :meth:`rest`, so the list stays in order.
    cuts = []
    if mine.later and mine.rows:  # this machine's rows not read yet are older than these
        cuts.append(min(map(_order, mine.rows)))
    if len(newest) == first and theirs:  # so may the mirrors' be, past their newest ``first``
        cuts.append(min(map(_order, theirs)))
    cut = max(cuts) if cuts else None
    shown = rows if cut is None else [row for row in rows if _order(row) >= cut]
    spill = mine.spill + ([] if cut is None else [row for row in rows if _order(row) < cut])
    return IndexedRows(
        shown, mine.notice, later=mine.later, spill=spill, index_path=index_path, more=more
    )


def _present(folders: list[Path]) -> set[str]:
    """The session files of ``folders``, from their directory entries alone: no ``stat`` per
    file (in a worker each system call waits for the GIL again, behind a busy event loop)."""
    found: set[str] = set()
    for folder in folders:
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name.endswith(SUFFIX) and entry.is_file():
                        found.add(entry.path)
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
    mirrors: Sequence[Root] = (),
) -> IndexedRows:
    """Index what changed on disk for the scope (``mirrors`` too, as :func:`indexed_rows`),
    then return its rows."""
    roots = [Root(base_dir), *mirrors]
    try:
        with CatalogIndex.open(index_path) as index:
            report = update_roots(index, roots, cwd, progress=progress, cancelled=cancelled)
            rows = _decoded(_stored_rows(index, roots, cwd))
            rows.sort(key=_order, reverse=True)
            return IndexedRows(rows, index.notice, report)
    except IndexUnavailable as error:
        return IndexedRows(None, f"{error}: {_WITHOUT}")
    except sqlite3.Error as error:
        return IndexedRows(None, f"the index failed ({error}): {_WITHOUT}")


def load_rows(index: CatalogIndex, folders: Iterable[str] | None) -> list[SessionSummary]:
    """Every picker row the index holds, of every sessions dir (of the project ``folders``,
    else all), newest file mtime first (never a subagent session's); a row this version cannot
    read is left out (the next update rewrites it)."""
    query = f"SELECT row FROM files WHERE {SESSIONS_ONLY}"
    parameters: list[Any] = []
    if folders is not None:
        parameters = [db_text(name) for name in folders]
        query += f" AND project IN ({','.join('?' * len(parameters))})"
    rows: list[SessionSummary] = []
    for (stored,) in index.connection.execute(query, parameters):
        try:
            rows.append(row_from_index(_loads(stored)))
        except (KeyError, TypeError, ValueError):
            continue
    rows.sort(key=_order, reverse=True)
    return rows


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
