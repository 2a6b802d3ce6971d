"""The per-day chart alone (ui/widgets/day_bars.py), in a small app: a line per day (its date,
a bar scaled to the largest day, its value), a quiet day as its date and "-", tokens or cost,
and an empty period said in words."""

from __future__ import annotations

from textual.app import App, ComposeResult
from waiting import wait_for

from ink_tui.catalog.stats import DayPoint
from ink_tui.ui.widgets.day_bars import DayBars

DAYS = [
    DayPoint("2026-03-01", 40_000, 2.5),
    DayPoint("2026-03-02", 0, 0.0),
    DayPoint("2026-03-03", 10_000, 0.0),  # tokens, none priced
]


class ChartApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DayBars(id="chart")


def _lines(app: ChartApp) -> list[str]:
    chart = app.query_one(DayBars)
    return [chart.render_line(y).text.rstrip() for y in range(chart.size.height)]


async def test_each_day_is_a_bar_scaled_to_the_largest() -> None:
    app = ChartApp()
    async with app.run_test(size=(40, 6)) as pilot:
        app.query_one(DayBars).show(DAYS, "tokens")
        await wait_for(pilot, lambda: len(_lines(app)) == 3, "three days")
        # 40 columns: the date (10), a space, the bar (22), the value right-aligned (2 + 5)
        assert _lines(app) == [
            "2026-03-01 " + "█" * 22 + "  40.0k",
            "2026-03-02" + " " * 29 + "-",
            "2026-03-03 " + "█" * 5 + "▌" + " " * 16 + "  10.0k",  # a quarter: 5.5 cells
        ]


async def test_cost_shows_dollars_and_an_unpriced_day_as_quiet() -> None:
    app = ChartApp()
    async with app.run_test(size=(40, 6)) as pilot:
        app.query_one(DayBars).show(DAYS, "cost")
        await wait_for(pilot, lambda: len(_lines(app)) == 3, "three days")
        first, second, third = _lines(app)
        assert first.endswith("█" * 22 + "  $2.50") and "█" not in second + third
        assert second.endswith("-") and third.endswith("-")


async def test_no_day_says_so() -> None:
    app = ChartApp()
    async with app.run_test(size=(40, 6)) as pilot:
        app.query_one(DayBars).show([], "tokens")
        await wait_for(pilot, lambda: _lines(app), "the chart")
        assert _lines(app) == ["no activity in this period"]
