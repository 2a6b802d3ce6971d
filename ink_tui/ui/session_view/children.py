"""Subagent sessions in the session view: read for their ``task`` call, or opened.

:class:`SessionChildren` is the session view's part that reads subagents; it never touches the
tree. Opening a ``task`` call (``l``, Space) asks it to read the call's child session in a worker
(:meth:`SessionChildren.expanded`); what it read goes out as :class:`SessionChildren.Read` and the
screen shows it under the call (:mod:`.child_rows`). A child still running (its lease is held,
or, while the call waits for its result, it was written in the last seconds) is looked at again
every :data:`POLL_SECONDS` while its rows are open (:meth:`SessionChildren.poll`), and read again
when its file changed. Enter on the call, or on one of the child's rows, opens the child in a
session view of its own over this one, on that row, with a breadcrumb (``parent ▸ task ▸
child``): :class:`SessionChildren.OpenChild`; a running child opened from its call is followed.
Esc comes back here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from textual import on, work
from textual.message import Message
from textual.widget import Widget

from ink_tui.logs import unforeseen
from ink_tui.manage.children import child_is_running
from ink_tui.session.analysis.subagents import child_of_task, launching_call, task_child_id
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.view import Item, Turn, TurnChanges
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.reader import open_session
from ink_tui.session.rules.taskrecord import no_transcript, task_record
from ink_tui.ui.session_view.child_rows import ChildState

__all__ = ["POLL_SECONDS", "ChildArrival", "SessionChildren", "TaskCall"]

POLL_SECONDS: Final = 2.0
READ_SPACING: Final = 4.0  # a running child is read again no sooner than 4x its last read took
Stamp = tuple[int, int] | None  # a child file's (size, mtime in ns) when read; None: not there


@dataclass(frozen=True, slots=True)
class TaskCall:
    """A ``task`` call and what a worker needs to find its child (taken on the event loop; the
    file is read, and the call's timestamp too, in the worker)."""

    item: Item
    result: Any  # the call's result when it was taken (None: still running)
    session: Path
    session_id: str
    turns: list[Turn]  # the branch's turns: the children other results name are not this one's

    @property
    def key(self) -> str:
        return self.item.key

    def child(self) -> Path | None:
        return child_of_task(self.session, self.session_id, self.turns, self.item)

    def now(self) -> TaskCall:
        """The call as it is now (its result may have arrived since)."""
        tool = self.item.tool
        return replace(self, result=tool.result if tool is not None else None)


@dataclass(frozen=True, slots=True)
class ChildArrival:
    """A subagent session to open over its parent's view once the parent is read (a search hit
    inside a child): on this entry, with the child's own search set to ``search``."""

    path: Path
    leaf_id: str | None = None
    entry_id: str | None = None
    search: str | None = None


def _stamp(path: Path | None) -> Stamp:
    try:
        info = os.stat(path) if path is not None else None
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns) if info is not None else None


