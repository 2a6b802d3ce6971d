"""The stats screen (S in the picker, issue 12) on the hand-computed tree of tests/statstree.py."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from statstree import A_CWD, write_tree
from textual.pilot import Pilot
from waiting import wait_for

from ink_tui.catalog.stats import DayPoint
from ink_tui.ui.screens.help import HelpRow, help_rows
from ink_tui.ui.screens.picker import PickerScreen
from ink_tui.ui.screens.stats import CHART_DAYS, CHART_MIN_DAYS, StatsScreen, chart_days
from ink_tui.ui.widgets.day_bars import bar

TODAY = datetime(2026, 10, 14, 12, 0, tzinfo=UTC)
PRICES = (
    '[prices."anthropic/claude-sonnet-4-5"]\n'
    "input = 3\noutput = 15\ncache_read = 0.3\ncache_write = 3.75\n"
    '[prices."openai/gpt-5.1"]\ninput = 1\noutput = 10\ncache_read = 0.1\n'
    '[prices."zai/glm-5"]\ninput = 1\noutput = 2\ncache_read = 0.5\n'
)


@pytest.fixture
def stats_app(tmp_path: Path, make_app: Any) -> Any:
    base = tmp_path / "sessions"
    write_tree(base)
    config = tmp_path / "config.toml"
    config.write_text(PRICES, encoding="utf-8")
    return make_app(
        sessions_dir=base, cwd=A_CWD, config_path=config, clock=lambda: TODAY.timestamp()
    )


def _rows(screen: StatsScreen) -> list[list[str]]:
    table = screen.table
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def _open_stats(pilot: Pilot[Any]) -> StatsScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PickerScreen), "the picker")
    rows = help_rows(pilot.app.screen)  # the key help (?) lists it
    assert HelpRow("More keys on this screen", "S", "Usage and cost") in rows
    await pilot.press("S")
    screen = await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen,
        "the stats screen",
    )
    assert isinstance(screen, StatsScreen)
    await wait_for(pilot, lambda: screen.report is not None, "the figures")
    return screen


async def test_s_opens_this_projects_figures_and_tab_every_projects(stats_app: Any) -> None:
    async with stats_app.run_test(size=(120, 36)) as pilot:
        screen = await _open_stats(pilot)
        rows = _rows(screen)
        assert [row[0] for row in rows] == [
            "anthropic/claude-sonnet-4-5",
            "openai/gpt-5.1",
            "total",
        ]
        # sessions, turns, calls, tools, failed, in, out, cache r, cache w, cost
        assert rows[0][1:] == ["2", "2", "3", "2", "50.0%", "1110", "260", "5000", "2000", "$0.02"]
        assert rows[-1][1:] == [
            "2",
            "3",
            "5",
            "3",
            "66.7%",
            "3610",
            "1360",
            "15.0k",
            "2000",
            "$0.03",
        ]
        scope = str(screen.query_one("#stats-scope").render())
        assert "This project · home-u-a" in scope

        await pilot.press("tab")
        await wait_for(pilot, lambda: len(_rows(screen)) == 5, "every project's models")
        rows = _rows(screen)
        assert rows[3][0] == "openai/gpt-9-unknown" and rows[3][-1] == "?"
        assert rows[-1][1:4] == ["3", "7", "8"] and rows[-1][-1] == "$0.03+?"
        note = str(screen.query_one("#stats-note").render())
        assert "no price for openai/gpt-9-unknown (cost ?)" in note
        assert "prices as of 2026-12" in note

        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, PickerScreen), "the picker")


async def test_O_groups_by_project_day_week_then_model(stats_app: Any) -> None:
    async with stats_app.run_test(size=(120, 36)) as pilot:
        screen = await _open_stats(pilot)
        await pilot.press("tab")
        await wait_for(pilot, lambda: len(_rows(screen)) == 5, "every project's models")
        seen = []
        for _ in range(4):
            await pilot.press("O")
            seen.append((screen.grouping, [row[0] for row in _rows(screen)]))
        assert seen == [
            ("project", ["home-u-a", "home-u-b", "total"]),
            ("day", ["2026-10-05", "2026-10-06", "2026-10-12", "2026-10-13", "total"]),
            ("week", ["2026-W41", "2026-W42", "total"]),
            ("model", [
                "anthropic/claude-sonnet-4-5", "openai/gpt-5.1", "zai/glm-5.3",
                "openai/gpt-9-unknown", "total",
            ]),
        ]  # fmt: skip
        assert _rows(screen)[0][1:3] == ["2", "2"]
        assert "O: group by (now model)" in str(screen.query_one("#stats-scope").render())


async def test_m_charts_cost_or_tokens_per_day_up_to_today(stats_app: Any) -> None:
    async with stats_app.run_test(size=(120, 36)) as pilot:
        screen = await _open_stats(pilot)
        bars = screen.bars
        # this project's days up to today (10-14), two weeks at least, the quiet ones empty
        assert [bars.points[0].day, bars.points[4].day] == ["2026-10-01", "2026-10-05"]
        assert len(bars.points) == CHART_MIN_DAYS and bars.metric == "tokens"
        lines = str(bars.render()).splitlines()[4:]
        assert lines[0].startswith("2026-10-05 █") and lines[0].endswith("8350")
        assert lines[1].endswith("13.6k")  # the biggest day: the full width
        assert lines[2].rstrip().endswith("-") and "█" not in lines[2]
        title = str(screen.query_one("#stats-chart-title").render())
        assert title.startswith("Tokens per day") and title.endswith("m: cost")  # the key bound

        await pilot.press("m")
        assert bars.metric == "cost"
        lines = str(bars.render()).splitlines()[4:]
        assert lines[0].endswith("$0.02") and lines[1].endswith("$0.01")
        title = str(screen.query_one("#stats-chart-title").render())
        assert title.startswith("Cost (USD, priced models) per day")
        await pilot.press("m")
        assert bars.metric == "tokens"


async def test_no_sessions_is_said(tmp_path: Path, make_app: Any) -> None:
    app = make_app(sessions_dir=tmp_path / "nothing", cwd="/nowhere")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _open_stats(pilot)
        assert [row[0] for row in _rows(screen)] == ["total"]
        assert str(screen.query_one("#stats-note").render()).startswith(
            "no sessions in this project"
        )
        assert str(screen.bars.render()) == "no activity in this period"


def test_chart_days_pad_to_today_and_keep_two_weeks_to_90_days() -> None:
    points = [DayPoint("2026-01-01", 5, 0.5), DayPoint("2026-10-05", 10, 1.0)]
    days = chart_days(points, date(2026, 10, 7))
    assert len(days) == CHART_DAYS
    assert days[-1] == DayPoint("2026-10-07", 0, 0.0)
    assert days[-3] == DayPoint("2026-10-05", 10, 1.0)
    assert chart_days([], date(2026, 10, 7)) == []
    short = chart_days([DayPoint("2026-10-05", 1, 0.0)], date(2026, 10, 6))
    assert [short[0].day, short[-1].day, len(short)] == ["2026-09-23", "2026-10-06", 14]


def test_bars_in_eighths() -> None:
    assert bar(10, 10, 4) == "████"
    assert bar(5, 10, 4) == "██"
    assert bar(1, 10, 4) == "▍"  # 3.2 eighths, rounded
    assert bar(0, 10, 4) == "" and bar(1, 0, 4) == ""
    assert bar(0.0001, 10, 4) == "▏"  # never invisible when there is something
