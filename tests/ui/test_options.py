"""ui/options.py in a small app: ``follow_theme`` repaints a part after each theme change while
it is mounted, once the session palette follows the new theme, and never after it is gone."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static
from waiting import wait_for

from ink_tui.ui.options import follow_theme
from ink_tui.ui.render import palette
from ink_tui.ui.render.palette import use_theme


class Painted(Static):
    """A part that notes each repaint and the palette's colour for "ok" at that moment."""

    def __init__(self) -> None:
        super().__init__("painted")
        self.repaints: list[str] = []

    def on_mount(self) -> None:
        follow_theme(self, lambda: self.repaints.append(palette.current.ok))


class ThemeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Painted()

    def watch_theme(self, theme: str) -> None:
        use_theme(self.get_css_variables())  # as InkApp does before the screens repaint


async def test_a_part_repaints_after_each_theme_change_in_the_new_colours() -> None:
    app = ThemeApp()
    async with app.run_test(size=(40, 5)) as pilot:
        part = app.query_one(Painted)
        app.theme = "nord"
        await wait_for(pilot, lambda: len(part.repaints) == 1, "the repaint")
        assert part.repaints == [app.theme_variables["text-success"]]  # the palette followed
        app.theme = "textual-light"
        await wait_for(pilot, lambda: len(part.repaints) == 2, "the second repaint")
        assert part.repaints[1] == app.theme_variables["text-success"]


async def test_a_part_removed_repaints_no_more() -> None:
    app = ThemeApp()
    async with app.run_test(size=(40, 5)) as pilot:
        part = app.query_one(Painted)
        await part.remove()
        app.theme = "nord"
        await pilot.pause()
        await pilot.pause()
        assert part.repaints == []
