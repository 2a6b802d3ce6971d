"""A bar chart of one figure per day: a line per day, its date, a bar, its value.

Bars are drawn with block characters in eighths of a cell (``█▉▊▋▌▍▎▏``), scaled to the
largest value shown; a day with nothing is an empty line (its date only), so quiet days are
seen as such. Everything drawn is dates and numbers computed here: no session text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, Literal

from rich.text import Text
from textual.widget import Widget

from ink_tui.catalog.stats import DayPoint
from ink_tui.humanize import compact_count

__all__ = ["DayBars", "Metric", "bar", "value_text"]

Metric = Literal["tokens", "cost"]
_EIGHTHS: Final = " ▏▎▍▌▋▊▉"
_DATE_WIDTH: Final = 10  # 2026-10-05


def bar(value: float, largest: float, width: int) -> str:
    """``value`` as a bar of up to ``width`` cells, ``largest`` filling them all."""
    if largest <= 0 or value <= 0 or width <= 0:
        return ""
    eighths = max(1, round(8 * width * min(value, largest) / largest))
    full, rest = divmod(eighths, 8)
    return "█" * full + (_EIGHTHS[rest] if rest else "")


def value_text(point: DayPoint, metric: Metric) -> str:
    if metric == "cost":
        return f"${point.cost:,.2f}" if point.cost else "-"
    return compact_count(point.tokens) if point.tokens else "-"


class DayBars(Widget):
    """Days top to bottom (the newest last), one bar each, for tokens or cost."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"day-bars--bar", "day-bars--date"}
    DEFAULT_CSS = """
    DayBars {
        height: auto;
    }
    DayBars > .day-bars--bar {
        color: $primary;
    }
    DayBars > .day-bars--date {
        color: $text-muted;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.points: list[DayPoint] = []
        self.metric: Metric = "tokens"

    def show(self, points: Sequence[DayPoint], metric: Metric) -> None:
        self.points = list(points)
        self.metric = metric
        self.refresh(layout=True)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return max(1, len(self.points))

    def render(self) -> Text:
        if not self.points:
            return Text("no activity in this period", style="dim")
        metric = self.metric
        values = [point.cost if metric == "cost" else point.tokens for point in self.points]
        labels = [value_text(point, metric) for point in self.points]
        label_width = max(map(len, labels))
        width = max(1, self.size.width - _DATE_WIDTH - label_width - 3)
        largest = max(values)
        bar_style = self.get_component_rich_style("day-bars--bar")
        date_style = self.get_component_rich_style("day-bars--date")
        text = Text(no_wrap=True, overflow="crop")
        for index, (point, value, label) in enumerate(
            zip(self.points, values, labels, strict=True)
        ):
            if index:
                text.append("\n")
            drawn = bar(value, largest, width)
            text.append(point.day, date_style)
            text.append(" ")
            text.append(drawn.ljust(width), bar_style)
            text.append(" " + label.rjust(label_width + 1), "" if value else date_style)
        return text
