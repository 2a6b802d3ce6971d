"""Ink's ``/tree`` rows as one list (a Line-API view): each row drawn as ``/tree`` draws it.

A row is :func:`ink_tui.session.conversation.navtree.row_line`'s text in parts: the connector
columns (dim), ``• `` on the current branch, ``[label] ``, the entry's one-line text, and ``
◂`` after the current leaf. Rows are not widgets: only the lines on screen are drawn
(``render_line``), each built on first use and kept in the list base's LRU cache, so 20,000 rows
cost what the visible ones cost. A row is cut to the width with ``…``; the current leaf's ``◂``
always shows.

A branchy session indents deeply (three columns per fork): as Ink's ``/tree`` does, the view
pans to the right when the cursor's row starts too far right to be read (its text keeps at
least a third of the width, at most 20 columns, in sight; 12 columns of its connectors stay to
its left), and pans back when it does not. Every part is session text, shown on one line with
its controls made visible.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message

from ink_tui.safetext import one_line
from ink_tui.session.conversation.navtree import TreeRow
from ink_tui.ui.keymap import bind
from ink_tui.ui.render.cut import cut_label
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.cursor_list import CursorList

__all__ = ["InkTreeList", "anchor_column", "pan_for"]

ACTIVE_MARK = "• "
LEAF_MARK = "  ◂"


def anchor_column(row: TreeRow) -> int:
    """Where the row's own text starts (after its connectors and the ``• `` mark)."""
    return len(row.prefix) + (len(ACTIVE_MARK) if row.on_active_path else 0)


def pan_for(row: TreeRow | None, width: int) -> int:
    """Ink's horizontal viewport: how far right the view pans for the cursor on ``row``."""
    if row is None or width <= 0:
        return 0
    anchor = anchor_column(row)
    keep_visible = min(20, max(4, width // 3))
    if anchor <= width - keep_visible:
        return 0
    return max(0, anchor - min(12, max(2, width // 4)))


class InkTreeList(CursorList):
    """The rows of Ink's ``/tree``; the cursor starts on the current leaf."""

    BINDINGS: ClassVar[list[BindingType]] = [bind("open", "select", "Show its branch", show=True)]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "ink-tree--cursor",
        "ink-tree--connector",
        "ink-tree--active",
        "ink-tree--label",
        "ink-tree--leaf",
    }
    CURSOR_CLASS = "ink-tree--cursor"
    DEFAULT_CSS = """
    InkTreeList { background: $surface; overflow-x: hidden; }
    InkTreeList > .ink-tree--cursor { background: $primary 35%; }
    InkTreeList:focus > .ink-tree--cursor { background: $primary 55%; }
    InkTreeList > .ink-tree--connector { color: $text-muted; }
    InkTreeList > .ink-tree--active { color: $accent; }
    InkTreeList > .ink-tree--label { color: $secondary; }
    InkTreeList > .ink-tree--leaf { color: $accent; text-style: bold; }
    """

    class Highlighted(Message):
        """The cursor moved to ``row`` (``None``: no rows)."""

        def __init__(self, row: TreeRow | None) -> None:
            super().__init__()
            self.row = row

    class Selected(Message):
        """Enter (or a second click) on ``row``."""

        def __init__(self, row: TreeRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[TreeRow] = []
        self.pan = 0

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def highlighted(self) -> TreeRow | None:
        rows = self.rows
        return rows[self.cursor_row] if 0 <= self.cursor_row < len(rows) else None

    def show(self, rows: list[TreeRow], cursor: int) -> None:
        """Show ``rows``, the cursor on row ``cursor``."""
        self.rows = rows
        self.virtual_size = Size(self.size.width, len(rows))
        self.pan = pan_for(rows[cursor] if 0 <= cursor < len(rows) else None, self._width())
        self._lines.clear()
        self.cursor_row = cursor  # always_update: moves, scrolls and says so even if unchanged
        self.call_after_refresh(self.center_cursor)  # once the new size is laid out

    def center_cursor(self) -> None:
        """The cursor's row in the middle of the view (as Ink's ``/tree`` opens)."""
        height = max(1, self.scrollable_content_region.height)
        self.scroll_to(y=max(0, self.cursor_row - height // 2), animate=False, immediate=True)

    def select(self, index: int) -> None:
        self.post_message(self.Selected(self.rows[index]))

    def cursor_moved(self) -> None:
        pan = pan_for(self.highlighted, self._width())
        if pan != self.pan:
            self.pan = pan
            self._lines.clear()  # every line is drawn again from its new left edge
        self.post_message(self.Highlighted(self.highlighted))

    def _width(self) -> int:
        return self.scrollable_content_region.width or self.app.size.width

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"ink-tree--{name}", partial=True)

    def row_text(self, index: int, width: int) -> Text:
        row = self.rows[index]
        text = Text(no_wrap=True)
        text.append_text(plain(row.prefix, self._style("connector")))
        if row.on_active_path:
            text.append_text(plain(ACTIVE_MARK, self._style("active")))
        if row.label is not None:
            text.append_text(plain(f"[{one_line(row.label)}] ", self._style("label")))
        text.append_text(
            plain(one_line(row.text), self._style("leaf") if row.is_current_leaf else "")
        )
        if self.pan:
            text = text.divide([self.pan])[-1] if self.pan < len(text) else Text()
        if not row.is_current_leaf:
            return cut_label(text, width)
        text = cut_label(text, max(1, width - len(LEAF_MARK)))  # the leaf's mark always shows
        text.append_text(plain(LEAF_MARK, self._style("leaf")))
        return text

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(event.size.width, len(self.rows))
        self.pan = pan_for(self.highlighted, self._width())
        self._lines.clear()
        self.call_after_refresh(self.scroll_to_cursor)
