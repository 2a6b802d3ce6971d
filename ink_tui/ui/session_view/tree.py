"""The tree of the shown branch: one row per turn, its rows underneath (a Line-API list).

A :class:`~ink_tui.ui.widgets.cursor_list.CursorList` over the rows of
:class:`~ink_tui.ui.session_view.tree_rows.BranchRows`: only the lines on screen are drawn
(:mod:`.tree_draw`), each kept until its row, its place or the cursor changes, so a window of
1,000 turns moves as fast as ten. Every row fits the width: a long title or argument is cut with
``…`` (a tool row keeps its status mark, a turn its time), and a row's label (``# label``) comes
before its title so it is never the part cut away. Rows matching the search are marked.

The tree's keys are its own (:data:`~.keys.TREE_KEYS`, typed methods below). What the rest of
the view does about a move goes by message: the cursor is on another row, Enter (or a click) on
a row, a row opened (a ``task`` call reads its subagent), the user moved up (following pauses).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from textual import events
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from ink_tui.session.conversation.view import Turn, TurnChanges
from ink_tui.ui.session_view.child_rows import ChildState, reading_row, replace_child_rows
from ink_tui.ui.session_view.keys import TREE_KEYS
from ink_tui.ui.session_view.tree_draw import (
    COMPONENT_CLASSES,
    TREE_CSS,
    draw_line,
    line_styles,
    path_of,
)
from ink_tui.ui.session_view.tree_rows import BranchRows, TreeRow
from ink_tui.ui.widgets.cursor_list import CursorList

__all__ = ["RowMessage", "SessionTree"]


@dataclass
class RowMessage(Message):
    """What the tree says about one of its rows."""

    tree: SessionTree
    row: TreeRow


class SessionTree(CursorList):
    """The rows of the branch shown; each stands for a transcript key (the replay's block)."""

    BINDINGS: ClassVar[list[BindingType]] = TREE_KEYS
    COMPONENT_CLASSES: ClassVar[set[str]] = set(COMPONENT_CLASSES)
    DEFAULT_CSS = TREE_CSS  # Textual's Tree's look

    class Highlighted(RowMessage):
        """The cursor is on another row."""

    class Selected(RowMessage):
        """Enter (or a click) on ``row``."""

    class Expanded(RowMessage):
        """``row`` opened."""

    @dataclass
    class WentBack(Message):
        """The user moved up, away from the branch's end."""

        tree: SessionTree

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = BranchRows()
        self._cursor: TreeRow | None = None  # the row under the cursor (None: none yet)
        self._hover: TreeRow | None = None  # the row under the mouse
        self._child_calls: dict[str, TreeRow] = {}  # call key -> its row, a subagent under it

    # -- what tests and the screen read ------------------------------------------------------------

    @property
    def rows(self) -> Sequence[TreeRow]:
        """The rows shown, top to bottom."""
        return self.model.visible

    @property
    def top_rows(self) -> Sequence[TreeRow]:
        """The top rows: the placeholder, the edges and the turns."""
        return self.model.top

    def row_texts(self) -> list[str]:
        """The labels of the rows shown, top to bottom, as plain text (not cut)."""
        return [row.text for row in self.model.visible]

    @property
    def cursor(self) -> TreeRow | None:
        return self._cursor

    @property
    def cursor_key(self) -> str | None:
        """The transcript key of the row under the cursor (None: no row, or the placeholder)."""
        return self._cursor.key if self._cursor is not None else None

    @property
    def at_last_row(self) -> bool:
        """Whether the cursor is on the last row shown."""
        rows = self.model.visible
        return bool(rows) and self._cursor is rows[-1]

    def row_for(self, key: str) -> TreeRow | None:
        """The row standing for transcript key ``key`` (a call's own row), if held."""
        return self.model.row_for(key)

    def turn_number(self, turn: Turn) -> int:
        return self.model.turn_number(turn)

    # -- content -------------------------------------------------------------------------------

    def show_turns(
        self,
        turns: list[Turn],
        row_labels: dict[str, str],
        *,
        first_number: int = 1,
        placeholder: str | None = None,
        edges: tuple[int, int] = (0, 0),
    ) -> None:
        """Rows for these turns, the last one open, no cursor yet (see :meth:`BranchRows.show`)."""
        self.model.show(
            turns, row_labels, first_number=first_number, placeholder=placeholder, edges=edges
        )
        self._cursor = self._hover = None
        self._child_calls = {}
        self.set_reactive(SessionTree.cursor_row, 0)
        self._rows_changed()

    def set_edges(self, earlier: int, later: int) -> None:
        self.model.set_edges(earlier, later)
        self.refresh()

    def grow(self, changes: list[TurnChanges]) -> None:
        """Turns and rows that arrived while following, and calls that got their result."""
        self.model.grow(changes)
        self._rows_changed()

    def relabel(self) -> None:
        """Labels made again (the theme changed)."""
        self.model.relabel()
        self.refresh_styles()

    def set_row_labels(self, row_labels: dict[str, str], changed: set[str]) -> None:
        self.model.set_row_labels(row_labels, changed)
        self.refresh()

    def set_running(self, running: dict[str, float], now: float, keys: set[str]) -> None:
        self.model.set_running(running, now, keys)
        self.refresh()

    def mark_matches(self, keys: frozenset[str]) -> None:
        self.model.mark_matches(keys)
        self.refresh()

    def _rows_changed(self) -> None:
        """The rows shown changed: the cursor stays on its row (or goes to the nearest one)."""
        rows = self.model.visible
        self.virtual_size = Size(self.size.width, len(rows))
        if self._cursor is not None:  # its row, else the row it is under, else its place
            places = (self.model.index_of(row) for row in reversed(path_of(self._cursor)))
            index = next((at for at in places if at is not None), None)
            index = min(self.cursor_row, len(rows) - 1) if index is None else index
            if index >= 0:
                self.cursor_row = index
        self.refresh()

    # -- the cursor ------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.model.visible)

    def cursor_moved(self) -> None:
        rows = self.model.visible
        row = rows[self.cursor_row] if 0 <= self.cursor_row < len(rows) else None
        if row is not None and row is not self._cursor:
            self._cursor = row
            self.post_message(self.Highlighted(self, row))

    def move_to(self, row: TreeRow) -> None:
        """The cursor on ``row`` (a row shown)."""
        index = self.model.index_of(row)
        if index is not None:
            self.cursor_row = index

    def reveal_row(self, row: TreeRow) -> None:
        """Open the rows above ``row`` and put the cursor on it."""
        for above in path_of(row)[:-1]:
            self.expand_row(above)
        self.move_to(row)

    def reveal(self, key: str) -> bool:
        """Put the cursor on the row of transcript key ``key`` (False: none here)."""
        row = self.model.row_for(key)
        if row is None:
            return False
        self.reveal_row(row)
        return True

    def to_edge(self, bottom: bool) -> None:
        """The first or the last row shown."""
        if self.model.visible:
            self.cursor_row = len(self.model.visible) - 1 if bottom else 0

    def reveal_last(self) -> None:
        """Open the last top row and put the cursor on its last row."""
        if not self.model.top:
            return
        last = self.model.top[-1]
        self.expand_row(last)
        self.reveal_row(last.children[-1] if last.children else last)

    def move(self, delta: int) -> None:
        """One row down (``delta`` > 0) or up; with no cursor yet: the first or the last row."""
        if self._cursor is None and self.model.visible:
            self.to_edge(bottom=delta < 0)
        else:
            self.cursor_row += delta

    def jump_turn(self, delta: int) -> None:
        """``[`` (``delta`` -1) and ``]`` (+1): see :meth:`BranchRows.turn_target`."""
        if self.model.top:
            target = self.model.turn_target(self._cursor, delta)
            self.move_to(target) if target is not None else self.reveal_last()

    def land_at_end(self) -> Callable[[], None]:
        """A callback putting the cursor on the last row, unless it moved before it runs (a ``g``
        pressed as a first look appears is never undone by the look's own landing)."""
        before = self._cursor

        def land() -> None:
            if self._cursor is before:
                self.to_edge(bottom=True)

        return land

    # -- opening and closing ---------------------------------------------------------------------

    def expand_row(self, row: TreeRow) -> None:
        """Open ``row`` (a turn's rows are made first)."""
        if self.model.expand(row):
            self._rows_changed()
            self.post_message(self.Expanded(self, row))

    def collapse_row(self, row: TreeRow) -> None:
        if self.model.collapse(row):
            self._rows_changed()

    def toggle(self, row: TreeRow) -> None:
        """Open ``row``, or close it when open."""
        self.collapse_row(row) if row.expanded else self.expand_row(row)

    # -- the keys --------------------------------------------------------------------------------

    def action_down(self) -> None:
        self.move(1)

    def action_up(self) -> None:
        self.post_message(self.WentBack(self))
        self.move(-1)

    def action_page_up(self) -> None:
        self.post_message(self.WentBack(self))
        self.action_page(-1)

    def action_previous_turn(self) -> None:
        self.post_message(self.WentBack(self))
        self.jump_turn(-1)

    def action_next_turn(self) -> None:
        self.jump_turn(1)

    def action_expand(self) -> None:
        """``l``: open the row."""
        if self._cursor is not None:
            self.expand_row(self._cursor)

    def action_collapse(self) -> None:
        """``h``: close the row, or (closed) go to the row it is under."""
        row = self._cursor
        if row is None:
            return
        if row.expanded and row.children:
            self.collapse_row(row)
        elif row.parent is not None:
            self.move_to(row.parent)

    def action_toggle_row(self) -> None:
        """Space: open or close the row."""
        if self._cursor is not None and self._cursor.expandable:
            self.toggle(self._cursor)

    def select(self, index: int) -> None:
        self.post_message(self.Selected(self, self.model.visible[index]))

    # -- a subagent's rows under its call --------------------------------------------------------

    def _call_row(self, key: str) -> TreeRow | None:
        row = self.model.row_for(key)
        return row if row is not None and row.kind == "item" else None

    def show_child_reading(self, call_key: str) -> None:
        """The "reading…" row under call ``call_key`` while its subagent is read."""
        call = self._call_row(call_key)
        if call is not None:
            self.model.set_children(call, [reading_row(call_key)], keep="result")
            self._rows_changed()

    def child_rows_shown(self, call_key: str) -> bool:
        """Whether a subagent read is shown under call ``call_key`` (not the reading row)."""
        call = self._child_calls.get(call_key)
        return call is not None and call is self._call_row(call_key)

    def open_child_calls(self) -> set[str]:
        """The calls showing their subagent's rows, open."""
        return {key for key, call in self._child_calls.items() if call.expanded}

    def show_child_rows(self, call_key: str, state: ChildState) -> bool:
        """The subagent's rows under call ``call_key`` (those of a read before replaced, the
        child's turns open before open again, the cursor kept on the child entry it was on).
        False: the call is not held now (the window moved on)."""
        call = self._call_row(call_key)
        if call is None:
            return False
        target = replace_child_rows(self.model, call, state, self._cursor)
        self._child_calls[call_key] = call
        self._rows_changed()
        if target is not None:
            self.reveal_row(target)
        return True

    # -- drawing ---------------------------------------------------------------------------------

    def line_key(self, index: int, width: int, cursor: bool) -> Hashable:
        row = self.model.visible[index]
        path = path_of(row)
        marks = tuple(
            (node.is_last, node is self._cursor, node is self._hover, node.version) for node in path
        )
        return (row, index, width, marks, row.expanded, row.expandable, self.has_focus)

    def draw_row(self, index: int, width: int, cursor: bool) -> Strip:
        return draw_line(
            self.model.visible[index],
            index,
            width=width,
            styles=line_styles(self),
            cursor=self._cursor,
            hover=self._hover,
            focused=self.has_focus,
            console=self.app.console,
        )

    def fill_style(self, cursor: bool) -> Style:
        return self.rich_style

    # -- the mouse -------------------------------------------------------------------------------

    def _row_at(self, y: int) -> TreeRow | None:
        index = self.scroll_offset.y + y
        rows = self.model.visible
        return rows[index] if 0 <= index < len(rows) else None

    def on_click(self, event: events.Click) -> None:
        """A click on ``▶``/``▼`` opens or closes the row; elsewhere it selects the row."""
        event.prevent_default()  # the list's own click (move, then select) is not the tree's
        row = self._row_at(event.y)
        if row is None:
            return
        if event.style.meta.get("toggle"):
            self.toggle(row)
            return
        self.move_to(row)
        self.post_message(self.Selected(self, row))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = self._row_at(event.y)
        if row is not self._hover:
            self._hover = row
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()