class SessionChildren(Widget):
    """Reads the subagent sessions of ``task`` calls; asks for a child's own view."""

    DEFAULT_CSS = "SessionChildren { display: none; }"

    @dataclass
    class Read(Message):
        """A call's child was looked for and read (in a worker)."""

        key: str
        state: ChildState
        stamp: Stamp
        seconds: float  # how long the read took

    @dataclass
    class OpenChild(Message):
        """Open the subagent session ``path`` over this view (``entry_id``: on that row;
        ``follow``: following it; ``search``: its own search set to this)."""

        path: Path
        entry_id: str | None = None
        follow: bool = False
        search: str | None = None
        leaf_id: str | None = None

    @dataclass
    class Launched(Message):
        """The task call that launched a child opened from a search is row ``key`` (None: not on
        the branch shown)."""

        key: str | None

    def __init__(self) -> None:
        super().__init__()
        self._read_states: dict[str, tuple[ChildState, Stamp]] = {}  # call key -> its last read
        self._calls: dict[str, TaskCall] = {}
        self._reading: set[str] = set()
        self._rest_until: dict[str, float] = {}  # call key -> no re-read before (monotonic)

    # -- in place ----------------------------------------------------------------------------

    def expanded(self, call: TaskCall, *, rows_shown: bool) -> bool:
        """A ``task`` call's row opened: read its child, unless the rows of a finished child are
        shown (``rows_shown``) or it is being read. Returns whether the reading row should show
        (nothing of this child is shown yet)."""
        if call.key in self._reading:
            return False
        last = self._read_states.get(call.key)
        if rows_shown and last is not None and not last[0].running:
            return False
        self._start(call)
        return not rows_shown

    def _start(self, call: TaskCall) -> None:
        self._calls[call.key] = call
        self._reading.add(call.key)
        self._read(call)

    @work(thread=True, group="children")
    def _read(self, call: TaskCall) -> None:
        started = time.monotonic()
        try:
            state = self._child_state(call)
        except Exception as error:  # a bug: logged with its traceback, said in one line
            state = ChildState(task_child_id(call.result), problem=unforeseen(error, "reading"))
        seconds = time.monotonic() - started
        self.post_message(self.Read(call.key, state, _stamp(state.path), seconds))

    @staticmethod
    def _child_state(call: TaskCall) -> ChildState:
        path = call.child()
        child_id = task_child_id(call.result)
        if path is None:
            return ChildState(child_id, absent=no_transcript(task_record(call.result)))
        pending = call.result is None
        running = child_is_running(path, answered=not pending)
        try:
            session = open_session(path, warn=None)
            loaded = load_branch(session, None)
        except SessionError as error:
            return ChildState(child_id, path, None, running, pending, str(error))
        except OSError as error:
            problem = f"cannot read {path}: {error.strerror or error}"
            return ChildState(child_id, path, None, running, pending, problem)
        return ChildState(child_id, path, loaded, running, pending)

    @on(Read)
    def _was_read(self, message: Read) -> None:
        """Kept, then on to the screen (which shows it under the call)."""
        self._reading.discard(message.key)
        self._read_states[message.key] = (message.state, message.stamp)
        # A big child read often would hold the GIL: rest READ_SPACING times the read's time.
        self._rest_until[message.key] = time.monotonic() + READ_SPACING * message.seconds

    def forget(self, key: str) -> None:
        """Call ``key``'s rows are not shown (the window moved on): no more reads of it."""
        self._read_states.pop(key, None)

    def poll(self, open_calls: Collection[str]) -> None:
        """Running children whose rows are open (``open_calls``): read again those whose file
        changed."""
        running = [
            (key, state, stamp)
            for key, (state, stamp) in self._read_states.items()
            if state.running
            and key in open_calls
            and key not in self._reading
            and time.monotonic() >= self._rest_until.get(key, 0.0)
        ]
        if running:
            self._poll_files(running)

    @work(thread=True, group="children-poll", exclusive=True)
    def _poll_files(self, shown: list[tuple[str, ChildState, Stamp]]) -> None:
        for key, state, stamp in shown:
            path = state.path
            changed = _stamp(path) != stamp
            if path is None or changed or not child_is_running(path, answered=not state.pending):
                self.app.call_from_thread(self._reread, key)

    def answered(self, changes: list[TurnChanges]) -> None:
        """Following: ``task`` calls whose child was read that got their result: read again."""
        for change in changes:
            for item in change.answered:
                if item.key in self._read_states:
                    self._reread(item.key)

    def _reread(self, key: str) -> None:
        call = self._calls.get(key)
        if call is not None and key not in self._reading and key in self._read_states:
            self._start(call.now())

    # -- opened ------------------------------------------------------------------------------

    @work(thread=True, group="child")
    def arrive(
        self, arrival: ChildArrival, parent: Path, session_id: str, turns: list[Turn]
    ) -> None:
        """The parent (``parent``, its branch's ``turns``) is read: find the call that launched
        ``arrival``'s child (in a worker; :class:`Launched` says which), then ask for the child's
        view where it is asked."""
        try:
            call = launching_call(parent, session_id, turns, arrival.path)
        except Exception as error:  # a bug: logged with its traceback; the child still opens
            self.app.call_from_thread(self.notify, unforeseen(error, "finding the task call"))
            call = None
        self.post_message(self.Launched(call.key if call is not None else None))
        child = self.OpenChild(arrival.path, arrival.entry_id, False, arrival.search)
        self.post_message(replace(child, leaf_id=arrival.leaf_id))

    @work(thread=True, group="child")
    def open(self, call: TaskCall, at: str | None) -> None:
        """Enter on a ``task`` call (``at`` None) or on one of its child's rows (``at``: the
        child entry; "": a row of no entry, the child from its start)."""
        try:
            path = call.child()
            answered = call.result is not None
            running = path is not None and child_is_running(path, answered=answered)
        except Exception as error:  # a bug: logged with its traceback, said in one line
            self.app.call_from_thread(self.notify, unforeseen(error, "finding the subagent"))
            return
        child_id = task_child_id(call.result)
        if path is None:  # why, as its task record says (INK_CHILD_SESSIONS=0…) or as looked for
            absent = no_transcript(task_record(call.result))
            note = (
                f"no subagent session: {absent}"
                if absent is not None
                else f"the subagent session {child_id} is not in children/ (pruned, or elsewhere)"
                if child_id is not None
                else "no subagent session found for this call yet"
            )
            self.app.call_from_thread(
                self.notify, note, severity="warning", timeout=6, markup=False
            )
            return
        follow = running and not at  # opened on a row of its own: stay there (f follows)
        self.post_message(self.OpenChild(path, at or None, follow))
