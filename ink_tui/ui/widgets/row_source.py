"""Where the picker's rows come from: the index at once, then the disk, then every few seconds.

:class:`SessionRowSource` is a part of the picker with nothing to show: its thread workers read
rows and post them as messages, which bubble to the screen. Nothing here touches a widget.

- :meth:`SessionRowSource.scan`: the rows the index holds (no session file read; the newest
  screenful first, the rest once it is drawn), else the rows read from the files in batches as
  without an index; then the index brought up to date (progress posted as it goes) and every
  row posted again, to be updated in place. At start-up the first rows were read already, while
  the app was imported (:class:`ink_tui.catalog.index.ahead.RowsAhead`): the screen shows them
  in its first frame (:meth:`SessionRowSource.rows_at_hand`) and the scan goes on from there.
- :meth:`SessionRowSource.restat`: the periodic check: through the index when it is usable
  (only changed files are read), else by ``stat`` and a re-read of the files that changed. The
  rows shown are compared with what the index holds, not with what this one update changed: the
  index is shared (the other scope's refresh, a search, another ink-tui bring it up to date too),
  so "nothing new indexed now" never means "the rows shown are fresh".

:class:`ScopeRows` holds the rows of both scopes, one row per session file: a change read in
one scope is the row the other scope shows too.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

from ink_tui.catalog import SessionSummary, iter_summaries, summarize_file
from ink_tui.catalog.index.ahead import FIRST_ROWS, RowsAhead
from ink_tui.catalog.index.listing import IndexedRows, indexed_rows, refreshed_rows
from ink_tui.catalog.roots import Root, mirror_roots, place_row
from ink_tui.logs import unforeseen
from ink_tui.paths import project_dir
from ink_tui.session.writing.ownwrites import own_writes
from ink_tui.ui.scope import Scope, scope_cwd

__all__ = [
    "IndexNotice",
    "IndexProgress",
    "RowsFound",
    "RowsRefreshed",
    "ScopeRows",
    "SessionRowSource",
]

_BATCH: Final = 50
_BATCH_SECONDS: Final = 0.05
_AHEAD_WAIT: Final = 10.0  # seconds the worker waits for rows being read ahead, at most
_ROWS_PER_POST: Final = 400
_PAINT_WAIT: Final = 1.0  # seconds the worker waits at most for the first rows' paint


@dataclass
class RowsFound(Message):
    """A batch of rows read by the scan worker (listing order)."""

    generation: int
    summaries: list[SessionSummary]
    done: bool = False
    whole: bool = False  # every row of the scope (from the index): replaces, in place


@dataclass
class RowsRefreshed(Message):
    """Files of the scope that changed, appeared or vanished since they were read."""

    generation: int
    scope: Scope  # the scope they were read for (maybe no longer the one shown)
    changed: list[SessionSummary] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    whole: list[SessionSummary] | None = None  # every row again (from the index)


@dataclass
class IndexProgress(Message):
    """How far the index worker got (only the latest one waiting matters)."""

    generation: int
    done: int
    total: int

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, IndexProgress)


@dataclass
class IndexNotice(Message):
    """The index could not be used or was rebuilt: one line for the user (posted once per
    reason by a source, not at every refresh)."""

    text: str


def _order(row: SessionSummary) -> tuple[float, str, str]:
    """The listing order (newest file mtime first, as :func:`iter_summaries`), reversed."""
    return (row.mtime, row.file_name, row.project_folder)


def _stamps(rows: Iterable[SessionSummary]) -> dict[Path, tuple[float, int]]:
    return {row.path: (row.mtime, row.size) for row in rows}


class ScopeRows:
    """The picker's rows of every scope (:data:`ink_tui.ui.scope.SCOPES`).

    One row per session file, shared: each scope only holds the order of its files. A row read
    again in one scope (renamed, grown, gone) is therefore what the other scope shows as well,
    the moment it is shown again; its own refresh then adds what only it can see."""

    def __init__(self) -> None:
        self._rows: dict[Path, SessionSummary] = {}
        self._order: dict[Scope, list[Path]] = {}

    def has(self, scope: Scope) -> bool:
        """Whether the scope was read (its rows can be shown at once)."""
        return scope in self._order

    def rows(self, scope: Scope, *, sort: bool = False) -> list[SessionSummary]:
        """The scope's rows in listing order (``sort``: ordered again, as rows read in the
        other scope may have moved)."""
        rows = [self._rows[path] for path in self._order.get(scope, []) if path in self._rows]
        if sort:
            rows.sort(key=_order, reverse=True)
            self._order[scope] = [row.path for row in rows]
        return rows

    def forget(self, scope: Scope) -> None:
        self._order.pop(scope, None)

    def show(self, scope: Scope, rows: Iterable[SessionSummary]) -> None:
        """The scope's rows as read (maybe only its first ones: nothing is dropped)."""
        rows = list(rows)
        self._rows.update((row.path, row) for row in rows)
        self._order[scope] = [row.path for row in rows]

    def extend(self, scope: Scope, rows: Iterable[SessionSummary]) -> None:
        rows = list(rows)
        self._rows.update((row.path, row) for row in rows)
        self._order.setdefault(scope, []).extend(row.path for row in rows)

    def refreshed(self, scope: Scope, rows: Iterable[SessionSummary]) -> None:
        """Every row of the scope read again: a file it no longer lists is gone, everywhere."""
        rows = list(rows)
        kept = {row.path for row in rows}
        self.changed(scope, [], [path for path in self._order.get(scope, []) if path not in kept])
        self.show(scope, rows)

    def changed(self, scope: Scope, rows: list[SessionSummary], removed: list[Path]) -> None:
        """Files of the scope read again (new ones join it) and files gone (from every scope)."""
        gone = set(removed)
        for path in gone:
            self._rows.pop(path, None)
        if gone:
            for name, order in self._order.items():
                self._order[name] = [path for path in order if path not in gone]
        order = self._order.setdefault(scope, [])
        known = set(order)
        order.extend(row.path for row in rows if row.path not in known)
        self._rows.update((row.path, row) for row in rows)
        self.rows(scope, sort=True)


