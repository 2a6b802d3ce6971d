"""The index brought up to date for several sessions dirs at once: this machine's and the
mirrors' (:mod:`ink_tui.catalog.roots`), as one report."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

from ink_tui.catalog.index.report import IndexReport
from ink_tui.catalog.index.store import CatalogIndex
from ink_tui.catalog.index.update import Progress, update_index
from ink_tui.catalog.roots import Root

__all__ = ["update_roots"]


def update_roots(
    index: CatalogIndex,
    roots: Sequence[Root],
    cwd: str | None,
    *,
    progress: Progress | None = None,
    cancelled: threading.Event | None = None,
) -> IndexReport:
    """:func:`update_index` for each root in turn (``cwd``'s project of each, under each name a
    path map gives it there; every project when None), as one report; the progress counts every
    root's bytes so far."""
    total: IndexReport | None = None
    before = [0, 0]  # bytes done and to read in the roots already updated

    def advance(done: int, to_read: int) -> None:
        if progress is not None:
            progress(before[0] + done, before[1] + to_read)

    wheres: list[tuple[Root, str | None]] = [
        (root, there) for root in roots for there in ([None] if cwd is None else root.there(cwd))
    ]
    for root, there in wheres:
        report = update_index(index, root.path, there, progress=advance, cancelled=cancelled)
        before[0] += report.bytes_read
        before[1] += report.bytes_read
        if total is None:
            total = report
        else:
            total.add(report)  # the oldest look stands for the whole
        if report.cancelled:
            break
    return IndexReport(checked_ns=time.time_ns()) if total is None else total
