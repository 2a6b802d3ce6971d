"""The timeline's bars alone (ui/widgets/timeline_bars.py), in a small app: one line per turn
(number, duration, a bar as long as the turn's share of the slowest, tools and model apart,
tokens, the prompt), an unknown duration without a bar, and Enter naming the turn."""

from __future__ import annotations

from textual.app import App, ComposeResult
from waiting import wait_for

from ink_tui.session.analysis.turntime import TurnTime
from ink_tui.ui.widgets.timeline_bars import (
    BAR_WIDTH,
    MODEL_BLOCK,
    TOOL_BLOCK,
    TimelineBars,
    TimelineRow,
)

ROWS = [
    TimelineRow("u1", 1, "set up the project\nwith details", TurnTime(60.0, 30.0, 1000, 200)),
    TimelineRow("u2", 2, "run the tests", TurnTime(15.0)),
    TimelineRow("u3", 3, "no times recorded", TurnTime(None)),
]


class BarsApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[str] = []

    def compose(self) -> ComposeResult:
        yield TimelineBars(id="bars")

    def on_mount(self) -> None:
        bars = self.query_one(TimelineBars)
        bars.show(ROWS)
        bars.focus()

    def on_timeline_bars_selected(self, message: TimelineBars.Selected) -> None:
        self.chosen.append(message.row.key)


def _lines(bars: TimelineBars) -> list[str]:
    return [bars.render_line(y).text.rstrip() for y in range(len(ROWS))]


async def test_each_turn_is_a_bar_as_long_as_its_share_of_the_slowest() -> None:
    app = BarsApp()
    async with app.run_test(size=(90, 6)) as pilot:
        bars = app.query_one(TimelineBars)
        await wait_for(pilot, lambda: "set up" in _lines(bars)[0], "the bars")
        first, second, third = _lines(bars)
        half = BAR_WIDTH // 2
        assert first.startswith("     1   1m00s ")
        assert TOOL_BLOCK * half + MODEL_BLOCK * half in first  # half of it in tools
        assert first.endswith("1200 tok  set up the project")  # the prompt's first line
        assert MODEL_BLOCK * round(BAR_WIDTH / 4) + " " in second
        assert TOOL_BLOCK not in second and "run the tests" in second
        assert TOOL_BLOCK not in third and MODEL_BLOCK not in third  # no time: no bar
        assert "no times recorded" in third


async def test_the_cursor_moves_and_enter_names_the_turn() -> None:
    app = BarsApp()
    async with app.run_test(size=(90, 6)) as pilot:
        bars = app.query_one(TimelineBars)
        await wait_for(pilot, lambda: bars.row_count == 3, "the bars")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: app.chosen, "a turn chosen")
        assert app.chosen == ["u2"] and bars.highlighted == ROWS[1]
        bars.show(ROWS, cursor=2)  # shown again with the cursor on a given turn
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.chosen) == 2, "a second turn chosen")
        assert app.chosen[-1] == "u3"
