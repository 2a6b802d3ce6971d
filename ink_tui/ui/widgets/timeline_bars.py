"""The timeline's list: every turn as one line, a bar as long as the turn took.

The bar is cut in two: the part spent in tools, then the model's (its own colours), scaled to the
slowest turn, so the slow turns stand out. Each line: the turn's number, its duration, the bar,
its tokens and the prompt's first line. A Line-API view (one line per turn, drawn when seen and
kept in a bounded cache), so a branch of a million turns scrolls like ten.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ink_tui.humanize import compact_count
from ink_tui.session.turntime import TurnTime, short_duration
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.tree_labels import first_line

__all__ = ["MODEL_BLOCK", "TOOL_BLOCK", "TimelineBars", "TimelineRow"]

BAR_WIDTH = 30  # cells of the slowest turn's bar
TOOL_BLOCK, MODEL_BLOCK = "▓", "█"


@dataclass(frozen=True, slots=True)
class TimelineRow:
    """One turn of the timeline."""

    key: str  # the turn's row key (the session view reveals it)
    number: int
    prompt: str
    time: TurnTime


class TimelineBars(ScrollView, can_focus=True):
    """Every turn as a bar; Enter posts :class:`TimelineBars.Selected` with the turn."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Show the turn"),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("home,g", "edge(0)", "Top", show=False),
        Binding("end,G", "edge(1)", "Bottom", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "timeline--cursor",
        "timeline--tool",
        "timeline--model",
        "timeline--muted",
    }
    DEFAULT_CSS = """
    TimelineBars { background: $surface; }
    TimelineBars > .timeline--cursor { background: $primary 45%; }
    TimelineBars > .timeline--tool { color: $warning; }
    TimelineBars > .timeline--model { color: $accent; }
    TimelineBars > .timeline--muted { color: $text-muted; }
    """

    cursor_row: reactive[int] = reactive(0, always_update=True, repaint=False, init=False)

    class Selected(Message):
        def __init__(self, row: TimelineRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[TimelineRow] = []
        self._slowest = 0.0
        self._lines: LRUCache[tuple[int, bool, int], Strip] = LRUCache(1024)

    def show(self, rows: list[TimelineRow], cursor: int = 0) -> None:
        self.rows = rows
        self._slowest = max((row.time.seconds or 0.0 for row in rows), default=0.0)
        self._lines.clear()
        self.virtual_size = Size(self.size.width, len(rows))
        self.cursor_row = cursor
        self.refresh()

    @property
    def highlighted(self) -> TimelineRow | None:
        return self.rows[self.cursor_row] if 0 <= self.cursor_row < len(self.rows) else None

    def refresh_styles(self) -> None:
        self._lines.clear()
        self.refresh()

    def part_style(self, name: str) -> Style:
        """The style of ``tool`` or ``model`` bars (for a legend)."""
        return self._style(name)

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"timeline--{name}", partial=True)

    def _bar(self, time: TurnTime) -> Text:
        if time.seconds is None or self._slowest <= 0:
            return Text(" " * BAR_WIDTH)
        cells = max(1, round(BAR_WIDTH * time.seconds / self._slowest)) if time.seconds else 0
        tools = round(cells * time.tool_seconds / time.seconds) if time.seconds else 0
        text = Text()
        text.append(TOOL_BLOCK * tools, self._style("tool"))
        text.append(MODEL_BLOCK * (cells - tools), self._style("model"))
        text.append(" " * (BAR_WIDTH - cells))
        return text

    def _row_text(self, row: TimelineRow) -> Text:
        muted = self._style("muted")
        tokens = f"{compact_count(row.time.tokens)} tok" if row.time.tokens else ""
        text = Text(no_wrap=True)
        text.append(f"{row.number:>6} " if row.number > 0 else "     · ", muted)
        text.append(f"{short_duration(row.time.seconds):>7} ")
        text.append_text(self._bar(row.time))
        text.append(f" {tokens:>10}  ", muted)
        text.append_text(plain(first_line(row.prompt, 200)))
        return text

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, base)
        key = (index, index == self.cursor_row, width)
        strip = self._lines.get(key)
        if strip is None:
            text = self._row_text(self.rows[index])
            text.truncate(width, overflow="ellipsis", pad=True)
            text.stylize_before(base + (self._style("cursor") if key[1] else Style()))
            strip = Strip(text.render(self.app.console), text.cell_len)
            self._lines[key] = strip
        return strip.crop_extend(0, width, base)

    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, len(self.rows) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        row, height = new, max(1, self.scrollable_content_region.height)
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)
        self.refresh()

    def action_move(self, delta: int) -> None:
        self.cursor_row += delta

    def action_edge(self, bottom: int) -> None:
        self.cursor_row = len(self.rows) - 1 if bottom else 0

    def action_page(self, direction: int) -> None:
        self.cursor_row += direction * max(1, self.scrollable_content_region.height - 1)

    def action_select(self) -> None:
        row = self.highlighted
        if row is not None:
            self.post_message(self.Selected(row))

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if index == self.cursor_row:
            self.action_select()
        elif 0 <= index < len(self.rows):
            self.cursor_row = index
