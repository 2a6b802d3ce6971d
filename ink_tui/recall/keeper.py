"""The index kept up to date in a thread of its own, so an answer never waits on a long update.

The server starts an update as it starts (before the SDK is even imported: the look at the
files overlaps the import). Each call then asks :meth:`IndexKeeper.fresh`: when no update runs
and the last one began more than :data:`~ink_tui.catalog.index.checks.TRUST_SECONDS` ago, one is
started (a check of unchanged files is a few milliseconds a thousand sessions); the call waits
for it at most :data:`WAIT_SECONDS`, then answers from what the index holds and says the index
is still being brought up to date (how far it is), so an agent knows to ask again rather than
take a thin answer for the whole past. The first index of a large archive thus never holds an
answer back.

Every sessions dir is kept (this machine's and each mirrored machine's, every project): the
tools' scopes are all cut from it. The updates write through their own connections; the
answers read through theirs (the index is SQLite in WAL mode: readers never wait for a writer).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from ink_tui.catalog.index.checks import TRUST_SECONDS
from ink_tui.catalog.index.fallback import SearchIndex
from ink_tui.catalog.index.store import IndexUnavailable
from ink_tui.catalog.roots import Root

__all__ = ["WAIT_SECONDS", "Freshness", "IndexKeeper"]

WAIT_SECONDS: Final = 1.0
"""How long a call waits for an update before it answers from what the index holds."""


@dataclass(frozen=True, slots=True)
class Freshness:
    """How up to date the index was when a call was answered."""

    current: bool  # the last update finished (the index holds every file as it was then)
    read: int = 0  # bytes of session files read so far by the update still running
    to_read: int = 0
    error: str | None = None  # why the index could not be updated (one line)

    def to_json(self) -> dict[str, object] | None:
        """What an answer says of the index (``None``: nothing to say, it is current)."""
        if self.error is not None:
            return {"updating": False, "error": self.error}
        if self.current:
            return None
        done = f"{self.read / 1e6:,.1f} of {self.to_read / 1e6:,.1f} MB" if self.to_read else ""
        return {
            "updating": True,
            "note": "the index is still being brought up to date"
            + (f" ({done} of new session text read)" if done else "")
            + ": this answer is from what it held; ask again shortly for the rest",
        }


class IndexKeeper:
    """Updates ``index`` for ``base`` and the roots ``mirrors()`` names, in the background."""

    def __init__(
        self,
        index: SearchIndex,
        base: Path,
        mirrors: Callable[[], Sequence[Root]],
        *,
        trust: float = TRUST_SECONDS,
        wait: float = WAIT_SECONDS,
    ) -> None:
        self.index = index
        self.base = base
        self.trust = trust  # seconds a finished update stands for a new one
        self.wait = wait  # seconds a call waits for an update (:meth:`fresh`)
        self._mirrors = mirrors
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._done.set()
        self._began = 0.0  # time.monotonic() of the last update's start (0: none yet)
        self._progress = (0, 0)
        self._error: str | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        """Begin an update unless one runs or one began within the trusted time."""
        with self._lock:
            running = not self._done.is_set()
            recent = self._began and time.monotonic() - self._began < self.trust
            if running or recent:
                return
            self._began = time.monotonic()
            self._progress = (0, 0)
            self._done.clear()
        thread = threading.Thread(target=self._update, name="ink-tui index", daemon=True)
        thread.start()

    def fresh(self, wait: float | None = None) -> Freshness:
        """Start an update if one is due, wait for it at most ``wait`` seconds (:attr:`wait`
        by default), and say how up to date the index is."""
        self.start()
        current = self._done.wait(self.wait if wait is None else wait)
        read, to_read = self._progress
        return Freshness(current, read, to_read, self._error if current else None)

    def stop(self, wait: float = 5.0) -> None:
        """Ask a running update to stop (it keeps what it wrote) and wait for it a while."""
        self._stopping.set()
        self._done.wait(wait)

    def _update(self) -> None:
        try:
            self.index.update(
                self.base,
                None,
                trust=self.trust,
                mirrors=list(self._mirrors()),
                progress=self._note_progress,
                cancelled=self._stopping,
            )
            self._error = None
        except IndexUnavailable as error:
            self._error = str(error)
        except Exception as error:  # an update's own bug must not take the server down
            from ink_tui.logs import unforeseen

            self._error = unforeseen(error, "the MCP server's index update")
        finally:
            self._done.set()

    def _note_progress(self, read: int, to_read: int) -> None:
        self._progress = (read, to_read)
