"""Subagent sessions in the session view: shown in place under their ``task`` call, or opened.

:class:`SessionChildren` is the session screen's part for ``task`` calls. Expanding a call (``l``,
Space) reads its child session in a worker and shows the child's turns under the call
(:mod:`ink_tui.ui.widgets.subagent_rows`). A child still running (its lease is held, or, while
the call waits for its result, it was written in the last seconds) is looked at again every
:data:`POLL_SECONDS`, and its rows grow. Enter on the call, or on one of the child's rows, opens
the child in a session view of its own over this one, on that row, with a breadcrumb (``parent
▸ task ▸ child``); a running child opened from its call is followed. Esc comes back here.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.widgets.tree import TreeNode

from ink_tui.logs import unforeseen
from ink_tui.manage.children import child_is_running
from ink_tui.session.analysis.subagents import child_of_task, launching_call, task_child_id
from ink_tui.session.conversation.branchview import load_branch
from ink_tui.session.conversation.view import Item, Turn, TurnChanges
from ink_tui.session.reading.errors import SessionError
from ink_tui.session.reading.reader import open_session
from ink_tui.session.rules.taskrecord import no_transcript, task_record
from ink_tui.ui.widgets.subagent_rows import ChildRows, ChildState, add_child_rows, reading_row

if TYPE_CHECKING:
    from ink_tui.ui.screens.session import SessionScreen

__all__ = ["POLL_SECONDS", "ChildArrival", "SessionChildren"]

POLL_SECONDS: Final = 2.0
READ_SPACING: Final = 4.0  # a running child is read again no sooner than 4x its last read took
Node = TreeNode[str]
Stamp = tuple[int, int] | None  # a child file's (size, mtime in ns) when read; None: not there


@dataclass(frozen=True, slots=True)
class _Call:
    """What a worker needs to find a call's child (taken on the event loop; the file is read,
    and the call's timestamp too, in the worker)."""

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
    """The session screen's part for ``task`` calls and their subagent sessions."""

    DEFAULT_CSS = "SessionChildren { display: none; }"

    @dataclass
    class Read(Message):
        """A call's child was looked for and read (in a worker)."""

        key: str
        state: ChildState
        stamp: Stamp
        seconds: float  # how long the read took

    def __init__(self) -> None:
        super().__init__()
        self._shown: dict[str, tuple[Node, ChildRows, ChildState, Stamp]] = {}
        self._reading: set[str] = set()
        self._placeholders: dict[str, Node] = {}  # call key -> its "reading…" row
        self._rest_until: dict[str, float] = {}  # call key -> no re-read before (monotonic)

    @property
    def view(self) -> SessionScreen:
        return self.screen  # type: ignore[return-value]

    def on_mount(self) -> None:
        self.set_interval(POLL_SECONDS, self.poll)

    def task_call(self, node: Node) -> Item | None:
        """The ``task`` call ``node`` shows (the call's own row), else None."""
        tree, key = self.view.session_tree, node.data
        if self.view.loaded is None or key is None or tree.node_for(key) is not node:
            return None
        item = tree.item_of(key)
        tool = item.tool if item is not None else None
        return item if tool is not None and tool.name == "task" else None

    def _call(self, item: Item) -> _Call:
        loaded = self.view.loaded
        assert loaded is not None and item.tool is not None
        session_id = str(loaded.session.header.get("id", ""))
        return _Call(item, item.tool.result, self.view.path, session_id, loaded.turns)

    # -- in place ----------------------------------------------------------------------------

    def expanded(self, node: Node) -> None:
        """A node was expanded: a ``task`` call shows its child's turns under it."""
        item = self.task_call(node)
        if item is None or item.key in self._reading:
            return
        shown = self._shown.get(item.key)
        if shown is not None and shown[0] is node and not shown[2].running:
            return  # read already, and finished: the rows are there
        if shown is None or shown[0] is not node:
            self._shown.pop(item.key, None)
            self._placeholders[item.key] = reading_row(node)
        self._reading.add(item.key)
        self._read(self._call(item))

    @work(thread=True, group="children")
    def _read(self, call: _Call) -> None:
        started = time.monotonic()
        try:
            state = self._child_state(call)
        except Exception as error:  # a bug: logged with its traceback, said in one line
            state = ChildState(task_child_id(call.result), problem=unforeseen(error, "reading"))
        seconds = time.monotonic() - started
        self.post_message(self.Read(call.key, state, _stamp(state.path), seconds))

    @staticmethod
    def _child_state(call: _Call) -> ChildState:
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

    def on_session_children_read(self, message: Read) -> None:
        self._reading.discard(message.key)
        node = self.view.session_tree.node_for(message.key)
        if node is None:
            return  # the window moved on: the call is not shown now
        placeholder = self._placeholders.pop(message.key, None)
        shown = self._shown.get(message.key)
        gone = [placeholder] if placeholder is not None else []
        before = ChildRows()
        if shown is not None and shown[0] is node:
            before = shown[1]
            gone += before.nodes  # the rows shown before: replaced by what was read now
        tree = self.view.session_tree
        cursor = tree.cursor_node
        at = before.entries.get(cursor.id) if cursor is not None else None
        opened = {before.entries[row.id] for row in before.nodes if row.id in before.entries}
        opened = {entry for entry in opened if before.by_entry[entry].is_expanded}
        for row in gone:
            if row.tree is node.tree and row.parent is node:
                row.remove()
        rows = add_child_rows(node, message.state)
        for row in rows.nodes:  # the child's turns opened before are open again
            if rows.entries.get(row.id) in opened:
                row.expand()
        if at is not None and at in rows.by_entry:  # and the cursor stays on its row
            tree.reveal(rows.by_entry[at])
        self._shown[message.key] = (node, rows, message.state, message.stamp)
        # A big child read often would hold the GIL: rest READ_SPACING times the read's time.
        self._rest_until[message.key] = time.monotonic() + READ_SPACING * message.seconds

    def poll(self) -> None:
        """Running children shown in place: read again those whose file changed."""
        running = [
            (key, node, state, stamp)
            for key, (node, _, state, stamp) in self._shown.items()
            if state.running
            and key not in self._reading
            and node.is_expanded
            and time.monotonic() >= self._rest_until.get(key, 0.0)
        ]
        if running:
            self._poll_files(running)

    @work(thread=True, group="children-poll", exclusive=True)
    def _poll_files(self, shown: list[tuple[str, Node, ChildState, Stamp]]) -> None:
        for key, _node, state, stamp in shown:
            path = state.path
            changed = _stamp(path) != stamp
            if path is None or changed or not child_is_running(path, answered=not state.pending):
                self.app.call_from_thread(self._reread, key)

    def answered(self, changes: list[TurnChanges]) -> None:
        """Following: ``task`` calls shown in place that got their result are read again."""
        for change in changes:
            for item in change.answered:
                if item.key in self._shown:
                    self._reread(item.key)

    def _reread(self, key: str) -> None:
        item = self.view.session_tree.item_of(key)
        if item is not None and item.tool is not None and key not in self._reading:
            self._reading.add(key)
            self._read(self._call(item))

    # -- opened ------------------------------------------------------------------------------

    def arrive(self, arrival: ChildArrival) -> None:
        """The parent is read: put the cursor on the call that launched ``arrival``'s child
        (looked for in a worker), and open the child over this view where it is asked."""
        loaded = self.view.loaded
        if loaded is None:
            return
        session_id = str(loaded.session.header.get("id", ""))
        self._arrive(arrival, session_id, loaded.turns, self.view.session_title())

    @work(thread=True, group="child")
    def _arrive(
        self, arrival: ChildArrival, session_id: str, turns: list[Turn], title: str
    ) -> None:
        try:
            call = launching_call(self.view.path, session_id, turns, arrival.path)
        except Exception as error:  # a bug: logged with its traceback; the child still opens
            self.app.call_from_thread(self.notify, unforeseen(error, "finding the task call"))
            call = None
        key = call.key if call is not None else None
        self.app.call_from_thread(self._arrived, arrival, key, title)

    def _arrived(self, arrival: ChildArrival, key: str | None, title: str) -> None:
        from ink_tui.ui.screens.session import SessionScreen

        if key is not None:
            self.view.reveal(key)
        else:
            note = "the task call that launched this subagent is not on the branch shown"
            self.notify(note, severity="warning", timeout=6)
        where = (arrival.entry_id, arrival.search)
        screen = SessionScreen(arrival.path, arrival.leaf_id, parent=title, arrival=where)
        self.app.push_screen(screen)

    def open(self, node: Node) -> bool:
        """Enter on a ``task`` call or on one of its child's rows: open the child over this
        view, on that row. False: ``node`` is neither."""
        key = node.data
        call_node = self.view.session_tree.node_for(key) if key is not None else None
        item = self.task_call(call_node) if call_node is not None else None
        if item is None or call_node is None:
            return False
        shown = self._shown.get(item.key)
        at = shown[1].entries.get(node.id) if shown is not None and node is not call_node else None
        if node is not call_node and at is None and shown is not None:
            at = ""  # a head or "more" row: the child, from its start
        self._open(self._call(item), at, self.view.session_title())
        return True

    @work(thread=True, group="child")
    def _open(self, call: _Call, at: str | None, title: str) -> None:
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
        self.app.call_from_thread(self._push, path, at, title, running)

    def _push(self, path: Path, at: str | None, title: str, running: bool) -> None:
        from ink_tui.ui.screens.session import SessionScreen

        follow = running and not at  # opened on a row of its own: stay there (f follows)
        arrival = (at or None, None)
        self.app.push_screen(SessionScreen(path, parent=title, follow=follow, arrival=arrival))
