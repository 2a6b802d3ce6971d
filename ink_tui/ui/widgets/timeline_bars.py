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
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message

from ink_tui.humanize import compact_count
from ink_tui.session.analysis.turntime import TurnTime, short_duration
from ink_tui.ui.keymap import bind
from ink_tui.ui.render.cut import cut_label, first_line
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.cursor_list import CursorList

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


class TimelineBars(CursorList):
    """Every turn as a bar; Enter posts :class:`TimelineBars.Selected` with the turn."""

    BINDINGS: ClassVar[list[BindingType]] = [bind("open", "select", "Show the turn", show=True)]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "timeline--cursor",
        "timeline--tool",
        "timeline--model",
        "timeline--muted",
    }
    CURSOR_CLASS = "timeline--cursor"
    DEFAULT_CSS = """
    TimelineBars { background: $surface; }
    TimelineBars > .timeline--cursor { background: $primary 45%; }
    TimelineBars > .timeline--tool { color: $warning; }
    TimelineBars > .timeline--model { color: $accent; }
    TimelineBars > .timeline--muted { color: $text-muted; }
    """

    class Selected(Message):
        def __init__(self, row: TimelineRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[TimelineRow] = []
        self._slowest = 0.0

    def show(self, rows: list[TimelineRow], cursor: int = 0) -> None:
        self.rows = rows
        self._slowest = max((row.time.seconds or 0.0 for row in rows), default=0.0)
        self.virtual_size = Size(self.size.width, len(rows))
        self.cursor_row = cursor
        self.refresh_styles()

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def highlighted(self) -> TimelineRow | None:
        return self.rows[self.cursor_row] if 0 <= self.cursor_row < len(self.rows) else None

    def select(self, index: int) -> None:
        self.post_message(self.Selected(self.rows[index]))

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

    def row_text(self, index: int, width: int) -> Text:
        row = self.rows[index]
        muted = self._style("muted")
        tokens = f"{compact_count(row.time.tokens)} tok" if row.time.tokens else ""
        text = Text(no_wrap=True)
        text.append(f"{row.number:>6} " if row.number > 0 else "     · ", muted)
        text.append(f"{short_duration(row.time.seconds):>7} ")
        text.append_text(self._bar(row.time))
        text.append(f" {tokens:>10}  ", muted)
        text.append_text(plain(first_line(row.prompt, 200)))
        text = cut_label(text, width)
        text.pad_right(width - text.cell_len)
        return text
