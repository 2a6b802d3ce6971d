"""The timeline (``T`` in the session view): every turn of the branch as a bar of its duration.

Each bar is cut into the turn's tool time and the model's, scaled to the slowest turn, so the
slow turns stand out; ``O`` orders them slowest first. Enter goes back to the session view on that
turn. The turns are measured in a worker (a long branch takes a moment; the title counts), from
the records' timestamps (:mod:`ink_tui.session.analysis.turntime`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from ink_tui.humanize import compact_count, plural
from ink_tui.session.analysis.turntime import short_duration, turn_time
from ink_tui.session.conversation.view import Turn
from ink_tui.ui.keymap import bind
from ink_tui.ui.options import follow_theme
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.footer import InkFooter
from ink_tui.ui.widgets.timeline_bars import MODEL_BLOCK, TOOL_BLOCK, TimelineBars, TimelineRow

__all__ = ["TimelineScreen"]

_PROGRESS_EVERY = 20_000  # turns measured between two progress notes


def _summary(rows: list[TimelineRow]) -> Text:
    total = sum(row.time.seconds or 0.0 for row in rows)
    tools = sum(row.time.tool_seconds for row in rows)
    tokens = sum(row.time.tokens for row in rows)
    share = f" ({tools / total:.0%})" if total else ""
    slowest = max(rows, key=lambda row: row.time.seconds or 0.0, default=None)
    text = plain(
        f"Timeline · {plural(len(rows), 'turn')} · {short_duration(total)} in turns", "bold"
    )
    text.append_text(
        plain(
            f" · tools {short_duration(tools)}{share}, model {short_duration(total - tools)}"
            f" · {compact_count(tokens)} tokens"
        )
    )
    if slowest is not None and slowest.time.seconds:
        text.append_text(
            plain(f" · slowest: turn {slowest.number} ({short_duration(slowest.time.seconds)})")
        )
    return text


class TimelineScreen(Screen[str | None]):
    """Every turn as a bar; Enter returns the turn's row key, Esc ``None``."""

    DEFAULT_CSS = """
    TimelineScreen #timeline-title { padding: 0 1; }
    TimelineScreen #timeline-legend { padding: 0 1; color: $text-muted; }
    TimelineScreen TimelineBars { height: 1fr; }
    """
    BINDINGS = [
        bind("order", "sort", "Slowest first / in order", show=True),
        bind("back", "cancel", "Back", show=True),
    ]

    @dataclass
    class Measured(Message):
        rows: list[TimelineRow]

    @dataclass
    class Progress(Message):
        done: int
        total: int

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, TimelineScreen.Progress)

    def __init__(self, turns: list[Turn], current: str) -> None:
        super().__init__()
        self.turns, self.current = turns, current
        self.rows: list[TimelineRow] = []
        self.slowest_first = False

    def compose(self) -> ComposeResult:
        yield Static(plain("Timeline · measuring the turns…", "bold"), id="timeline-title")
        yield Static(id="timeline-legend")
        yield TimelineBars(id="timeline-bars")
        yield InkFooter()

    def on_mount(self) -> None:
        bars = self.query_one(TimelineBars)
        bars.focus()
        follow_theme(self, self.theme_changed)
        self._legend()
        self._measure()

    def _legend(self) -> None:
        bars = self.query_one(TimelineBars)
        legend = Text.assemble(
            (TOOL_BLOCK, bars.part_style("tool")),
            " tools  ",
            (MODEL_BLOCK, bars.part_style("model")),
            " model (the rest of the turn) · scaled to the slowest turn · Enter: show the turn",
        )
        self.query_one("#timeline-legend", Static).update(legend)

    @work(thread=True, exclusive=True, group="timeline")
    def _measure(self) -> None:
        worker = get_current_worker()
        rows: list[TimelineRow] = []
        prompts = 0  # turns are numbered by their prompts, as in the tree
        for index, turn in enumerate(self.turns):
            if worker.is_cancelled:
                return
            if index and index % _PROGRESS_EVERY == 0:
                self.post_message(self.Progress(index, len(self.turns)))
            prompts += turn.user is not None
            number = prompts if turn.user is not None else 0
            prompt = turn.prompt if turn.user is not None else "(before the first prompt)"
            rows.append(TimelineRow(turn.key, number, prompt, turn_time(turn)))
        self.post_message(self.Measured(rows))

    @on(Progress)
    def _progress(self, message: Progress) -> None:
        title = f"Timeline · measuring the turns… {message.done:,} of {message.total:,}"
        self.query_one("#timeline-title", Static).update(plain(title, "bold"))

    @on(Measured)
    def _measured(self, message: Measured) -> None:
        self.rows = message.rows
        self.query_one("#timeline-title", Static).update(_summary(self.rows))
        self._show()

    def _show(self, key: str | None = None) -> None:
        rows = self.rows
        if self.slowest_first:
            rows = sorted(rows, key=lambda row: -(row.time.seconds or 0.0))
        wanted = key or self.current
        cursor = next((i for i, row in enumerate(rows) if row.key == wanted), len(rows) - 1)
        self.query_one(TimelineBars).show(rows, max(0, cursor))

    @on(TimelineBars.Selected)
    def _selected(self, event: TimelineBars.Selected) -> None:
        self.dismiss(event.row.key)

    def action_sort(self) -> None:
        row = self.query_one(TimelineBars).highlighted
        self.slowest_first = not self.slowest_first
        self._show(row.key if row is not None else None)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def theme_changed(self) -> None:
        self.query_one(TimelineBars).refresh_styles()
        self._legend()
