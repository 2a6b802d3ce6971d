"""Usage and cost: the totals of this project's sessions (Tab: every project) per model, project,
day or week, and a bar chart of tokens or cost per day.

Opened from the picker (``S``). The sessions are read in a worker (only the files that changed
since the last look: :func:`ink_tui.catalog.usagecache.collect_usage`); grouping again and switching
the chart use what was read. The figures are those of ``ink-tui stats``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Final

from rich.text import Text
from textual import getters, on, work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from ink_tui.catalog.prices import PriceTable, load_price_table
from ink_tui.catalog.stats import (
    GROUPS,
    HEADERS,
    KEY_WIDTH,
    DayPoint,
    Grouping,
    StatsReport,
    build_report,
    fit_key,
    flagged_note,
    row_cells,
)
from ink_tui.catalog.usage import FileUsage
from ink_tui.catalog.usagecache import collect_usage
from ink_tui.logs import unforeseen
from ink_tui.paths import cwd_folder_name
from ink_tui.ui.keymap import bind, key_of
from ink_tui.ui.options import InkAppBase, app_now
from ink_tui.ui.render.safe import plain
from ink_tui.ui.widgets.day_bars import DayBars, Metric
from ink_tui.ui.widgets.footer import InkFooter

__all__ = ["CHART_DAYS", "CHART_MIN_DAYS", "StatsScreen", "chart_days"]

CHART_DAYS: Final = 90  # the chart's longest span, ending today
CHART_MIN_DAYS: Final = 14  # and its shortest: the days before the first activity are shown


def chart_days(points: list[DayPoint], today: date) -> list[DayPoint]:
    """The days to draw, quiet ones included: up to today (or tomorrow, when a record is
    stamped then: a clock a little ahead), from the first with activity, but no more than
    :data:`CHART_DAYS` and no fewer than :data:`CHART_MIN_DAYS` days. ``points`` are the
    active days only, so the work is bounded by the window, whatever span they cover (a
    record dated 9999-12-31 is not charted, nor are the years before the window)."""
    if not points:
        return []
    by_day = {point.day: point for point in points}
    tomorrow = (today + timedelta(days=1)).isoformat()
    shown = [point.day for point in points if point.day <= tomorrow]
    if not shown:
        return []  # every active day is after tomorrow: nothing to chart
    last = max(date.fromisoformat(shown[-1]), today)
    first = min(date.fromisoformat(shown[0]), last - timedelta(days=CHART_MIN_DAYS - 1))
    first = max(first, last - timedelta(days=CHART_DAYS - 1))
    days = ((first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1))
    return [by_day.get(day, DayPoint(day, 0, 0.0)) for day in days]


class StatsScreen(Screen[None]):
    """The totals table over the chart; ``O`` regroups, ``m`` charts cost or tokens."""

    app = getters.app(InkAppBase)

    BINDINGS = [
        bind("back", "back", "Back", show=True),
        bind("switch", "toggle_scope", "All projects / this project", show=True),
        bind("order", "next_grouping", "Group by", show=True),
        bind("metric", "toggle_metric", "Chart tokens / cost", show=True),
    ]

    @dataclass
    class Read(Message):
        """The sessions of a scope were read (or could not be: ``problem``)."""

        all_projects: bool
        files: list[FileUsage]
        prices: PriceTable | None
        problem: str | None = None

    @dataclass
    class Reading(Message):
        done: int
        total: int

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, StatsScreen.Reading)

    def __init__(self, sessions_dir: Path, cwd: str, *, all_projects: bool = False) -> None:
        super().__init__()
        self.sessions_dir = sessions_dir
        self.cwd = cwd
        self.all_projects = all_projects
        self.grouping: Grouping = "model"
        self.metric: Metric = "tokens"
        self.report: StatsReport | None = None
        self._files: list[FileUsage] = []
        self._prices: PriceTable | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="stats-scope")
        yield DataTable(id="stats-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="stats-chart-title")
        with VerticalScroll(id="stats-chart"):
            yield DayBars(id="stats-bars")
        yield Static(id="stats-note")
        yield InkFooter()

    table = getters.query_one("#stats-table", DataTable)
    bars = getters.query_one("#stats-bars", DayBars)

    def on_mount(self) -> None:
        self.table.focus()
        self._show_scope()
        self._say("reading the sessions…")
        self._read(self.all_projects)

    # -- reading -------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="stats-read")
    def _read(self, all_projects: bool) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            self.post_message(self.Reading(done, total))

        try:
            files = collect_usage(
                self.sessions_dir,
                None if all_projects else self.cwd,
                progress=progress,
                cancelled=worker.cancelled_event,
            )
            prices = load_price_table(self.app.options.config_path)
        except Exception as error:  # a bug: logged with its traceback, said in one line
            self.post_message(self.Read(all_projects, [], None, unforeseen(error, "the stats")))
            return
        if not worker.is_cancelled:
            self.post_message(self.Read(all_projects, files, prices))

    @on(Reading)
    def _reading(self, message: Reading) -> None:
        self._say(f"reading the sessions… {message.done:,} of {message.total:,}")

    @on(Read)
    def _read_done(self, message: Read) -> None:
        if message.all_projects != self.all_projects:
            return  # the scope changed meanwhile: its own read is under way
        if message.problem is not None or message.prices is None:
            self._say(message.problem or "")
            return
        self._files, self._prices = message.files, message.prices
        self._show_report()

    # -- what the user sees ----------------------------------------------------------------------

    def _show_report(self) -> None:
        if self._prices is None:
            return
        report = self.report = build_report(self._files, self._prices, self.grouping)
        table = self.table
        table.clear(columns=True)
        table.add_column(self.grouping, key="key")
        for header in HEADERS:
            table.add_column(Text(header, justify="right"), key=header)
        for row in [*report.rows, report.total]:
            total = row is report.total
            cells = [
                Text(cell, justify="right", style="bold" if total else "")
                for cell in row_cells(row)
            ]
            shown = fit_key(row.key, KEY_WIDTH)  # a 200-character model name is cut with …
            key = plain(shown, "bold") if total else plain(shown)
            table.add_row(key, *cells)  # no row keys: a project may be called "total"
        self._show_chart()
        notes = [f"cost: estimates from list prices as of {report.prices_as_of}; days are UTC"]
        if report.unpriced_models:
            names = ", ".join(fit_key(model, KEY_WIDTH) for model in report.unpriced_models)
            notes.append(f"no price for {names} (cost ?)")
        flagged = flagged_note(report)
        if flagged is not None:
            notes.append(flagged)
        notes.extend(report.problems[:3])
        if not report.rows:
            notes.insert(0, "no sessions" + ("" if self.all_projects else " in this project"))
        self._say(" · ".join(notes))

    def _show_chart(self) -> None:
        if self.report is None:
            return
        today = datetime.fromtimestamp(app_now(self), UTC).date()
        points = chart_days(self.report.days, today)
        what = "Cost (USD, priced models)" if self.metric == "cost" else "Tokens"
        other = "tokens" if self.metric == "cost" else "cost"
        title = Text.assemble(
            (f"{what} per day", "bold"), (f"    {key_of('metric')}: {other}", "dim")
        )
        self.query_one("#stats-chart-title", Static).update(title)
        self.bars.show(points, self.metric)
        self.query_one("#stats-chart", VerticalScroll).scroll_end(animate=False)

    def _show_scope(self) -> None:
        scope = (
            "All projects" if self.all_projects else f"This project · {cwd_folder_name(self.cwd)}"
        )
        line = plain("Usage and cost  ", "bold")
        line.append_text(plain(scope))
        line.append("    Tab: " + ("this project" if self.all_projects else "all projects"), "dim")
        line.append(f"    {key_of('order')}: group by (now {self.grouping})", "dim")
        self.query_one("#stats-scope", Static).update(line)

    def _say(self, text: str) -> None:
        self.query_one("#stats-note", Static).update(plain(text))

    # -- actions -------------------------------------------------------------------------------

    def action_back(self) -> None:
        self.dismiss()

    def action_toggle_scope(self) -> None:
        self.all_projects = not self.all_projects
        self._show_scope()
        self._say("reading the sessions…")
        self._read(self.all_projects)

    def action_next_grouping(self) -> None:
        self.grouping = GROUPS[(GROUPS.index(self.grouping) + 1) % len(GROUPS)]
        self._show_scope()
        self._show_report()

    def action_toggle_metric(self) -> None:
        self.metric = "cost" if self.metric == "tokens" else "tokens"
        self._show_chart()
