"""Following in the session view: what Ink appends appears at once, without a reload.

:class:`LiveFollow` is the session screen's part that follows the file. The
:class:`~ink_tui.ui.follow.Follower` reads in a thread and posts each batch; the batch is applied
here, on the event loop (to the session and the loaded branch: nothing else changes them), and
what it changed goes to the screen as :class:`LiveFollow.Grew`. Moving away from the end pauses
following (a counter says what arrived meanwhile); ``F`` or End jumps back and resumes. The
state (live, paused, the last write, a line Ink rejects) goes to the screen as
:class:`LiveFollow.Changed`; calls waiting for their result, every second, as
:class:`LiveFollow.Running`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from ink_tui.humanize import plural
from ink_tui.session.conversation.branchview import LoadedBranch, running_calls
from ink_tui.session.conversation.view import TurnChanges
from ink_tui.session.live.tail import FileTrouble, TailUpdate
from ink_tui.session.reading.reader import Entry, SessionFile
from ink_tui.ui.follow import Arrived, Follower, FollowFailed, NewerSession
from ink_tui.ui.keymap import VERB, key_name
from ink_tui.ui.messages import OpenSession
from ink_tui.ui.options import app_now
from ink_tui.ui.session_view.header import LiveState

__all__ = ["LiveFollow"]

NEWER_KEY = key_name(VERB["newer"].keys[0])  # ">": the newer session Ink started


def _moved(update: TailUpdate, session: SessionFile) -> bool:
    """Whether Ink moved the leaf to another branch: a ``position`` marker arrived, or the new
    leaf hangs from an entry already in the file. A leaf whose chain breaks (a ``parentId``
    naming nothing, a cycle) is no move: the file is broken. Only the batch is walked."""
    if update.positions:
        return True
    batch = {entry.id: entry for entry in update.entries}
    current = batch.get(session.leaf_id or "")
    seen: set[str] = set()
    while current is not None and current.id not in seen:
        seen.add(current.id)
        parent = current.parent_id
        if parent is None:
            return True  # a new root: Ink started over from the very first entry
        if parent not in batch:
            return parent in session.by_id
        current = batch[parent]
    return False


class LiveFollow(Widget):
    """Follows the shown session; owns the watcher, the ticker and the follow state."""

    DEFAULT_CSS = "LiveFollow { display: none; }"

    @dataclass
    class Grew(Message):
        """The branch grew: new turns and rows, answered calls, relabelled rows."""

        follow: LiveFollow
        changes: list[TurnChanges]
        relabelled: set[str] = field(default_factory=set)  # row keys whose label changed
        entries: list[Entry] = field(default_factory=list)  # the batch's entries, file order

    @dataclass
    class Reopen(Message):
        """The file must be read again from the start (and follow on), showing ``leaf_id``."""

        follow: LiveFollow
        leaf_id: str | None = None

    @dataclass
    class Changed(Message):
        """The follow state changed (live, paused, unseen records, last write, trouble)."""

        follow: LiveFollow

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, LiveFollow.Changed)

    @dataclass
    class Running(Message):
        """Calls waiting for their result (key -> start), at ``now``; ``changed`` to redraw."""

        follow: LiveFollow
        running: dict[str, float]
        now: float
        changed: set[str]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.following = False
        self.paused = False
        self.unseen = 0
        self.last_write: float | None = None
        self.newer_session: Path | None = None
        self.trouble: FileTrouble | None = None
        self._loaded: LoadedBranch | None = None
        self._follower: Follower | None = None
        self._ticker: Timer | None = None
        self._calls_running: dict[str, float] = {}

    # -- starting and stopping -----------------------------------------------------------------

    def start(self, loaded: LoadedBranch) -> bool:
        """Follow ``loaded``'s file from its end. False: the file must first be read again
        without its last line (Ink is still writing it); a :class:`Reopen` is posted.

        A complete last line that Ink rejects is no reason to read again: it is the file's
        trouble from the start (Ink drops it as torn; a line after it and Ink cannot open the
        file)."""
        session = loaded.session
        if not session.ends_with_newline:  # the last line has no newline yet
            self.post_message(self.Reopen(self, loaded.leaf_id))
            return False
        self.stop_watching()
        if self._loaded is None or self._loaded.session is not session:
            # Read afresh (a first start, or after a reset): what was wrong with the file
            # before is what this read found, not what the last one saw.
            self.trouble, self.last_write = FileTrouble.at_open(session), None
        self._loaded = loaded
        self._follower = Follower(self, session)
        self._follower.start()
        self.following, self.paused, self.unseen = True, False, 0
        self._ticker = self.set_interval(1.0, self._tick)
        self._tick()
        self.post_message(self.Changed(self))
        return True

    def stop_watching(self) -> None:
        """Stop the watcher thread and the ticker (what arrives after is ignored)."""
        if self._follower is not None:
            self._follower.stop()
            self._follower = None
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def stop(self) -> None:
        self.stop_watching()
        self.following = self.paused = False
        self._tick()
        self.post_message(self.Changed(self))

    def on_unmount(self) -> None:
        self.stop_watching()

    def pause(self) -> None:
        """The user moved away from the end: keep the view still, count what arrives."""
        if self.following and not self.paused:
            self.paused = True
            self.post_message(self.Changed(self))

    def resume(self) -> None:
        """Back at the end: follow again."""
        if self.following and self.paused:
            self.paused, self.unseen = False, 0
            self.post_message(self.Changed(self))

    @property
    def header_state(self) -> LiveState | None:
        """What the header shows about following (``None``: nothing)."""
        if not self.following and self.trouble is None:
            return None
        trouble = self.trouble.short if self.trouble is not None else None
        return LiveState(self.last_write, app_now(self), trouble, self.following)

    @property
    def status(self) -> str:
        """The line to show about following (empty: nothing to say)."""
        if not (self.following and self.paused):
            return ""
        if self.unseen:
            return f"{plural(self.unseen, 'new record')} while paused: F or End to jump back"
        return "following paused: F or End to jump back"

    # -- what arrived --------------------------------------------------------------------------

    def on_arrived(self, message: Arrived) -> None:
        message.stop()
        loaded = self._loaded
        if loaded is None or message.follower is not self._follower:
            return  # read by a watcher since stopped: the view was (or is being) reloaded
        update = message.update
        if update.reset is not None:
            self.notify(f"{update.reset}: reading it again from the start", severity="warning")
            self.stop()
            self.post_message(self.Reopen(self, None))
            return
        session = loaded.session
        update.apply_to(session)
        self.trouble = FileTrouble.of(self.trouble, update)
        for problem in update.problems:
            self.notify(
                f"line {problem.line} is not a valid record: {problem.reason}",
                severity="error",
                timeout=10,
            )
        self.last_write = app_now(self)
        extension = loaded.extension_to(session.leaf_id)
        if extension is None:
            if _moved(update, session):
                self.notify("Ink moved to another branch (/fork or /tree): showing it", timeout=6)
            # else the new leaf's chain is broken: reading the file again shows why (Ink's text)
            self.stop()
            self.post_message(self.Reopen(self, session.leaf_id))
            return
        relabelled = loaded.add_labels(update.entries)
        changes = loaded.extend(extension, update.session_models, arrived=update.entries)
        if self.paused:
            self.unseen += len(update.entries) + len(update.markers)
        self.post_message(self.Grew(self, changes, relabelled, update.entries))
        self._check_running()
        self.post_message(self.Changed(self))

    def on_follow_failed(self, message: FollowFailed) -> None:
        message.stop()
        if message.follower is self._follower:
            self.notify(f"following stopped: {message.reason}", severity="error", timeout=15)
            self.stop()

    def on_newer_session(self, message: NewerSession) -> None:
        message.stop()
        if message.follower is not self._follower:
            return  # seen by a watcher since stopped
        self.newer_session = message.path
        self.notify(
            f"Ink started a newer session in this project ({message.path.name}): "
            f"{NEWER_KEY} switches to it",
            timeout=15,
        )

    def switch_newer(self) -> None:
        """Open the newer session Ink started, following it."""
        if self.newer_session is None:
            self.notify("no newer session in this project", timeout=2)
            return
        self.stop()
        self.post_message(OpenSession(self.newer_session, follow=True))

    # -- running tools ---------------------------------------------------------------------------

    def _tick(self) -> None:
        """Every second while following: running times, and the header's "Ns ago"."""
        self._check_running(every=True)
        if self.following and self.last_write is not None:
            self.post_message(self.Changed(self))

    def _check_running(self, *, every: bool = False) -> None:
        """Post the calls still running when they changed (``every``: their times too)."""
        now = app_now(self)
        running = running_calls(self._loaded, now) if self.following and self._loaded else {}
        changed = set(running) ^ set(self._calls_running)
        redraw = changed | set(running) if every else changed
        if redraw:
            self.post_message(self.Running(self, running, now, redraw))
        self._calls_running = running
