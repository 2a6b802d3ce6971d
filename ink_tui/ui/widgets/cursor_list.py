"""A long list with a row cursor, drawn with Textual's Line API (one line per row).

:class:`CursorList` holds what the branches' list and the timeline share: the keys (``j``/``k``
and the arrows, ``g``/``G`` and Home/End, Page Up/Down, Enter: the list's own, so the footer
shows them while it has the focus), the cursor kept in sight, a click that moves the cursor (a
second click selects), and a bounded cache of drawn lines, so a list of a million rows scrolls
like one of ten. A subclass says how many rows there are (:attr:`row_count`), draws one
(:meth:`row_text`) and says what Enter does (:meth:`select`); :meth:`cursor_moved` hears each
move. A subclass that draws more than a line of text under a cursor (the session tree: guides,
the cursor on the label only) draws the whole line (:meth:`draw_row`) and says what a drawn line
depends on (:meth:`line_key`) and what fills the width after it (:meth:`fill_style`). A list
with a header that does not scroll (the picker's column names) says how many lines it takes
(:attr:`HEADER_LINES`) and draws them (:meth:`header_row`); its virtual height counts them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.cache import LRUCache
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ink_tui.ui.keymap import bind

__all__ = ["CursorList"]


class CursorList(ScrollView, can_focus=True):
    """Rows under a cursor; subclasses draw the rows and act on Enter."""

    UNLISTED_KEYS: ClassVar[list[BindingType]] = [
        bind("down", "move(1)", "Down", keys=("down",)),
        bind("up", "move(-1)", "Up", keys=("up",)),
        bind("top", "edge(0)", "Top", keys=("home",)),
        bind("bottom", "edge(1)", "Bottom", keys=("end",)),
        bind("page_down", "page(1)", "Page down"),
        bind("page_up", "page(-1)", "Page up"),
    ]
    """The arrows, Home, End and the pages: every list's, never in the footer (a list whose
    letters are its screen's, the picker's, takes only these)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        bind("open", "select", "Select", show=True),
        # the letters in the footer (the arrows, Home and End do the same, unlisted there)
        bind("down", "move(1)", "Down", keys=("j",), show=True, group="Move"),
        bind("up", "move(-1)", "Up", keys=("k",), show=True, group="Move"),
        bind("top", "edge(0)", "Top", keys=("g",), show=True, group="Top / bottom"),
        bind("bottom", "edge(1)", "Bottom", keys=("G",), show=True, group="Top / bottom"),
        *UNLISTED_KEYS,
    ]
    CURSOR_CLASS: ClassVar[str] = ""  # the component class styling the cursor's line
    HEADER_LINES: ClassVar[int] = 0  # lines above the rows that stay while the rows scroll

    cursor_row: reactive[int] = reactive(0, always_update=True, repaint=False, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: LRUCache[Hashable, Strip] = LRUCache(1024)

    # -- what a subclass says ------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        raise NotImplementedError

    def row_text(self, index: int, width: int) -> Text:
        """Row ``index``'s line (``width``: the cells it is shown in)."""
        raise NotImplementedError

    def select(self, index: int) -> None:
        """Enter (or a second click) on row ``index``."""
        raise NotImplementedError

    def cursor_moved(self) -> None:
        """The cursor moved (or the rows changed under it)."""

    def header_row(self, y: int, width: int) -> Strip:
        """Header line ``y`` (below :attr:`HEADER_LINES`), drawn on every frame."""
        raise NotImplementedError

    # -- drawing -------------------------------------------------------------------------------

    def refresh_styles(self) -> None:
        """Draw every line again (after a theme change, or new rows)."""
        self._lines.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        """The styles changed (the focus came or went, a theme): the drawn lines are stale."""
        super().notify_style_update()
        self._lines.clear()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if y < self.HEADER_LINES:
            return self.header_row(y, width).crop_extend(
                scroll_x, scroll_x + width, self.rich_style
            )
        index = scroll_y + y - self.HEADER_LINES
        if not 0 <= index < self.row_count:
            return Strip.blank(width, self.rich_style)
        cursor = index == self.cursor_row
        key = self.line_key(index, width, cursor)
        strip = self._lines.get(key)
        if strip is None:
            strip = self._lines[key] = self.draw_row(index, width, cursor)
        return strip.crop_extend(scroll_x, scroll_x + width, self.fill_style(cursor))

    def line_key(self, index: int, width: int, cursor: bool) -> Hashable:
        """What row ``index``'s drawn line depends on (the key it is kept under)."""
        return (index, cursor, width)

    def draw_row(self, index: int, width: int, cursor: bool) -> Strip:
        """Row ``index``'s line: :meth:`row_text`, the cursor's style over all of it."""
        text = self.row_text(index, width)
        text.stylize_before(self.fill_style(cursor))
        return Strip(text.render(self.app.console), text.cell_len)

    def fill_style(self, cursor: bool) -> Style:
        """The style of the width after a line's text (the cursor's, on its line)."""
        return self.rich_style + (self._cursor_style() if cursor else Style())

    def _cursor_style(self) -> Style:
        return self.get_component_rich_style(self.CURSOR_CLASS, partial=True)

    # -- the cursor ----------------------------------------------------------------------------

    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, self.row_count - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self.scroll_to_cursor()
        self.refresh()
        self.cursor_moved()

    @property
    def rows_height(self) -> int:
        """How many rows the list shows at once (its height less the header)."""
        return max(1, self.scrollable_content_region.height - self.HEADER_LINES)

    def scroll_to_cursor(self) -> None:
        """Scroll as little as keeps the cursor's row in sight."""
        row, height = self.cursor_row, self.rows_height
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    def action_move(self, delta: int) -> None:
        self.cursor_row += delta

    def action_edge(self, bottom: int) -> None:
        self.cursor_row = self.row_count - 1 if bottom else 0

    def action_page(self, direction: int) -> None:
        self.cursor_row += direction * max(1, self.rows_height - 1)

    def action_select(self) -> None:
        if 0 <= self.cursor_row < self.row_count:
            self.select(self.cursor_row)

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y - self.HEADER_LINES
        if event.y < self.HEADER_LINES or not 0 <= index < self.row_count:
            return
        if index == self.cursor_row:
            self.action_select()
        else:
            self.cursor_row = index
