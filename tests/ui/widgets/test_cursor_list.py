"""The list base the branches' list and the timeline share (ui/widgets/cursor_list.py): the
cursor's keys, a click, Enter, the cursor kept in sight, and lines drawn only when seen."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Size
from waiting import wait_for

from ink_tui.ui.widgets.cursor_list import CursorList

ROWS = 1_000


class Numbers(CursorList):
    COMPONENT_CLASSES: ClassVar[set[str]] = {"numbers--cursor"}
    CURSOR_CLASS = "numbers--cursor"
    DEFAULT_CSS = "Numbers { height: 1fr; } Numbers > .numbers--cursor { text-style: reverse; }"

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[int] = []
        self.moves = 0
        self.drawn: set[int] = set()

    @property
    def row_count(self) -> int:
        return ROWS

    def row_text(self, index: int, width: int) -> Text:
        self.drawn.add(index)
        return Text(f"row {index}")

    def select(self, index: int) -> None:
        self.selected.append(index)

    def cursor_moved(self) -> None:
        self.moves += 1

    def on_mount(self) -> None:
        self.virtual_size = Size(20, ROWS)


class ListApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Numbers()


def _shown(app: Any) -> list[str]:
    numbers = app.query_one(Numbers)
    return [numbers.render_line(y).text.strip() for y in range(numbers.size.height)]


async def test_the_keys_move_the_cursor_and_keep_it_in_sight() -> None:
    app = ListApp()
    async with app.run_test(size=(40, 12)) as pilot:
        numbers = app.query_one(Numbers)
        numbers.focus()
        await pilot.press("down", "down", "up")
        assert numbers.cursor_row == 1 and numbers.moves == 3
        await pilot.press("pagedown")
        assert numbers.cursor_row == 1 + 11
        assert "row 12" in _shown(app)  # scrolled just enough to show it
        await pilot.press("end")
        await wait_for(pilot, lambda: _shown(app)[-1] == "row 999", "the last row in sight")
        assert numbers.cursor_row == ROWS - 1
        await pilot.press("down")  # past the end: stays
        assert numbers.cursor_row == ROWS - 1
        await pilot.press("pageup", "home")
        assert numbers.cursor_row == 0 and _shown(app)[0] == "row 0"
        await pilot.press("up")  # before the start: stays
        assert numbers.cursor_row == 0
        assert len(numbers.drawn) < 60  # only the lines that were on screen were drawn


async def test_enter_and_clicks_select() -> None:
    app = ListApp()
    async with app.run_test(size=(40, 12)) as pilot:
        numbers = app.query_one(Numbers)
        numbers.focus()
        await pilot.press("enter")
        assert numbers.selected == [0]
        await pilot.click(Numbers, offset=(2, 3))  # a first click moves the cursor there
        assert numbers.cursor_row == 3 and numbers.selected == [0]
        await pilot.click(Numbers, offset=(2, 3))  # a second one selects
        assert numbers.selected == [0, 3]
        await pilot.click(Numbers, offset=(2, 11))
        assert numbers.cursor_row == 11
