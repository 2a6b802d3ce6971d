"""The tree and the replay side by side, kept in step, over the window of turns they hold.

:class:`SessionPanes` holds the tree, the :class:`~.pane_split.PaneSplit` and the replay, the
:class:`~.window.TurnWindow` model choosing which turns both show, and the part reading the
subagents of ``task`` calls (:class:`~.children.SessionChildren`). The cursor moving in the tree
scrolls the replay to its row; the replay scrolled (or clicked) moves the tree's cursor to the
row at its top, without scrolling the replay back. A row outside the window (a search match, a
jump) moves the window to it; the cursor on an edge row moves the window over the turns beyond.
A ``task`` call opened shows its subagent's turns under it (read, and while it runs read again
every :data:`~.children.POLL_SECONDS`); Enter on it, or on one of those rows, asks for the
subagent's own view (:class:`~.children.SessionChildren.OpenChild`, which the screen opens).
"""

from __future__ import annotations

from pathlib import Path

from textual import getters, on
from textual.app import ComposeResult
from textual.containers import Horizontal

from ink_tui.session.conversation.branchview import LoadedBranch
from ink_tui.session.conversation.view import TurnChanges
from ink_tui.ui.session_view.children import POLL_SECONDS, SessionChildren, TaskCall
from ink_tui.ui.session_view.edges import is_edge
from ink_tui.ui.session_view.pane_split import PaneSplit
from ink_tui.ui.session_view.replay import SessionReplay
from ink_tui.ui.session_view.tree import SessionTree
from ink_tui.ui.session_view.tree_rows import TreeRow
from ink_tui.ui.session_view.window import TurnWindow
from ink_tui.ui.widgets.transcript import Transcript

__all__ = ["SessionPanes"]


