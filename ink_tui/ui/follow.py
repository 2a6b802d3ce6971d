"""Watching a session file from a thread and posting what Ink appended.

The watcher uses watchfiles on the session's project folder (a file that is replaced, and new
sessions of the project, show up there too), with a short debounce for low latency, and wakes
up every second even without events: a slow poll for file systems that deliver none (network
mounts). It only reads and posts: each poll is a new batch (``TailUpdate``), never the opened
session, which a handler on the event loop applies. If the watch itself fails (the folder went
away) or breaks (a bug: logged with its traceback), it posts :class:`FollowFailed` and ends.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import watchfiles
from textual.dom import DOMNode
from textual.message import Message

from ink_tui.logs import unforeseen
from ink_tui.session.live.tail import SessionTail, TailUpdate
from ink_tui.session.reading.reader import SessionFile

__all__ = ["Arrived", "FollowFailed", "Follower", "NewerSession"]

DEBOUNCE_MS: Final = 10  # longest wait to group a burst of writes
STEP_MS: Final = 20  # quiet time that ends a group (also how often the watcher wakes)
POLL_MS: Final = 1000  # wake-up without events: the slow-poll fallback


@dataclass
class Arrived(Message):
    """Records (or problems) appended to the followed file, as a batch of their own.

    Never replaced by a later one (each holds different records); the watcher already groups a
    burst of writes into one batch.
    """

    update: TailUpdate
    follower: Follower  # who read it: a batch from a watcher since stopped is stale


@dataclass
class FollowFailed(Message):
    """Following ended on an error: ``reason`` is the one line to show."""

    reason: str
    follower: Follower


@dataclass
class NewerSession(Message):
    """Ink started a newer session in the same project."""

    path: Path
    follower: Follower  # who saw it: one from a watcher since stopped is stale


class Follower:
    """Follows an opened session; posts :class:`Arrived` and :class:`NewerSession` to ``target``."""

    def __init__(self, target: DOMNode, session: SessionFile) -> None:
        self._target = target
        # It copies what it needs and never holds the session; its IO starts in the thread.
        self._tail = SessionTail(session, begin=False)
        self._stop = threading.Event()
        self._known: set[Path] = set()

    @property
    def path(self) -> Path:
        return self._tail.path

    def start(self) -> None:
        self._stop.clear()
        self._target.run_worker(
            self._watch, thread=True, exclusive=True, group="follow", name="follow"
        )

    def stop(self) -> None:
        self._stop.set()

    def _sessions_in_folder(self) -> set[Path]:
        """The folder's session files: regular files only (a FIFO or a symlink to a device
        named ``*.jsonl`` is never offered as a newer session)."""
        try:
            return {path for path in self.path.parent.glob("*.jsonl") if path.is_file()}
        except OSError:
            return set()

    def _watch(self) -> None:
        try:
            self._watch_folder()
        except OSError as error:  # the folder went away, or cannot be watched
            reason = f"cannot watch {self.path.parent}: {error.strerror or error}"
            self._target.post_message(FollowFailed(reason, self))
        except Exception as error:  # a bug: logged, said in one line, never an app exit
            self._target.post_message(FollowFailed(unforeseen(error, "the follow thread"), self))

    def _watch_folder(self) -> None:
        self._tail.begin()
        self._known = self._sessions_in_folder()  # a session made from here on is newer
        self._poll()
        for _changes in watchfiles.watch(
            self.path.parent,
            debounce=DEBOUNCE_MS,
            step=STEP_MS,
            rust_timeout=POLL_MS,
            yield_on_timeout=True,
            stop_event=self._stop,
            recursive=False,
            raise_interrupt=False,
        ):
            if self._stop.is_set() or not self._poll():
                break
            self._look_for_newer()

    def _poll(self) -> bool:
        """Read what arrived; False when following has to stop (the file must be reopened)."""
        update = self._tail.poll()
        if update:
            self._target.post_message(Arrived(update, self))
        return update.reset is None

    def _look_for_newer(self) -> None:
        current = self._sessions_in_folder()
        for path in sorted(current - self._known):
            if path != self.path:
                self._target.post_message(NewerSession(path, self))
        self._known = current
