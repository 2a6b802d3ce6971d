"""The picker's first rows, read from the index in a thread while the app itself is imported.

Started by the command line before it imports the app (about a third of a second of imports,
mounting and styling), the read is done by the time the picker is mounted, so its first frame
holds the rows. A read started later, in a worker beside the event loop, waits for the GIL at
every system call while the loop mounts the screen, and its rows come one frame later.

Importing this module imports nothing of the index: the thread does, while the main thread
imports the app.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from ink_tui.catalog.index.listing import IndexedRows

__all__ = ["FIRST_ROWS", "RowsAhead"]

FIRST_ROWS: Final = 80  # rows decoded and shown first: more than a screenful


class RowsAhead:
    """One read of :func:`ink_tui.catalog.index.listing.indexed_rows`, in its own thread."""

    def __init__(self, base_dir: Path, cwd: str | None) -> None:
        self.base_dir = base_dir
        self.cwd = cwd
        self._result: IndexedRows | None = None
        self._done = threading.Event()
        self._taken = False
        self._lock = threading.Lock()

    @classmethod
    def start(cls, base_dir: Path, cwd: str | None) -> RowsAhead:
        ahead = cls(base_dir, cwd)
        threading.Thread(target=ahead._read, name="ink-tui-rows-ahead", daemon=True).start()
        return ahead

    def _read(self) -> None:
        try:
            from ink_tui.catalog.index.listing import indexed_rows
            from ink_tui.session.writing.ownwrites import own_writes

            own_writes.refresh()  # the rows' "live" marker knows ink-tui's own writes
            self._result = indexed_rows(self.base_dir, self.cwd, first=FIRST_ROWS)
        except Exception:  # a bug: nothing is taken, the picker reads the rows (and says it)
            self._result = None
        finally:
            self._done.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Whether the read is done (waiting at most ``timeout`` seconds for it)."""
        return self._done.wait(timeout)

    def take(self, base_dir: Path, cwd: str | None, *, wait: float = 0.0) -> IndexedRows | None:
        """The rows read ahead, if they are of this scope, read without a bug, not taken before,
        and here within ``wait`` seconds (0: only if here now); else ``None`` (the caller reads
        them)."""
        if (base_dir, cwd) != (self.base_dir, self.cwd) or not self._done.wait(wait):
            return None
        with self._lock:
            if self._taken:
                return None
            self._taken = True
            return self._result