class SessionPanes(Horizontal):
    """The tree and the replay of the turns the window holds."""

    session_tree = getters.query_one(SessionTree)
    replay = getters.query_one(SessionReplay)
    split = getters.query_one(PaneSplit)
    subagents = getters.query_one(SessionChildren)

    def __init__(self, path: Path, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.path = path
        self.window = TurnWindow()
        self._loaded: LoadedBranch | None = None
        self._row_labels: dict[str, str] = {}
        self._from_transcript: set[str] = set()  # rows the replay moved the cursor to

    def compose(self) -> ComposeResult:
        yield SessionTree(id="session-tree")
        yield PaneSplit(("branch", "replay"), id="session-split")  # drag it, or ctrl+← →
        yield SessionReplay(id="transcript")
        yield SessionChildren()

    def on_mount(self) -> None:
        self.set_interval(POLL_SECONDS, self.poll_subagents)

    # -- what is shown ---------------------------------------------------------------------------

    def show(
        self, loaded: LoadedBranch, row_labels: dict[str, str], placeholder: str | None
    ) -> None:
        """A branch's last turns (``placeholder``: a row for the turns not read yet)."""
        self._loaded, self._row_labels = loaded, row_labels
        self.window.show(loaded.turns, placeholder)
        self._paint()

    def _paint(self) -> None:
        """Show what the window holds in the tree and the replay."""
        shown, tree = self.window.shown(), self.session_tree
        tree.show_turns(
            shown.turns,
            self._row_labels,
            first_number=shown.first_number,
            placeholder=shown.placeholder,
            edges=shown.edges,
        )
        self.replay.show(shown.turns, self._row_labels, tree.turn_number, edges=shown.edges)

    def grow(self, changes: list[TurnChanges]) -> None:
        """Turns and rows arrived while following: shown if the window reaches the end."""
        shown = self.window.grow(changes)
        span = self.window.span
        if not span.at_end:
            self.session_tree.set_edges(span.earlier, span.later)
            self.replay.set_edges(span.earlier, span.later)
        self.session_tree.grow(shown)
        self.replay.grow(shown)
        self.subagents.answered(changes)  # task calls answered: their subagent read again

    def set_row_labels(self, row_labels: dict[str, str], changed: set[str]) -> None:
        self._row_labels = row_labels
        self.session_tree.set_row_labels(row_labels, changed)
        self.replay.set_row_labels(row_labels, changed)

    # -- moving ----------------------------------------------------------------------------------

    def reveal(self, key: str, *, from_transcript: bool = False) -> None:
        """Put the tree's cursor on row ``key`` (and the replay on it, unless it moved first)."""
        tree = self.session_tree
        if self.window.bring(key):  # a row far away: the window moves to it
            self._paint()
        row = tree.row_for(key)
        if row is None:
            return
        if from_transcript:
            if tree.cursor is row:
                return
            self._from_transcript.add(key)
        tree.reveal_row(row)
        if not from_transcript:
            self.replay.scroll_to_key(key)

    def to_edge(self, *, bottom: bool) -> None:
        """``g``/``G``: the window at the branch's start or end, the cursor on its first or last
        row."""
        if self.window.to_end() if bottom else self.window.to_start():
            self._paint()
        self.session_tree.to_edge(bottom=bottom)

    def jump_to_end(self) -> None:
        """The branch's last row, in the tree and the replay (following)."""
        if self.window.to_end():
            self._paint()
        self.replay.scroll_to_end_of_transcript()
        self.session_tree.reveal_last()

    @on(SessionTree.Highlighted)
    def _row_highlighted(self, message: SessionTree.Highlighted) -> None:
        key = message.row.key
        if key is None or message.row is not self.session_tree.cursor:
            return  # stale: the cursor moved on
        if is_edge(key):  # the turns beyond the window: show them
            self._from_transcript.discard(key)
            beyond, moved = self.window.through_edge(key)
            if moved:
                self._paint()
            if beyond is not None:
                self.reveal(beyond)
            return
        if key in self._from_transcript:  # the replay moved the cursor: do not scroll it back
            self._from_transcript.discard(key)
            return
        self.replay.scroll_to_key(key)

    @on(Transcript.TopChanged)
    @on(Transcript.BlockClicked)
    def _replay_moved(self, message: Transcript.TopChanged | Transcript.BlockClicked) -> None:
        self.reveal(message.key, from_transcript=True)

    # -- subagents in place ----------------------------------------------------------------------

    def _task_call_row(self, row: TreeRow) -> TreeRow | None:
        """The ``task`` call's own row, for its row or one standing for it (None: no task)."""
        call = self.session_tree.row_for(row.key) if row.key is not None else None
        tool = call.item.tool if call is not None and call.item is not None else None
        task = call is not None and call.kind == "item" and tool is not None and tool.name == "task"
        return call if task else None

    def _task_call(self, call: TreeRow) -> TaskCall | None:
        loaded, item = self._loaded, call.item
        if loaded is None or item is None or item.tool is None:
            return None
        session_id = str(loaded.session.header.get("id", ""))
        return TaskCall(item, item.tool.result, self.path, session_id, loaded.turns)

    @on(SessionTree.Selected)
    def _row_selected(self, message: SessionTree.Selected) -> None:
        """Enter: open or close a row; on a tool call, also show its whole output or cut it;
        on a ``task`` call (or its subagent's rows), open the subagent session."""
        row, tree = message.row, self.session_tree
        call_row = self._task_call_row(row)
        call = self._task_call(call_row) if call_row is not None else None
        if call_row is not None and call is not None:
            at = row.entry_id if row is not call_row else None
            if row is not call_row and at is None and tree.child_rows_shown(call.key):
                at = ""  # a head or "more" row: the child, from its start
            self.subagents.open(call, at)
            return
        if row.expandable:
            tree.toggle(row)
        if row.kind in ("item", "result") and row.item is not None:
            self.replay.toggle_full_output(row.item)

    @on(SessionTree.Expanded)
    def _row_expanded(self, message: SessionTree.Expanded) -> None:
        """A ``task`` call opened: its subagent's turns, in place."""
        call_row = self._task_call_row(message.row)
        call = self._task_call(call_row) if call_row is message.row else None
        if call is not None:
            shown = self.session_tree.child_rows_shown(call.key)
            if self.subagents.expanded(call, rows_shown=shown):
                self.session_tree.show_child_reading(call.key)

    @on(SessionChildren.Read)
    def _child_read(self, message: SessionChildren.Read) -> None:
        message.stop()
        if not self.session_tree.show_child_rows(message.key, message.state):
            self.subagents.forget(message.key)  # the window moved on: the call is not shown now

    def poll_subagents(self) -> None:
        """Every :data:`~.children.POLL_SECONDS`: the running subagents shown, read again if
        their file changed."""
        self.subagents.poll(self.session_tree.open_child_calls())

    @on(SessionChildren.Launched)
    def _launched(self, message: SessionChildren.Launched) -> None:
        message.stop()
        if message.key is not None:
            self.reveal(message.key)
        else:
            note = "the task call that launched this subagent is not on the branch shown"
            self.notify(note, severity="warning", timeout=6)