def _stat_folder(folder: Path, found: dict[Path, tuple[float, int]]) -> None:
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".jsonl") and entry.is_file():
                    info = entry.stat()
                    found[Path(entry.path)] = (info.st_mtime, info.st_size)
    except OSError:
        pass


def _guarded(read: Callable[[], IndexedRows]) -> IndexedRows:
    """``read()``; a bug in it is logged with its traceback, said in one line, and the rows
    are then read from the files as without an index."""
    try:
        return read()
    except Exception as error:
        return IndexedRows(None, unforeseen(error, "the catalog index"))


class SessionRowSource(Widget):
    """Reads the picker's rows in workers and posts them (see the module doc)."""

    DEFAULT_CSS = "SessionRowSource { display: none; }"

    def __init__(self, sessions_dir: Path, cwd: str, ahead: RowsAhead | None = None) -> None:
        super().__init__()
        self.sessions_dir = sessions_dir
        self.cwd = cwd
        self.ahead = ahead
        self.project_dir = project_dir(sessions_dir, cwd)
        self.index_usable = True
        self.painted = threading.Event()  # set by the picker once the first rows are painted
        self._told: set[str] = set()  # the notices posted (each once)

    def _tell(self, text: str) -> None:
        """``text`` as an :class:`IndexNotice`, once per reason."""
        if text not in self._told:
            self._told.add(text)
            self.post_message(IndexNotice(text))

    def rows_at_hand(self, scope: Scope) -> IndexedRows | None:
        """The scope's first rows if they were read ahead (:class:`RowsAhead`: this machine's
        only) and are here now: never waits (the screen shows them in its first frame)."""
        if self.ahead is None or scope == "machines":
            return None
        return self.ahead.take(self.sessions_dir, scope_cwd(scope, self.cwd))

    def _roots(self, scope: Scope) -> list[Root]:
        """The sessions dirs the scope reads: this project is this project on every machine
        mirrored here (the same folder, or the one its path map gives); all projects are this
        machine's. The mirrors and the settings are looked at now: call it in a worker."""
        here = Root(self.sessions_dir)
        if scope == "all" or not mirror_roots():  # no mirror: the settings are not read
            return [here]
        from ink_tui.archive.machines import readable_mirrors

        mirrors, notice = readable_mirrors()
        if notice is not None:
            self._tell(notice)
        return [here, *mirrors]

    def _first_rows(self, scope: Scope) -> IndexedRows:
        """The rows being read ahead (waiting for them), else the rows the index holds now."""
        cwd = scope_cwd(scope, self.cwd)
        ahead = None
        if self.ahead is not None and scope != "machines":
            ahead = self.ahead.take(self.sessions_dir, cwd, wait=_AHEAD_WAIT)
        if ahead is not None:
            return ahead
        mirrors = self._roots(scope)[1:]
        return _guarded(
            lambda: indexed_rows(self.sessions_dir, cwd, first=FIRST_ROWS, mirrors=mirrors)
        )

    @work(thread=True, exclusive=True, group="scan")
    def scan(self, scope: Scope, generation: int, shown: IndexedRows | None = None) -> None:
        """Rows from the index at once (else from the files), then the index brought up to date.

        ``shown``: the first rows, already in the table (read ahead of the app); else they are
        read here."""
        worker = get_current_worker()
        own_writes.refresh()  # which rows only ink-tui wrote lately (not "live")
        cwd = scope_cwd(scope, self.cwd)
        first = self._first_rows(scope) if shown is None else shown
        if first.notice is not None:
            self._tell(first.notice)
        if first.rows:
            self._post_in_parts(first, generation, shown=shown is not None)
        else:
            self._scan_files(scope, generation)
        if first.rows is None or worker.is_cancelled:
            self.index_usable = first.rows is not None
            self.post_message(RowsFound(generation, [], done=True))
            return

        def progress(done: int, total: int) -> None:
            self.post_message(IndexProgress(generation, done, total))

        mirrors = self._roots(scope)[1:]
        fresh = _guarded(
            lambda: refreshed_rows(
                self.sessions_dir,
                cwd,
                progress=progress,
                cancelled=worker.cancelled_event,
                mirrors=mirrors,
            )
        )
        if worker.cancelled_event.is_set():  # (set by another thread meanwhile)
            return
        if fresh.notice is not None:
            self._tell(fresh.notice)
        self.index_usable = fresh.rows is not None
        self.post_message(
            RowsFound(generation, fresh.rows or [], done=True, whole=bool(fresh.rows))
        )

    def _post_in_parts(self, first: IndexedRows, generation: int, *, shown: bool) -> None:
        """A screenful first (unless ``shown`` already), and nothing more until it is painted
        (the rest would be added to the table before the first paint, and a thread competing
        for the GIL slows the paint down); then the rest, decoded only now, in batches."""
        if not shown:
            self.painted.clear()
            self.post_message(RowsFound(generation, first.rows or [], whole=True))
        self.painted.wait(_PAINT_WAIT)  # rows posted meanwhile would be added before the paint
        rest = first.rest()
        for start in range(0, len(rest), _ROWS_PER_POST):
            self.post_message(RowsFound(generation, rest[start : start + _ROWS_PER_POST]))

    def _scan_files(self, scope: Scope, generation: int) -> None:
        """Rows read from the session files, in batches (no index yet, or none usable)."""
        worker = get_current_worker()
        batch: list[SessionSummary] = []
        posted = time.monotonic()
        first = True
        cwd = scope_cwd(scope, self.cwd)
        summaries = (
            (summary, root)
            for root in self._roots(scope)
            for there in ([None] if cwd is None else root.there(cwd))
            for summary in iter_summaries(root.path, there)
        )
        for summary, root in summaries:
            if worker.is_cancelled:
                return
            place_row(summary, root)
            batch.append(summary)
            if first or len(batch) >= _BATCH or time.monotonic() - posted > _BATCH_SECONDS:
                self.post_message(RowsFound(generation, batch))
                batch, posted, first = [], time.monotonic(), False
        if batch:
            self.post_message(RowsFound(generation, batch))

    @work(thread=True, exclusive=True, group="refresh")
    def restat(self, scope: Scope, generation: int, known: dict[Path, tuple[float, int]]) -> None:
        own_writes.refresh()  # which rows only ink-tui wrote lately (not "live")
        roots = self._roots(scope)
        cwd = scope_cwd(scope, self.cwd)
        if self.index_usable:
            fresh = _guarded(lambda: refreshed_rows(self.sessions_dir, cwd, mirrors=roots[1:]))
            if fresh.rows is not None:
                # Compared with the rows shown, not with what this update indexed: another
                # update (the other scope's, a search's) may have indexed the change already.
                if _stamps(fresh.rows) != known:
                    self.post_message(RowsRefreshed(generation, scope, whole=fresh.rows))
                return
            self.index_usable = False
            if fresh.notice is not None:
                self.post_message(IndexNotice(fresh.notice))
        found: dict[Path, tuple[float, int]] = {}
        rooted: dict[Path, Root] = {}
        for root in roots:
            for folder in root.project_folders(cwd):
                _stat_folder(folder, found)
                rooted[folder] = root
        changed = [
            summarize_file(path, mtime=mtime, size=size)
            for path, (mtime, size) in found.items()
            if known.get(path) != (mtime, size)
        ]
        for summary in changed:
            place_row(summary, rooted[summary.path.parent])
        removed = [path for path in known if path not in found]
        if changed or removed:
            self.post_message(RowsRefreshed(generation, scope, changed, removed))
