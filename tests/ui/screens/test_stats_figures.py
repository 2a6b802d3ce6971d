"""The stats screen (``S`` in the picker) over records that crashed the app or made its figures
lie (issue 19): impossible dates, a ten-thousand-year span, absurd usage, a long model name."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from figurestree import CWD, LONG_MODEL, odd_dates_tree, span_tree, usage_tree
from textual.pilot import Pilot
from waiting import wait_for

from ink_tui.catalog.stats import DayPoint
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.screens.stats import CHART_DAYS, StatsScreen, chart_days

TODAY = datetime(2026, 10, 14, 12, 0, tzinfo=UTC)


def _rows(screen: StatsScreen) -> list[list[str]]:
    table = screen.table
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def _open_stats(pilot: Pilot[Any]) -> StatsScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PickerScreen), "the picker")
    await pilot.press("S")
    screen = await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen,
        "the stats screen",
    )
    assert isinstance(screen, StatsScreen)
    await wait_for(pilot, lambda: screen.report is not None, "the figures")
    return screen


def _app(make_app: Any, base: Path) -> Any:
    return make_app(sessions_dir=base, cwd=CWD, clock=lambda: TODAY.timestamp())


async def test_impossible_dates_never_close_the_app(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    odd_dates_tree(base)
    app = _app(make_app, base)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _open_stats(pilot)
        seen = [(screen.grouping, [row[0] for row in _rows(screen)])]
        for _ in range(3):
            await pilot.press("O")  # group by (the order key)
            seen.append((screen.grouping, [row[0] for row in _rows(screen)]))
        assert seen == [
            ("model", ["anthropic/claude-sonnet-4-5", "total"]),
            ("project", ["home-u-odd", "total"]),
            ("day", ["(unknown)", "2026-10-05", "total"]),
            ("week", ["(unknown)", "2026-W41", "total"]),
        ]
        assert _rows(screen)[-1][3] == "5"  # every call counted, dated or not
        await pilot.press("m", "m")  # the chart: cost, then tokens again
        assert app.is_running and app.screen is screen
        bars = screen.bars
        assert bars.points[-1].day == "2026-10-14" and len(bars.points) == 14


async def test_a_span_of_ten_thousand_years_charts_its_last_days(
    tmp_path: Path, make_app: Any
) -> None:
    base = tmp_path / "sessions"
    span_tree(base)
    app = _app(make_app, base)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await _open_stats(pilot)
        assert screen.report is not None
        assert [point.day for point in screen.report.days] == ["0001-01-01", "9999-12-31"]
        points = screen.bars.points  # up to today: 9999-12-31 is no day to chart
        assert (points[0].day, points[-1].day, len(points)) == ("2026-07-17", "2026-10-14", 90)


async def test_absurd_usage_is_flagged_and_a_long_model_cut(tmp_path: Path, make_app: Any) -> None:
    base = tmp_path / "sessions"
    usage_tree(base)
    app = _app(make_app, base)
    async with app.run_test(size=(160, 36)) as pilot:
        screen = await _open_stats(pilot)
        rows = _rows(screen)
        keys = [row[0] for row in rows]
        assert keys[0] == "anthropic/claude-sonnet-4-5"
        assert keys[1].startswith("openai/mmm") and keys[1].endswith("…") and len(keys[1]) == 40
        # calls (one flagged), in, out: the 2^53 tokens are left out
        assert (rows[-1][3], rows[-1][6], rows[-1][7]) == ("4!", "1005", "105")
        note = str(screen.query_one("#stats-note").render())
        assert "flagged: 1 model call reports over 1,000,000,000 tokens" in note
        assert f"no price for {keys[1]} (cost ?)" in note and LONG_MODEL not in note


def test_chart_days_never_walk_a_span_they_do_not_draw() -> None:
    points = [DayPoint("0001-01-01", 5, 0.0), DayPoint("9999-12-31", 5, 0.0)]
    days = chart_days(points, date(2026, 10, 7))
    assert len(days) == CHART_DAYS and days[-1].day == "2026-10-07"
    assert chart_days([DayPoint("9999-12-31", 1, 0.0)], date(2026, 10, 7)) == []
    tomorrow = chart_days([DayPoint("2026-10-08", 1, 0.0)], date(2026, 10, 7))
    assert tomorrow[-1] == DayPoint("2026-10-08", 1, 0.0)  # a clock a little ahead
